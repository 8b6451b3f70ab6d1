// The legend under a step: for each colour scale its bar and the true range.
import { scaleBar } from './colors.js';
import { h, morphChildren } from '../ui/dom.js';
import { fmt } from '../ui/format.js';

/** scales: [{ label, scale }]; t: the lab's words. */
export function renderLegend(container, scales, t) {
  const legend = h('div');
  for (const { label, scale } of scales ?? []) {
    const zero = t(scale.kind === 'sequential' ? 'legend.dark0' : 'legend.white0');
    legend.append(h('span', { class: 'scale' }, h('span', { class: 'name' }, label), scaleBar(scale),
      t('legend.values', { min: fmt(scale.min), max: fmt(scale.max), zero })));
  }
  morphChildren(container, legend);
}

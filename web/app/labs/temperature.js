// Lab: a temperature that divides the scaled scores, from uniform to argmax.
import { clear, h } from '../dom.js';
import { fmt } from '../format.js';
import { t } from '../i18n.js';
import { barChart } from './bars.js';

export default {
  id: 'temperature',
  label: () => t('lab.temperature.label'),
  render(body, ctx) {
    const i = ctx.selected;
    const row = ctx.trace.softmaxRow(i).scaled;
    // The slider is a base-10 exponent: temperature from 0.01 to 100.
    const slider = h('input', { type: 'range', id: 'lab-temperature', min: '-2', max: '2', step: '0.05', value: '0',
      'aria-label': t('lab.temperature.slider') });
    const result = h('div', { class: 'lab-result' });
    const draw = () => {
      const temperature = 10 ** Number(slider.value);
      const s = ctx.lab.softmaxRow(row, { temperature });
      clear(result).append(
        h('p', { class: 'lab-figures', dataset: { maxProb: s.maxProb, entropy: s.entropy } },
          t('lab.temperature.figures', { temp: fmt(temperature), max: fmt(s.maxProb, 3), entropy: fmt(s.entropy, 3) })),
        barChart(s.probs, { labels: ctx.tokens }));
    };
    slider.addEventListener('input', draw);
    body.append(h('p', { class: 'explain' }, t('lab.temperature.explain', { token: ctx.tokens[i] })),
      h('label', { class: 'lab-control' }, t('lab.temperature.slider'), ' ', slider), result);
    draw();
  },
};

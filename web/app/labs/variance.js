// Lab: why the variance of q·k grows with d_k, and how ÷√d_k brings it back to 1.
import { clear, h } from '../dom.js';
import { fmt } from '../format.js';
import { errorText, t } from '../i18n.js';
import { barChart } from './bars.js';

const SIZES = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024];

export default {
  id: 'variance',
  label: () => t('lab.variance.label'),
  render(body, ctx) {
    const select = h('select', { id: 'lab-dk' }, SIZES.map((d) => h('option', { value: String(d) }, String(d))));
    select.value = String(SIZES.includes(ctx.config.dK) ? ctx.config.dK : 64);
    const result = h('div', { class: 'lab-result' });
    const draw = () => {
      const dK = Number(select.value);
      clear(result);
      let s;
      try {
        s = ctx.lab.sampleDotProducts(dK, { count: 2000, bins: 40, seed: ctx.config.seed });
      } catch (error) {
        result.append(h('p', { class: 'message error', role: 'alert' }, errorText(error)));
        return;
      }
      result.append(
        h('p', { class: 'lab-figures', dataset: { variance: s.variance, scaledVariance: s.scaledVariance } },
          t('lab.variance.figures', { v: fmt(s.variance), dK, sv: fmt(s.scaledVariance, 3), half: fmt(s.halfVectorDot) })),
        h('div', { class: 'lab-sides' },
          barChart(s.histogram, { caption: t('lab.variance.raw', { lo: fmt(-s.range, 1), hi: fmt(s.range, 1) }) }),
          barChart(s.scaledHistogram, { caption: t('lab.variance.scaled', { lo: fmt(-s.scaledRange, 1), hi: fmt(s.scaledRange, 1) }) })));
    };
    select.addEventListener('change', draw);
    body.append(h('p', { class: 'explain' }, t('lab.variance.explain')),
      h('label', { class: 'lab-control' }, 'd_k ', select), result);
    draw();
  },
};

// Lab: why the variance of q·k grows with d_k, and how ÷√d_k brings it back to 1.
import { clear, h } from '../dom.js';
import { fmt } from '../format.js';
import { errorText, t } from '../i18n.js';
import { barChart } from './bars.js';

const SIZES = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024];

/** Measured variance against the theory for every d_k on the slider (500 pairs each). */
function theoryTable(ctx) {
  const rows = SIZES.map((d) => {
    const s = ctx.lab.sampleDotProducts(d, { count: 500, bins: 1, seed: ctx.config.seed });
    return h('tr', {}, h('td', {}, String(d)), h('td', {}, fmt(s.variance)), h('td', {}, String(d)),
      h('td', {}, fmt(s.scaledVariance, 3)), h('td', {}, fmt(s.halfVectorDot)));
  });
  const head = h('tr', {}, ['d_k', 'lab.variance.measured', 'lab.variance.theory', 'lab.variance.measuredScaled', 'lab.variance.half']
    .map((k) => h('th', { scope: 'col' }, k === 'd_k' ? k : t(k))));
  return h('table', { class: 'steps lab-table variance-table' }, h('thead', {}, head), h('tbody', {}, rows));
}

export default {
  id: 'variance',
  label: () => t('lab.variance.label'),
  render(body, ctx) {
    const start = SIZES.indexOf(SIZES.includes(ctx.config.dK) ? ctx.config.dK : 64);
    const slider = h('input', { type: 'range', id: 'lab-dk', min: '0', max: String(SIZES.length - 1), step: '1', value: String(start),
      'aria-label': 'd_k' });
    const shown = h('output', { for: 'lab-dk' });
    const result = h('div', { class: 'lab-result' });
    const draw = () => {
      const dK = SIZES[Number(slider.value)];
      shown.textContent = String(dK);
      slider.setAttribute('aria-valuetext', String(dK));
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
    slider.addEventListener('input', draw);
    body.append(h('p', { class: 'explain' }, t('lab.variance.explain')),
      h('label', { class: 'lab-control' }, 'd_k ', slider, shown), result,
      h('h3', {}, t('lab.variance.tableTitle')), theoryTable(ctx));
    draw();
  },
};

// Step 4: Q·Kᵀ, every query against every key.
import { makeScale } from '../matrix/colors.js';
import { clear, h } from '../ui/dom.js';
import { factor, fmt } from '../ui/format.js';
import { heatStrip } from '../matrix/heat-canvas.js';
import { renderMatrix } from '../matrix/matrix-view.js';

/** "q[喜] · k[欢] = 0.53·(−1.20) + … (64 terms) = 12.34", from the core's terms. */
export function explainScore(ctx, i, j) {
  const d = ctx.view.dotTerms('scores', i, j);
  const shown = Math.min(3, d.products.length);
  const terms = Array.from({ length: shown }, (_, t) => `${factor(d.a[t])}·${factor(d.b[t])}`);
  const more = d.products.length > shown ? ctx.t('step.scores.more', { count: d.products.length }) : '';
  const first = Array.from(d.products.slice(0, shown), (p) => factor(p)).join(' + ');
  return ctx.t('step.scores.cell', {
    a: ctx.tokens[i], b: ctx.tokens[j], terms: terms.join(' + '), more,
    products: first, more2: more ? ' + …' : '', total: fmt(d.total),
  });
}

/** Under the matrix: the q row, the k row and their products for one cell. */
function dotInspector(ctx) {
  const q = ctx.view.stage('q');
  const k = ctx.view.stage('k');
  const qk = makeScale('diverging', Math.min(q.min, k.min), Math.max(q.max, k.max));
  const el = h('div', { class: 'inspector', 'aria-live': 'off', 'data-atomic': true }); // show() fills this very element
  // Long rows are canvases kept for the trace (see heatStrip): the warm-up's, for the followed token, are the ones shown.
  const scores = ctx.view.stage('scores');
  const strip = (key, data, scale) => heatStrip(data, scale, { source: scores, key });
  const show = (i, j) => {
    const d = ctx.view.dotTerms('scores', i, j);
    const products = makeScale('diverging', d.productsMin, d.productsMax);
    clear(el).append(
      h('p', { class: 'strip-head' }, ctx.t('step.scores.inspect', { a: ctx.tokens[i], b: ctx.tokens[j], count: d.products.length })),
      h('div', { class: 'strips' },
        h('div', { class: 'label' }, `q[${ctx.tokens[i]}]`), strip(`q ${i}`, d.a, qk),
        h('div', { class: 'label' }, `k[${ctx.tokens[j]}]`), strip(`k ${j}`, d.b, qk),
        h('div', { class: 'label' }, 'q × k'), strip(`q×k ${i} ${j}`, d.products, products),
        h('div', { class: 'label' }, 'Σ'), h('div', { class: 'total' }, `= ${fmt(d.total)}`)));
  };
  return { el, show };
}

export default {
  id: 'scores',
  label: (t) => t('step.scores.label'),
  inFormula: true, // its part of the formula is marked (index.html: data-step)
  matrices: ['scores'], // the core stages it shows, and exports
  panelColumn: 'scores', // the side panel's column it computes
  experiments: ['variance', 'shared-qk', 'geometry'],
  title: (ctx) => ctx.t('step.scores.title'),
  explain(ctx) {
    const s = ctx.view.stage('scores');
    return ctx.t('step.scores.explain', { dK: ctx.config.dK, n: ctx.n, min: fmt(s.min), max: fmt(s.max) });
  },
  async render(body, ctx) {
    const inspector = dotInspector(ctx);
    const block = renderMatrix(ctx.view.stage('scores'), { t: ctx.t,
      rowLabels: ctx.tokens,
      colLabels: ctx.tokens,
      stageId: 'scores',
      selectedRow: ctx.selected,
      onRowLabel: ctx.select,
      explain: (i, j) => explainScore(ctx, i, j),
      onCell: inspector.show,
      arriving: ctx.animate, // built row by row as the reveal brings them in
    });
    inspector.show(ctx.selected, ctx.selected);
    body.append(block.element, inspector.el);
    await block.reveal({ animate: ctx.animate, mode: 'rows', stagger: ctx.n > 24 ? 0 : 70 });
    return [{ label: ctx.t('step.scores.legend'), scale: block.scale }];
  },
};

// Stage 4: Q·Kᵀ, every query against every key.
import { makeScale } from '../colors.js';
import { clear, h } from '../dom.js';
import { factor, fmt } from '../format.js';
import { heatCanvas, renderMatrix } from '../matrix-view.js';

/** "q[喜] · k[欢] = 0.53·(−1.20) + … (64 terms) = 12.34", from the core's terms. */
export function explainScore(ctx, i, j) {
  const d = ctx.trace.dotTerms('scores', i, j);
  const shown = Math.min(3, d.products.length);
  const terms = Array.from({ length: shown }, (_, t) => `${factor(d.a[t])}·${factor(d.b[t])}`);
  const more = d.products.length > shown ? ` + … (${d.products.length} terms)` : '';
  const first = Array.from(d.products.slice(0, shown), (p) => factor(p)).join(' + ');
  return `score(${ctx.tokens[i]} → ${ctx.tokens[j]}) = q[${ctx.tokens[i]}] · k[${ctx.tokens[j]}]\n= ${terms.join(' + ')}${more}\n= ${first}${more ? ' + …' : ''}\n= ${fmt(d.total)}`;
}

/** Under the matrix: the q row, the k row and their products for one cell. */
function dotInspector(ctx) {
  const q = ctx.stage('q');
  const k = ctx.stage('k');
  const qk = makeScale('diverging', Math.min(q.min, k.min), Math.max(q.max, k.max));
  const el = h('div', { class: 'inspector', 'aria-live': 'off' });
  const strip = (data, scale) => heatCanvas({ rows: 1, cols: data.length, data }, scale);
  const show = (i, j) => {
    const d = ctx.trace.dotTerms('scores', i, j);
    const products = makeScale('diverging', d.productsMin, d.productsMax);
    clear(el).append(
      h('p', { class: 'strip-head' }, `Cell ${ctx.tokens[i]} → ${ctx.tokens[j]}: multiply q and k column by column, then add up the ${d.products.length} products`),
      h('div', { class: 'strips' },
        h('div', { class: 'label' }, `q[${ctx.tokens[i]}]`), strip(d.a, qk),
        h('div', { class: 'label' }, `k[${ctx.tokens[j]}]`), strip(d.b, qk),
        h('div', { class: 'label' }, 'q × k'), strip(d.products, products),
        h('div', { class: 'label' }, 'Σ'), h('div', { class: 'total' }, `= ${fmt(d.total)}`)));
  };
  return { el, show };
}

export default {
  id: 'scores',
  label: 'Q·Kᵀ',
  formulaPart: 'scores',
  title: () => 'Q·Kᵀ: raw attention scores',
  explain(ctx) {
    const s = ctx.stage('scores');
    return `Each query row meets each key row: cell (i, j) is the dot product q_i · k_j, ${ctx.config.dK} products added up. Row = the token asking, column = the token being looked at; point at a cell to see its products below. These ${ctx.n} × ${ctx.n} scores run from ${fmt(s.min)} to ${fmt(s.max)}: sums of ${ctx.config.dK} terms get large.`;
  },
  async render(body, ctx) {
    const inspector = dotInspector(ctx);
    const block = renderMatrix(ctx.stage('scores'), {
      rowLabels: ctx.tokens,
      colLabels: ctx.tokens,
      stageId: 'scores',
      selectedRow: ctx.selected,
      onRowLabel: ctx.select,
      explain: (i, j) => explainScore(ctx, i, j),
      onCell: inspector.show,
    });
    inspector.show(ctx.selected, ctx.selected);
    body.append(block.element, inspector.el);
    await block.reveal({ animate: ctx.animate, mode: 'rows', stagger: ctx.n > 24 ? 0 : 70 });
    return [{ label: 'scores', scale: block.scale }];
  },
};

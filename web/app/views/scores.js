// Stage 4: Q·Kᵀ, every query against every key.
import { factor, fmt } from '../format.js';
import { renderMatrix } from '../matrix-view.js';

/** "q[喜] · k[欢] = 0.53·(−1.20) + … (64 terms) = 12.34", from the core's terms. */
export function explainScore(ctx, i, j) {
  const d = ctx.trace.dotTerms('scores', i, j);
  const shown = Math.min(3, d.products.length);
  const terms = Array.from({ length: shown }, (_, t) => `${factor(d.a[t])}·${factor(d.b[t])}`);
  const more = d.products.length > shown ? ` + … (${d.products.length} terms)` : '';
  const first = Array.from(d.products.slice(0, shown), (p) => factor(p)).join(' + ');
  return `score(${ctx.tokens[i]} → ${ctx.tokens[j]}) = q[${ctx.tokens[i]}] · k[${ctx.tokens[j]}]\n= ${terms.join(' + ')}${more}\n= ${first}${more ? ' + …' : ''}\n= ${fmt(d.total)}`;
}

export default {
  id: 'scores',
  label: 'Q·Kᵀ',
  formulaPart: 'scores',
  title: () => 'Q·Kᵀ: raw attention scores',
  explain(ctx) {
    const s = ctx.stage('scores');
    return `Each query row meets each key row: cell (i, j) is the dot product q_i · k_j, ${ctx.config.dK} products added up. Row = the token asking, column = the token being looked at. These ${ctx.n} × ${ctx.n} scores run from ${fmt(s.min)} to ${fmt(s.max)}: sums of ${ctx.config.dK} terms get large.`;
  },
  async render(body, ctx) {
    const block = renderMatrix(ctx.stage('scores'), {
      rowLabels: ctx.tokens,
      colLabels: ctx.tokens,
      stageId: 'scores',
      selectedRow: ctx.selected,
      onRowLabel: ctx.select,
      explain: (i, j) => explainScore(ctx, i, j),
    });
    body.append(block.element);
    await block.reveal({ animate: ctx.animate, mode: 'rows', stagger: ctx.n > 24 ? 0 : 70 });
    return [{ label: 'scores', scale: block.scale }];
  },
};

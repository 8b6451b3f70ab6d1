// Stage 5: ÷√d_k (and the causal mask, when it is on).
import { fmt } from '../format.js';
import { renderMatrix } from '../matrix-view.js';

export function explainScaled(ctx, i, j) {
  const r = ctx.trace.rowSteps(i);
  const head = `${ctx.tokens[i]} → ${ctx.tokens[j]}: `;
  if (r.masked[j] === -Infinity) {
    return `${head}masked. ${ctx.tokens[j]} comes after ${ctx.tokens[i]}, so the causal mask sets it to −∞ and softmax will give it weight 0.`;
  }
  return ctx.config.scale
    ? `${head}${fmt(r.scores[j])} ÷ √${ctx.config.dK} = ${fmt(r.scores[j])} ÷ ${fmt(r.divisor, r.divisor % 1 ? 3 : 0)} = ${fmt(r.scaled[j])}`
    : `${head}scaling is off, the score stays ${fmt(r.scaled[j])}`;
}

export default {
  id: 'scaled',
  label: '÷√d_k',
  formulaPart: 'scaled',
  title: (ctx) => (ctx.config.causal ? '÷√d_k, then the causal mask' : '÷√d_k: scaled scores'),
  explain(ctx) {
    const s = ctx.stage('scores');
    const m = ctx.stage('masked');
    const divisor = ctx.trace.rowSteps(0).divisor;
    const scaling = ctx.config.scale
      ? `Every score is divided by √${ctx.config.dK} = ${fmt(divisor, divisor % 1 ? 3 : 0)}. The range shrinks from ${fmt(s.min)} … ${fmt(s.max)} to ${fmt(m.min)} … ${fmt(m.max)}, so softmax will not saturate. On the old colour scale the new values look pale; then the colours are fitted to the new, smaller range.`
      : `Scaling is off: the scores go to softmax as they are (${fmt(s.min)} … ${fmt(s.max)}), large enough to make it nearly one-hot.`;
    const mask = ctx.config.causal ? ' The causal mask then sets every cell above the diagonal (a later token) to −∞.' : '';
    return scaling + mask;
  },
  async render(body, ctx) {
    const block = renderMatrix(ctx.stage('masked'), {
      rowLabels: ctx.tokens,
      colLabels: ctx.tokens,
      stageId: ctx.config.causal ? 'masked' : 'scaled',
      selectedRow: ctx.selected,
      onRowLabel: ctx.select,
      previous: ctx.animate ? ctx.stage('scores') : undefined,
      explain: (i, j) => explainScaled(ctx, i, j),
    });
    body.append(block.element);
    await block.reveal({ animate: ctx.animate, mode: 'fade' });
    return [{ label: ctx.config.causal ? 'scaled and masked' : 'scaled', scale: block.scale }];
  },
};

// Stage 6: softmax row by row; each row adds up to 1.
import { fmt } from '../format.js';
import { renderMatrix } from '../matrix-view.js';

export function explainWeight(ctx, i, j) {
  const r = ctx.trace.rowSteps(i);
  const head = `p(${ctx.tokens[i]} → ${ctx.tokens[j]}) = exp(s − max) / Σ`;
  if (r.masked[j] === -Infinity) return `${head}\n= exp(−∞) / ${fmt(r.shiftedSum, 3)} = 0 (masked)`;
  return `${head}\n= exp(${fmt(r.masked[j])} − ${fmt(r.max)}) / ${fmt(r.shiftedSum, 3)}\n= ${fmt(r.shiftedExps[j], 3)} / ${fmt(r.shiftedSum, 3)}\n= ${fmt(r.probs[j], 3)}`;
}

export default {
  id: 'softmax',
  label: 'softmax',
  formulaPart: 'softmax',
  title: () => 'softmax: attention weights',
  explain(ctx) {
    const r = ctx.trace.rowSteps(ctx.selected);
    let best = 0;
    r.probs.forEach((p, j) => { if (p > r.probs[best]) best = j; });
    return `Row by row, e^x turns every score into a positive number and stretches the gaps; dividing by the row's total makes each row add up to 1 (the Σ column). Row ${ctx.tokens[ctx.selected]} gives its largest share, ${fmt(r.probs[best])}, to ${ctx.tokens[best]}.`;
  },
  async render(body, ctx) {
    const block = renderMatrix(ctx.stage('weights'), {
      scale: 'sequential',
      rowLabels: ctx.tokens,
      colLabels: ctx.tokens,
      stageId: 'weights',
      selectedRow: ctx.selected,
      onRowLabel: ctx.select,
      sums: ctx.trace.rowSums('weights'),
      explain: (i, j) => explainWeight(ctx, i, j),
    });
    body.append(block.element);
    await block.reveal({ animate: ctx.animate, mode: 'rows', stagger: ctx.n > 24 ? 0 : 110 });
    return [{ label: 'weights', scale: block.scale }];
  },
};

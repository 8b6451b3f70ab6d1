// Step 6: softmax row by row; each row adds up to 1. A trained model's heads
// are shown first, all at once (head-grid.js); the matrix is the selected head's.
import { fmt } from '../ui/format.js';
import { renderMatrix, TABLE_LIMIT } from '../matrix/matrix-view.js';
import { h } from '../ui/dom.js';
import { headGridOf } from '../heads/head-grid.js';
import { headNumber } from '../heads/head-names.js';
import { groupAt, groupLabels } from '../ui/token-groups.js';

export function explainWeight(ctx, i, j) {
  const r = ctx.view.softmaxRow(i);
  const names = { a: ctx.tokens[i], b: ctx.tokens[j], sum: fmt(r.shiftedSum, 3) };
  if (r.masked[j] === -Infinity) return ctx.t('step.softmax.cellMasked', names);
  return ctx.t('step.softmax.cell', { ...names, s: fmt(r.masked[j]), max: fmt(r.max), e: fmt(r.shiftedExps[j], 3), p: fmt(r.probs[j], 3) });
}

export default {
  id: 'softmax',
  label: (t) => t('step.softmax.label'),
  inFormula: true, // its part of the formula is marked (index.html: data-step)
  matrices: ['weights'], // the core stages it shows, and exports
  panelColumn: 'probs', // the side panel's column it computes
  experiments: ['textbook', 'stability', 'what-if'],
  title: (ctx) => ctx.t('step.softmax.title'),
  explain(ctx) {
    const r = ctx.view.softmaxRow(ctx.selected);
    const text = ctx.t('step.softmax.explain', { token: ctx.tokens[ctx.selected], p: fmt(r.maxProb), best: ctx.tokens[r.argmax] })
      + (ctx.byWords ? ` ${ctx.t('step.softmax.byWords')}` : '');
    return ctx.heads > 1 ? `${ctx.t('step.softmax.explainHeads', { heads: ctx.heads, n: headNumber(ctx.where.head) })}${text}` : text;
  },
  async render(body, ctx) {
    const block = ctx.byWords ? wordBlock(ctx) : tokenBlock(ctx);
    if (ctx.heads > 1) body.append(headGridOf(ctx), h('h3', { class: 'head-shown' }, ctx.t('step.softmax.shown', { n: headNumber(ctx.where.head) })));
    body.append(block.element);
    await block.reveal(ctx.byWords ? { animate: false } : { animate: ctx.animate, mode: 'rows', stagger: ctx.n > TABLE_LIMIT ? 0 : 220 });
    return [{ label: ctx.t('step.softmax.legend'), scale: block.scale }];
  },
};

// The selected head's weights between tokens. Animated: each row first shows its plain exps e^x
// and their total, then turns into probabilities that add up to 1.
function tokenBlock(ctx) {
  const { exps: previous, sums: previousSums } = ctx.animate && ctx.n <= TABLE_LIMIT ? ctx.view.expRows() : {};
  return renderMatrix(ctx.view.stage('weights'), { t: ctx.t,
    previous,
    previousSums,
    scale: 'sequential',
    rowLabels: ctx.tokens,
    colLabels: ctx.tokens,
    stageId: 'weights',
    selectedRow: ctx.selected,
    onRowLabel: ctx.select,
    sums: ctx.view.rowSums('weights'),
    explain: (i, j) => explainWeight(ctx, i, j),
  });
}

// The selected head's weights between the learner's words (and the tokens that are no word), by the core's rule.
function wordBlock(ctx) {
  const { groups, weights } = ctx.viewOf(ctx.where).wordAttention(ctx.wordGroups);
  const labels = groupLabels(ctx.tokens, groups);
  return renderMatrix(weights, { t: ctx.t,
    scale: 'sequential',
    rowLabels: labels,
    colLabels: labels,
    stageId: 'word-weights',
    selectedRow: groupAt(groups, ctx.selected),
    onRowLabel: (a) => ctx.select(groups[a].from),
    explain: (a, b) => ctx.t('step.softmax.wordCell', { a: labels[a], b: labels[b], p: fmt(weights.data[a * weights.cols + b], 3),
      from: groups[a].to - groups[a].from + 1, to: groups[b].to - groups[b].from + 1 }),
  });
}

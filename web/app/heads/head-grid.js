// Every head of the selected layer at once, as small heat maps of its
// weights (small multiples), each with its report card's label: the softmax
// step's overview. One click makes a head the one every step shows.
import { makeScale } from '../matrix/colors.js';
import { h } from '../ui/dom.js';
import { fmt } from '../ui/format.js';
import { heatCanvas } from '../matrix/heat-canvas.js';
import { labelText } from './heads-panel.js';
import { headName } from './head-view.js';
import { groupLabels } from '../ui/token-groups.js';

export function headGrid(ctx) {
  const { layer, head: shown } = ctx.where;
  const scale = makeScale('sequential', 0, 1); // one scale for every head: weights are in [0, 1]
  const thumbs = Array.from({ length: ctx.heads }, (_, head) => {
    const where = { layer, head };
    // Between the learner's words when the views show words (the core's rule), else between tokens.
    const byWords = ctx.byWords ? ctx.wordsOf(where) : null;
    const w = byWords ? byWords.weights : ctx.stageOf('weights', where);
    const labels = byWords ? groupLabels(ctx.tokens, byWords.groups) : ctx.tokens;
    const report = ctx.reportOf(where);
    const row = ctx.rowOf(where);
    const name = headName(ctx.t, head);
    const canvas = heatCanvas(w, scale, {
      inPlace: true, // an edit repaints the grid's canvases, it does not add new ones
      explain: (i, j) => ctx.t('heads.cell', { head: name, a: labels[i], b: labels[j], p: fmt(w.data[i * w.cols + j], 3) }),
    });
    return h('button', {
      type: 'button',
      class: `head-thumb${report.knockedOut ? ' knocked-out' : ''}`,
      dataset: { head, label: report.label ?? 'mixed' },
      'aria-pressed': String(head === shown),
      'aria-label': ctx.t('heads.thumb', { head: name, label: labelText(ctx.t, report.label), token: ctx.tokens[ctx.selected], best: ctx.tokens[row.argmax], p: fmt(row.maxProb) }),
      onclick: () => ctx.selectHead(head),
    }, canvas, h('span', { class: 'head-name' }, name), ' ', h('span', { class: 'head-label' }, labelText(ctx.t, report.label)));
  });
  return h('div', { class: 'head-grid', role: 'group', 'aria-label': ctx.t('heads.gridName') }, thumbs);
}

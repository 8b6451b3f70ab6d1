// Every head of the selected layer at once, as small heat maps of its
// weights (small multiples), each with its report card's label: the softmax
// step's overview. One click makes a head the one every step shows.
import { makeScale } from '../matrix/colors.js';
import { h } from '../ui/dom.js';
import { fmt } from '../ui/format.js';
import { heatCanvas } from '../matrix/heat-canvas.js';
import { labelText } from './heads-panel.js';
import { headName } from './head-names.js';
import { groupLabels } from '../ui/token-groups.js';

/** The selected layer's heads of a view context's run, as headGrid draws them. */
export function headGridOf(ctx) {
  const heads = Array.from({ length: ctx.heads }, (_, head) => {
    const view = ctx.viewOf({ layer: ctx.where.layer, head });
    // Between the learner's words when the views show words (the core's rule), else between tokens.
    const byWords = ctx.byWords ? view.wordAttention(ctx.wordGroups) : null;
    return { weights: byWords ? byWords.weights : view.stage('weights'), labels: byWords ? groupLabels(ctx.tokens, byWords.groups) : ctx.tokens,
      report: view.headReport(), row: view.softmaxRow(ctx.selected) };
  });
  return headGrid({ t: ctx.t, tokens: ctx.tokens, selected: ctx.selected, shown: ctx.where.head, heads, selectHead: ctx.selectHead });
}

/** heads: one layer's heads, each { weights (n × n), labels (its rows' and columns'), report: { label, knockedOut },
 *  row: the selected token's { argmax, maxProb } }; shown: the head the steps show (-1: none); selectHead(head). */
export function headGrid({ t, tokens, selected, shown, heads, selectHead }) {
  const scale = makeScale('sequential', 0, 1); // one scale for every head: weights are in [0, 1]
  const thumbs = heads.map(({ weights: w, labels, report, row }, head) => {
    const name = headName(t, head);
    const canvas = heatCanvas(w, scale, {
      inPlace: true, // an edit repaints the grid's canvases, it does not add new ones
      explain: (i, j) => t('heads.cell', { head: name, a: labels[i], b: labels[j], p: fmt(w.data[i * w.cols + j], 3) }),
    });
    return h('button', {
      type: 'button',
      class: `head-thumb${report.knockedOut ? ' knocked-out' : ''}`,
      dataset: { head, label: report.label ?? 'mixed' },
      'aria-pressed': String(head === shown),
      'aria-label': t('heads.thumb', { head: name, label: labelText(t, report.label), token: tokens[selected], best: tokens[row.argmax], p: fmt(row.maxProb) }),
      onclick: () => selectHead(head),
    }, canvas, h('span', { class: 'head-name' }, name), ' ', h('span', { class: 'head-label' }, labelText(t, report.label)));
  });
  return h('div', { class: 'head-grid', role: 'group', 'aria-label': t('heads.gridName') }, thumbs);
}

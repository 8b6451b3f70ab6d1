// Experiment view: attention rollout through every layer (a chunk of its own,
// loaded when the experiment opens): the rule written out, the rollout matrix
// beside the last layer's head-averaged attention, and the selected token's row
// in both as the side panel's table, with what they say of it. Every number is
// the core's (trace.rollout, trace.rolloutRow).
// The page's own helpers come in from experiments/rollout.js (imported here, they would
// make a chunk that the first load must fetch too).
import { ROLLOUT_WORDS } from '../../generated/words/rollout.js';

/** root: the element to fill; deps: { h, morphChildren, fmt, share, translator, renderMatrix, groupAt, groupLabels }.
 *  Returns { update(ctx), dispose() }. */
export function createRolloutView(root, { h, morphChildren, fmt, share, translator, renderMatrix, groupAt, groupLabels }) {
  return {
    update(ctx) {
      const t = translator(ROLLOUT_WORDS[ctx.lang] ?? ROLLOUT_WORDS.en);
      const { view: run, tokens, selected: i } = ctx;
      // The maps between the learner's words when the views show words (the same rule as every view), else tokens.
      const groups = ctx.byWords ? ctx.viewOf(ctx.where).wordAttention(ctx.wordGroups).groups : null;
      const whole = run.rollout({ words: ctx.byWords ? ctx.wordGroups : [] });
      const labels = groups ? groupLabels(tokens, groups) : tokens;
      const at = groups ? groupAt(groups, i) : i;
      const row = run.rolloutRow(i);
      const layers = run.config.layers;
      const product = Array.from({ length: layers }, (_, l) => `Ã${layers - l}`).join(' · ');
      const matrix = (m, caption, id) => renderMatrix(m, { t: ctx.t, caption, rowLabels: labels, colLabels: labels, scale: 'sequential',
        selectedRow: at, stageId: id, onRowLabel: (r) => ctx.select(groups ? groups[r].from : r),
        explain: (r, c) => `${labels[r]} ← ${labels[c]}: ${fmt(m.data[r * m.cols + c], 3)}` }).element;
      const bar = (value) => {
        const span = h('span', { class: 'bar' });
        span.style.width = `${Math.round(value * 100)}%`;
        return span;
      };
      const table = h('table', { class: 'steps rollout-row' },
        h('caption', {}, t('rollout.rowTitle', { token: tokens[i] })),
        h('thead', {}, h('tr', {}, ['rollout.key', 'rollout.last', 'rollout.rollout'].map((k) => h('th', { scope: 'col' }, t(k))))),
        h('tbody', {}, tokens.map((token, j) => h('tr', { class: j === i ? 'self' : undefined, dataset: { j: String(j) } },
          h('td', {}, token),
          h('td', { class: `bar-cell${j === row.lastTop ? ' largest' : ''}`, dataset: { col: 'last' } }, share(row.last[j]), ' ', bar(row.last[j])),
          h('td', { class: `bar-cell${j === row.rolloutTop ? ' largest' : ''}`, dataset: { col: 'rollout' } }, share(row.rollout[j]), ' ', bar(row.rollout[j]))))));
      const sayings = [];
      if (layers > 1) {
        // Which sentences are the core's: rolloutRow's lastSelfFirst, rolloutSelfFirst and topsDiffer.
        const token = tokens[i];
        sayings.push(t(row.lastSelfFirst ? 'rollout.lastSelf' : 'rollout.lastOther',
          { token, top: tokens[row.lastTop], share: fmt(row.last[row.lastTop]), self: fmt(row.lastSelf) }));
        sayings.push(t(row.rolloutSelfFirst ? 'rollout.throughSelf' : 'rollout.throughOther',
          { token, top: tokens[row.rolloutTop], share: fmt(row.rollout[row.rolloutTop]), self: fmt(row.rolloutSelf) }));
        if (row.topsDiffer) sayings.push(t('rollout.differ', { token, lastTop: tokens[row.lastTop], rolloutTop: tokens[row.rolloutTop] }));
      }
      if (run.knockOut.length) sayings.push(t('rollout.knocked', { counts: Array.from(whole.averaged).join(ctx.t('list.sep')) }));
      if (groups) sayings.push(t('rollout.byWords'));
      morphChildren(root, h('div', {},
        h('p', { class: 'explain' }, layers > 1 ? t('rollout.explain', { product }) : t('rollout.explainOne')),
        h('div', { class: 'rollout-maps' }, matrix(whole.rollout, t('rollout.rolloutTitle'), 'rollout'), matrix(whole.last, t('rollout.lastTitle'), 'rollout-last')),
        h('div', { class: 'rollout-side' }, table, sayings.map((text) => h('p', { class: 'rollout-saying' }, text)))));
    },
    dispose() {},
  };
}

// Experiment view: one matrix for queries and keys, or two (a chunk of its own,
// loaded when the experiment opens). Why two, in a sentence; how symmetric each
// head of the lab's model is on the learner's sentence (trace.qkSymmetry); and a
// training lab of its own, whose "Run the Q/K experiment" trains the two side by
// side (training/training-lab.js). Every number is the core's or the trainer's.
// The page's own helpers come in from experiments/shared-qk.js (imported here, they would
// make a chunk that the first load must fetch too).
import { SHARED_QK_WORDS } from '../../generated/words/shared-qk.js';

/** root: the element to fill; deps: { h, morphChildren, fmt, translator, labelText (heads-panel.js), trainingLab(root) → the
 *  training lab in root }. Returns { update(ctx), dispose() }. */
export function createSharedQkView(root, { h, morphChildren, fmt, translator, labelText, trainingLab }) {
  const intro = h('div', {});
  const shipped = h('div', { class: 'qk-shipped' });
  const trainIntro = h('div', {});
  const labRoot = h('div', { id: 'qk-training-lab' });
  root.replaceChildren(intro, shipped, trainIntro, labRoot);
  const lab = trainingLab(labRoot);

  return {
    update(ctx) {
      const t = translator(SHARED_QK_WORDS[ctx.lang] ?? SHARED_QK_WORDS.en);
      morphChildren(intro, h('div', {}, h('p', { class: 'explain' }, t('qk.explain'))));
      const rows = [];
      const notes = []; // a one-way head whose scores are mostly symmetric: the core's oneWay says which
      for (let layer = 0; layer < ctx.layers; layer += 1) {
        for (let head = 0; head < ctx.heads; head += 1) {
          const where = { layer, head };
          const q = ctx.viewOf(where).qkSymmetry();
          const label = ctx.viewOf(where).headReport().label;
          rows.push(h('tr', { dataset: { layer: String(layer), head: String(head), symmetric: String(q.symmetricShare), self: String(q.selfShare) } },
            h('td', {}, String(layer + 1)), h('td', {}, ctx.t('heads.name', { n: head + 1 })),
            h('td', {}, labelText(ctx.t, label)),
            h('td', {}, fmt(q.symmetricShare, 2)), h('td', {}, fmt(q.selfShare, 2))));
          if (q.oneWay) {
            notes.push(h('p', { class: 'hint qk-one-way', dataset: { layer: String(layer), head: String(head), oneWay: q.oneWay } },
              t(`qk.oneWay.${q.oneWay}`, { layer: layer + 1, head: head + 1, share: fmt(q.oneWayShare, 2),
                symmetric: fmt(q.symmetricShare, 2), anti: fmt(q.antisymmetricShare, 2) })));
          }
        }
      }
      morphChildren(shipped, h('div', {},
        h('h3', {}, t('qk.shippedTitle')),
        h('p', { class: 'hint' }, t('qk.shippedExplain', { sentence: ctx.sentence })),
        h('div', { class: 'table-scroll' }, h('table', { class: 'steps experiment-table qk-heads' },
          h('thead', {}, h('tr', {}, ['qk.layer', 'qk.head', 'qk.label', 'qk.symmetric', 'qk.self'].map((k) => h('th', { scope: 'col' }, t(k))))),
          h('tbody', {}, rows))), notes));
      morphChildren(trainIntro, h('div', {}, h('h3', {}, t('qk.trainTitle')), h('p', { class: 'hint' }, t('qk.trainExplain'))));
      lab.update(ctx);
    },
    dispose() {
      lab.dispose();
    },
  };
}

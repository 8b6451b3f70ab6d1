// The training lab's heads: a run's heads on the learner's sentence through the
// page's own head grid, one a layer, and when each head got its label.

/** Notes, for each head of `heads` (the trainer's heads on the sentence), the step at
 *  which it got its present label (a head that loses its label is forgotten). */
export function noteLabels(timeline, heads, step) {
  heads.layers.forEach((layer, l) => layer.forEach((head, k) => {
    const key = `${l} ${k}`;
    const { label } = head.report;
    if (label && timeline.get(key)?.label !== label) timeline.set(key, { layer: l, head: k, label, step });
    if (!label) timeline.delete(key);
  }));
}

/** A run's heads and label timeline. deps: { h, fmt, headGrid }; t: the lab's words; ctx: the page's
 *  view context (its words, sentence, token); title: the section's heading; cls: the run's class. */
export function headsSection({ h, fmt, headGrid }, { t, ctx, run, title, cls }) {
  const tokens = run.heads.tokens.texts;
  const n = tokens.length;
  const selected = Math.min(Math.max(ctx.selected ?? 1, 1), n - 2);
  const grids = run.heads.layers.map((layer, l) => {
    const heads = layer.map((x) => ({ weights: { rows: n, cols: n, data: x.weights }, labels: tokens, report: { label: x.report.label, knockedOut: false },
      row: { argmax: x.argmax[selected], maxProb: x.maxProb[selected] } }));
    const grid = headGrid({ t: ctx.t, tokens, selected, shown: -1, heads, selectHead: () => {} });
    const qk = h('p', { class: 'hint train-qk', dataset: { symmetric: layer.map((x) => x.symmetricShare).join(' ') } }, t('train.qkHeads', {
      symmetric: layer.map((x) => fmt(x.symmetricShare, 2)).join(', '), self: layer.map((x) => fmt(x.selfShare, 2)).join(', ') }));
    return h('div', { class: 'train-layer' }, run.heads.layers.length > 1 ? h('h4', {}, t('train.layer', { layer: l + 1 })) : null, grid, qk);
  });
  const items = [...run.timeline.values()].sort((a, b) => a.step - b.step)
    .map((e) => h('li', {}, t('train.timelineItem', { layer: e.layer + 1, head: ctx.t('heads.name', { n: e.head + 1 }), label: ctx.t(`heads.label.${e.label}`), step: e.step })));
  return h('section', { class: `train-heads ${cls}`, dataset: { run: run.key, step: run.headsStep } },
    h('h3', {}, title),
    ...grids,
    h('h4', {}, t('train.timeline')),
    items.length ? h('ul', { class: 'train-timeline' }, items) : h('p', { class: 'hint' }, t('train.timelineNone')));
}

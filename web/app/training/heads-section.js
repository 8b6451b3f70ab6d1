// The training lab's heads: a run's heads on the learner's sentence through the
// page's own head grid, one a layer, and when each head got its label; the maps kept
// as the heads formed, and a slider to go back through them.

/** How many maps of the heads on the sentence a run keeps. The maps come with the reports (every 10
 *  steps); the run keeps every stride-th one and the newest, and when that would pass this bound the
 *  stride doubles and every other kept map goes: the maps stay evenly spread over the run, their
 *  memory bounded. */
export const MAPS_KEPT = 48;

/** Adds `map` ({ step, heads }) to run.maps (oldest first) by the rule above; run.mapsSeen counts the
 *  maps that came, run.mapStride is the spacing kept (both 0 and 1 for a new run or sentence). */
export function keepMap(run, map) {
  const maps = run.maps;
  const n = run.mapsSeen++;
  if (maps.length && maps.at(-1).n % run.mapStride !== 0) maps.pop(); // kept only while it was the newest
  maps.push({ ...map, n });
  while (maps.length > MAPS_KEPT) {
    run.mapStride *= 2;
    const newest = maps.at(-1);
    const kept = maps.filter((m) => m.n % run.mapStride === 0);
    if (kept.at(-1) !== newest) kept.push(newest);
    maps.splice(0, maps.length, ...kept);
  }
}

/** Which kept map a run shows: the one of the step the learner scrubbed to (run.shownStep; after a
 *  thinning, the nearest kept before it), else the newest. */
export function shownIndex(run) {
  if (run.shownStep === null) return run.maps.length - 1;
  const k = run.maps.findLastIndex((m) => m.step <= run.shownStep);
  return Math.max(0, k);
}
/** The map a run shows ({ step, heads }). */
export const shownMap = (run) => run.maps[shownIndex(run)] ?? { step: run.headsStep, heads: run.heads };

// One timeline entry as words: "layer 1, Head 2: looks at the next token from step 2600".
const timelineText = (t, ctx, e) => t('train.timelineItem', { layer: e.layer + 1, head: ctx.t('heads.name', { n: e.head + 1 }),
  label: ctx.t(`heads.label.${e.label}`), step: e.step });

/** The loss curve's marks for the runs: the step at which each head got its label, and the map shown.
 *  t: the lab's words; ctx: the page's view context; classes: each run key's class. */
export const labelMarks = (runs, { t, ctx, classes }) => runs.flatMap((r) => [
  ...[...r.timeline.values()].map((e) => ({ step: e.step, cls: `label-mark ${classes[r.key]}`, name: timelineText(t, ctx, e) })),
  ...(r.maps.length > 1 ? [shownMap(r).step].map((step) => ({ step, cls: `scrub-mark ${classes[r.key]}`, name: t('train.scrubAt', { step }) })) : []),
]);

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

/** A run's heads (the map shownMap gives), a slider through the maps kept, and the label timeline.
 *  deps: { h, fmt, headGrid }; t: the lab's words; ctx: the page's view context (its words, sentence,
 *  token); title: the section's heading; cls: the run's class; scrub(run, k): the learner moved the slider. */
export function headsSection({ h, fmt, headGrid }, { t, ctx, run, title, cls, scrub }) {
  const { step, heads } = shownMap(run);
  const tokens = heads.tokens.texts;
  const n = tokens.length;
  const selected = Math.min(Math.max(ctx.selected ?? 1, 1), n - 2);
  const grids = heads.layers.map((layer, l) => {
    const thumbs = layer.map((x) => ({ weights: { rows: n, cols: n, data: x.weights }, labels: tokens, report: { label: x.report.label, knockedOut: false },
      row: { argmax: x.argmax[selected], maxProb: x.maxProb[selected] } }));
    const grid = headGrid({ t: ctx.t, tokens, selected, shown: -1, heads: thumbs, selectHead: () => {} });
    const qk = h('p', { class: 'hint train-qk', dataset: { symmetric: layer.map((x) => x.symmetricShare).join(' ') } }, t('train.qkHeads', {
      symmetric: layer.map((x) => fmt(x.symmetricShare, 2)).join(ctx.t('list.sep')), self: layer.map((x) => fmt(x.selfShare, 2)).join(ctx.t('list.sep')) }));
    return h('div', { class: 'train-layer' }, heads.layers.length > 1 ? h('h4', {}, t('train.layer', { layer: l + 1 })) : null, grid, qk);
  });
  const at = shownIndex(run);
  const slider = run.maps.length > 1 ? h('label', { class: 'train-scrub' }, t('train.scrub'), ' ',
    h('input', { type: 'range', min: '0', max: String(run.maps.length - 1), step: '1', value: String(at), 'aria-valuetext': t('train.scrubAt', { step }),
      oninput: (e) => scrub(run, Number(e.target.value)) }), ' ', h('output', {}, t('train.scrubAt', { step }))) : null;
  const items = [...run.timeline.values()].sort((a, b) => a.step - b.step)
    .map((e) => h('li', {}, timelineText(t, ctx, e)));
  return h('section', { class: `train-heads ${cls}`, dataset: { run: run.key, step, newest: run.headsStep } },
    h('h3', {}, title),
    slider, slider ? h('p', { class: 'hint' }, t('train.scrubKept', { max: MAPS_KEPT })) : null,
    ...grids,
    h('h4', {}, t('train.timeline')),
    items.length ? h('ul', { class: 'train-timeline' }, items) : h('p', { class: 'hint' }, t('train.timelineNone')));
}

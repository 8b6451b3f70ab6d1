// The one road from a run to the page: a run seen through one head ({ layer, head }),
// or through one layer's own stages ({ layer }), with one cache. Every step,
// panel, experiment, export and the tour reads numbers through such a view
// (the lab's state makes one per run, layer and head: shell/lab-state.js); each
// answer is asked of the core once a run, and a view of an ended run answers
// nothing (the trace's 'disposed' error). The run-wide answers (the article's
// head, token links, rollout) are shared by every view of the run.
// (The seeded random model has one head: { layer: 0, head: 0 }.)

// Shared by every lab: view → its trace, keyed by the view, so each entry is whoever holds the view's
// (only cosineWith reaches another view's trace).
const traces = new WeakMap();

// The answer to `key`, asked of the core the first time (an error is not kept: it is thrown again).
function cached(cache, key, ask) {
  if (!cache.has(key)) cache.set(key, ask());
  return cache.get(key);
}

/** Every view of one run: viewOf({ layer, head }) for a head, viewOf({ layer }) for a layer's own
 *  stages, one view each, sharing the run's run-wide answers. */
export function runViews(trace) {
  const views = new Map();
  const shared = new Map();
  const viewOf = ({ layer, head }) => {
    const key = `${layer} ${head ?? '-'}`;
    if (!views.has(key)) views.set(key, runView(trace, Object.freeze(head === undefined ? { layer } : { layer, head }), shared, viewOf));
    return views.get(key);
  };
  return viewOf;
}

// trace seen through `where`; shared: the run-wide answers of its run; viewOf: its run's other views.
function runView(trace, where, shared, viewOf) {
  const own = new Map();
  // An ended run answers nothing, kept or not: its trace throws 'disposed'.
  const ask = (name, args, call) => (trace.disposed ? call() : cached(own, `${name} ${JSON.stringify(args)}`, call));
  const wide = (name, args, call) => (trace.disposed ? call() : cached(shared, `${name} ${JSON.stringify(args)}`, call));
  const view = Object.freeze({
    tokens: trace.tokens,
    ids: trace.ids,
    forms: trace.forms,
    spans: trace.spans,
    config: trace.config,
    divisor: trace.divisor,
    knockOut: trace.knockOut,
    where,
    /** The same run through another head ({ layer, head }) or layer ({ layer }). */
    viewOf,
    /** Whether the run has ended (a new run replaced it, or the lab did). */
    get disposed() { return trace.disposed; },
    // ---- this head's (or, for { layer }, this layer's) numbers ----
    stage: (id) => ask('stage', [id], () => trace.stage(id, where)),
    softmaxRow: (i, { jacobian = false } = {}) => ask('softmaxRow', [i, jacobian], () => trace.softmaxRow(i, { jacobian, ...where })),
    dotTerms: (id, i, j) => ask('dotTerms', [id, i, j], () => trace.dotTerms(id, i, j, where)),
    weightedRows: (i) => ask('weightedRows', [i], () => trace.weightedRows(i, where)),
    contributions: (i) => ask('contributions', [i], () => trace.contributions(i, where)),
    scalingReport: () => ask('scalingReport', [], () => trace.scalingReport(where)),
    rowSums: (id) => ask('rowSums', [id], () => trace.rowSums(id, where)),
    expRows: () => ask('expRows', [], () => trace.expRows(where)),
    headReport: () => ask('headReport', [], () => trace.headReport(where)),
    /** Row i of this view's layer, its heads together (their mean, each one's largest weight). */
    layerRow: (i) => ask('layerRow', [i], () => trace.layerRow(i, { layer: where.layer })),
    tiledRow: (i, block) => ask('tiledRow', [i, block], () => trace.tiledRow(i, { block, ...where })),
    tiledAttention: (block) => ask('tiledAttention', [block], () => trace.tiledAttention({ block, ...where })),
    qkSymmetry: () => ask('qkSymmetry', [], () => trace.qkSymmetry(where)),
    keyPlane: (i) => ask('keyPlane', [i], () => trace.keyPlane(i, where)),
    /** Attention between the learner's words ([{ from, to }]). */
    wordAttention: (words) => ask('wordAttention', [words.map((w) => [w.from, w.to])], () => trace.wordAttention(words, where)),
    cosine: (idA, rowA, idB, rowB) => ask('cosine', [idA, rowA, idB, rowB], () => trace.cosine(idA, rowA, idB, rowB, where)),
    /** The cosine of a row here and a row of the same head in another view's run. */
    cosineWith: (other, idA, rowA, idB, rowB) => trace.cosineWith(traces.get(other), idA, rowA, idB, rowB, where),
    exercise: (name, cell) => ask('exercise', [name, cell], () => trace.exercise(name, { ...cell, ...where })),
    pickCell: (name, pick) => ask('pickCell', [name, pick], () => trace.pickCell(name, { ...pick, ...where })),
    checkAnswer: (name, cell, answer) => trace.checkAnswer(name, { ...cell, ...where }, answer),
    // ---- the whole run's ----
    articleHead: (i) => wide('articleHead', [i], () => trace.articleHead(i)),
    tokenLink: (from, to) => wide('tokenLink', [from, to], () => trace.tokenLink(from, to)),
    rollout: (options) => wide('rollout', [options], () => trace.rollout(options)),
    rolloutRow: (i) => wide('rolloutRow', [i], () => trace.rolloutRow(i)),
  });
  traces.set(view, trace);
  return view;
}

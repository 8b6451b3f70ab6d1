// What a step view, a panel or an experiment draws from: the lab's words, the
// run (seen through the selected head, and whole), the selection, the
// sentence, and the lab's actions. It reads the lab's state (shell/lab-state.js)
// and never changes it: each change goes through an action. What the views ask
// of the core — stages, each head's report card, the selected token's softmax
// row in each head — is asked once a run.

/** state: the lab's state; words: its language ({ lang, t, errorText });
 *  actions: { animate, select, selectHead, selectLayer, hide, unhide, setLayerOpen }. */
export function viewContext(state, words, actions) {
  const { run, where, selected } = state;
  // A stage of one head (at = { layer, head }) or of a layer (at = { layer }).
  const stageOf = (id, at) => state.once(`${id} ${at.layer} ${at.head ?? '-'}`, () => run.stage(id, at));
  return {
    ...actions,
    lang: words.lang,
    t: words.t,
    errorText: words.errorText,
    headView: state.headView, // the selected head: what the steps draw
    run, // every head, for the views that show them all
    where,
    trained: state.trained,
    heads: run.config.heads,
    layers: run.config.layers,
    knockOut: state.knockOut,
    core: state.core,
    stage: (id) => stageOf(id, where),
    stageOf,
    layerStage: (id) => stageOf(id, { layer: where.layer }),
    /** A head's report card (trace.headReport). */
    reportOf: (at) => state.once(`report ${at.layer} ${at.head}`, () => run.headReport(at)),
    /** The selected token's row through softmax in a head. */
    rowOf: (at) => state.once(`row ${selected} ${at.layer} ${at.head}`, () => run.softmaxRow(selected, at)),
    layerOpen: state.layerOpen,
    sentence: state.sentence,
    tokens: run.tokens,
    /** Each token as the vocabulary holds it (a traditional character: the simplified one it stands for). */
    forms: run.forms,
    ids: run.ids,
    n: run.tokens.length,
    selected,
    config: run.config,
    /** The learner's words ([{ from, to }]), and whether the attention views show them. */
    words: state.words,
    byWords: state.byWords,
    /** A head's attention between the learner's words (trace.wordAttention): { groups, weights }. */
    wordsOf: (at) => state.once(`words ${at.layer} ${at.head} ${state.words.map((w) => `${w.from}-${w.to}`).join(',')}`,
      () => run.wordAttention(state.words, at)),
  };
}

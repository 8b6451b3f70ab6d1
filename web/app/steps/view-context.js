// What a step view, a panel or an experiment draws from: the lab's words, the
// run seen through the selected head (view) and through any other (viewOf), the
// selection, the sentence, and the lab's actions. It reads the lab's state
// (shell/lab-state.js) and never changes it: each change goes through an action.
// Every number comes through a run view (heads/run-view.js), asked of the core
// once a run.

import { STEPS } from './index.js';

/** state: the lab's state; words: its language ({ lang, t, errorText });
 *  actions: { animate, select, selectHead, selectLayer, hide, unhide, setLayerOpen, setWhatIf }. */
export function viewContext(state, words, actions) {
  const { run, where, selected } = state;
  return {
    ...actions,
    lang: words.lang,
    t: words.t,
    errorText: words.errorText,
    view: state.view, // the selected head: what the steps draw
    /** The run through head { layer, head }, or through layer { layer }'s own stages. */
    viewOf: state.viewOf,
    /** The selected layer's own stages (after its heads). */
    layerView: state.viewOf({ layer: where.layer }),
    where,
    trained: state.trained,
    heads: run.config.heads,
    layers: run.config.layers,
    knockOut: state.knockOut,
    /** The learner's change to the selected row in the what-if experiment (the link's at first), or null. */
    whatIf: state.whatIf,
    /** The core's computations on numbers a view passes, its guesses, its after-the-article module (never a run). */
    compute: state.compute,
    /** The seeded model's options (the core's defaults). */
    defaults: state.core.defaults,
    /** Another run for the moment use({ tokens, viewOf }) reads it (lab-state.js withRun); throws the core's error. */
    withRun: state.withRun,
    layerOpen: state.layerOpen,
    sentence: state.sentence,
    tokens: run.tokens,
    /** Each token as the vocabulary holds it (a traditional character: the simplified one it stands for). */
    forms: run.forms,
    ids: run.ids,
    n: run.tokens.length,
    selected,
    /** The step on screen, by id (steps/index.js). */
    step: STEPS[state.step].id,
    config: run.config,
    /** The learner's words, the token groups ([{ from, to }]), and whether the attention views show them. */
    wordGroups: state.wordGroups,
    byWords: state.byWords,
  };
}

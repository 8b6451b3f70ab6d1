// A lab's state, and the one place it changes. Everything else reads it:
// views and panels through their view context (steps/view-context.js), the
// wiring (start-lab.js) and the controls (model-controls.js, host-control.js)
// through the named changes below. What can be derived is derived: whether the
// model is trained, the run seen through each head (heads/run-view.js: one
// view per run, layer and head, each asking the core once).
import { runViews } from '../heads/run-view.js';
import { DEFAULT_SENTENCE } from './presets.js';

// The token a new sentence opens on: the second real token after [CLS] (喜 in the default sentence).
const defaultToken = (n) => (n > 3 ? 2 : 1);

/** A lab's state; `steps`: how many steps the lab has. */
export function createLabState(steps) {
  let core = null; // the wasm core's API (web/lib/core.js), once loaded
  let defaults = null; // the options a lab opens with: the trained model's, unless its file could not be read
  let run = null; // the core's run (a trace, every head of every layer)
  let sentence = DEFAULT_SENTENCE;
  let options = null; // the run's options, as the core completed them
  let step = 0;
  let token = 2; // the selected token (the query row every step follows); null: the new sentence's default
  let where = Object.freeze({ layer: 0, head: 0 }); // a trained model's selected head
  let picked = false; // a head was chosen (by the learner, a link, the host, the tour); until then the core's article head
  let knockedOut = Object.freeze([]); // [{ layer, head }] zeroed before W_O, of the run's model (options.model)
  let hidden = null; // { sentence, originals }: what the lab hid behind each [MASK] of sentence
  let layerOpen = false; // the concat step's rest of the layer unfolded
  let whatIf = null; // the what-if experiment's change to the selected row ({ edits, renormalise }), for the link
  let tour = null; // { card, answers: { cardId: choice } } while the guided tour is open
  let wordGroups = Object.freeze([]); // [{ from, to }]: tokens the learner made into words, of this sentence
  let byWords = true; // the attention views show words (when there are any), not tokens
  let views = null; // this run's views (heads/run-view.js), one per layer and head
  let ended = false; // disposed: no run is made again
  let compute = null; // the views' share of the core (below), once loaded

  const isTrained = (model) => core.models.some((m) => m.id === model && m.trained);
  // Knock-outs belong to a model: another model drops them, and a model loaded
  // again under the same id keeps only the heads it has.
  function knockOutsFor(model) {
    const shape = core.models.find((m) => m.id === model);
    if (model !== options?.model || !shape?.trained) return Object.freeze([]);
    return Object.freeze(knockedOut.filter((k) => k.layer < shape.layers && k.head < shape.heads));
  }
  // Until a head is chosen, the head is the one the core picks for the selected
  // token by the rule the article's table illustrates (trace.articleHead()).
  function followArticle() {
    if (picked || run === null || token === null) return;
    const { layer, head } = views(where).articleHead(Math.min(token, run.tokens.length - 1));
    where = Object.freeze({ layer, head });
  }

  return {
    get core() { return core; },
    /** What the views may ask of the core beside the run (computations on numbers they pass, the
     *  guesses, the after-the-article module): never the core itself, never a run. */
    get compute() { return compute; },
    get defaults() { return defaults; },
    get run() { return run; },
    get sentence() { return sentence; },
    get options() { return options; },
    get step() { return step; },
    get selected() { return token; },
    get where() { return where; },
    /** Whether a head was chosen; until one is, the lab follows the core's article head for the selected token. */
    get headPicked() { return picked; },
    get knockOut() { return knockedOut; },
    /** The learner's change to a row in the what-if experiment ({ edits, renormalise }), or null. */
    get whatIf() { return whatIf; },
    get hidden() { return hidden; },
    get layerOpen() { return layerOpen; },
    get tour() { return tour; },
    /** The words the learner made ([{ from, to }], token indices, both included), in order. */
    get wordGroups() { return wordGroups; },
    /** Whether the attention views show attention between words (there are words, the learner wants them,
     *  and the core's after-the-article module, which computes them, is there). */
    get byWords() { return byWords && wordGroups.length > 0 && core.afterArticleLoaded; },
    /** The learner's choice of words over tokens, whether or not there are words now. */
    get wordsWanted() { return byWords; },
    /** Whether the run is a trained model's. */
    get trained() { return run !== null && isTrained(options.model); },
    isTrained,
    /** A model's own options: a trained model fixes its own; the seeded one starts from the core's defaults. */
    modelOptions: (model) => (isTrained(model) ? { model } : { ...core.defaults, model }),
    /** The run seen through the selected head (heads/run-view.js); views compare it by identity. */
    get view() { return views(where); },
    /** The run seen through head { layer, head }, or through layer { layer }'s own stages: one view each.
     *  A function of its own a run (heads/run-view.js runViews), so views can tell runs apart by it. */
    get viewOf() { return views; },

    // ---- named changes --------------------------------------------------------
    /** The core is loaded; the lab opens on `model`'s options. */
    useCore(loaded, model) {
      core = loaded;
      compute = Object.freeze(Object.fromEntries(['softmaxRow', 'scalingEffect', 'varianceGrowth', 'sampleDotProducts', 'crossEntropyGradient',
        'divideByMax', 'compareRows', 'predictMasked', 'rankAnswers', 'loadAfterArticle', 'whatIf', 'randomKeys'].map((name) => [name, (...args) => core[name](...args)])));
      defaults = this.modelOptions(model);
    },
    /** Runs the core on sentence with options (and the knock-outs, for a trained model).
     *  On success the run is the new one and null is returned; on failure nothing
     *  changes and the error is returned. */
    runSentence(text, next) {
      if (ended) return new Error('this lab was removed');
      let made;
      const off = knockOutsFor(next.model);
      try {
        made = core.run(text, isTrained(next.model) ? { ...next, knockOut: off } : next);
      } catch (error) {
        return error;
      }
      knockedOut = off;
      const otherSentence = text !== sentence;
      run?.dispose();
      run = made;
      views = runViews(made);
      sentence = text;
      options = { ...made.config };
      if (hidden?.sentence !== text) hidden = null;
      if (otherSentence || wordGroups.some((w) => w.to >= made.tokens.length)) wordGroups = Object.freeze([]); // another sentence: other tokens
      where = Object.freeze({ layer: where.layer < made.config.layers ? where.layer : 0, head: where.head < made.config.heads ? where.head : 0 });
      if (token === null || token >= made.tokens.length) token = defaultToken(made.tokens.length);
      followArticle();
      return null;
    },
    /** Runs the core on text with options for the moment use(run) reads it, through run views
     *  (run: { tokens, viewOf(where) }); the run is freed when use returns. Throws the core's error. */
    withRun(text, given, use) {
      if (ended) throw new Error('this lab was removed');
      const made = core.run(text, given);
      try {
        return use(Object.freeze({ tokens: made.tokens, viewOf: runViews(made) }));
      } finally {
        made.dispose();
      }
    },
    chooseStep(k) { step = Math.max(0, Math.min(steps - 1, k)); },
    /** Selects token i; null: the next sentence's default token. */
    chooseToken(i) {
      token = i === null ? null : Math.min(i, run ? run.tokens.length - 1 : i);
      followArticle();
    },
    /** Chooses a head: from now on the lab keeps it (clamped to a model that has fewer). */
    chooseHead(head, layer = where.layer) {
      where = Object.freeze({ layer, head });
      picked = true;
    },
    /** Knocks head (of the selected layer) out, or back in; the next run applies it. */
    knockOutHead(head, on) {
      const others = knockedOut.filter((k) => k.layer !== where.layer || k.head !== head);
      knockedOut = Object.freeze(on ? [...others, Object.freeze({ layer: where.layer, head })] : others);
    },
    /** The sentence now shown was made by hiding (or showing) tokens: originals[m] is what its m-th [MASK] hid. */
    markHidden(originals) { hidden = Object.freeze({ sentence, originals }); },
    openLayer(open) { layerOpen = open; },
    setWhatIf(change) { whatIf = change ?? null; },
    /** The tour at card k (its answers so far kept); null closes it. */
    tourAt(k) { tour = k === null ? null : Object.freeze({ card: k, answers: tour?.answers ?? Object.freeze({}) }); },
    answerTour(cardId, choice) { tour = Object.freeze({ ...tour, answers: Object.freeze({ ...tour.answers, [cardId]: choice }) }); },
    /** Makes tokens from … to one word (from < to); words it overlaps are let go. */
    addWordGroup(from, to) {
      const word = Object.freeze({ from: Math.min(from, to), to: Math.max(from, to) });
      if (word.from === word.to || run === null || word.to >= run.tokens.length) return;
      wordGroups = Object.freeze([...wordGroups.filter((w) => w.to < word.from || w.from > word.to), word].sort((a, b) => a.from - b.from));
    },
    /** Lets the word at index k go (its tokens are tokens again). */
    removeWordGroup(k) { wordGroups = Object.freeze(wordGroups.filter((_, i) => i !== k)); },
    /** Words as a link gives them: kept as they are; the core checks them when a view asks. */
    setWordGroups(list) { wordGroups = Object.freeze(list.map((w) => Object.freeze({ from: w.from, to: w.to })).sort((a, b) => a.from - b.from)); },
    showByWords(on) { byWords = on; },
    /** Frees the run (the lab is going); the state is not used again. */
    dispose() {
      ended = true;
      run?.dispose();
      run = null;
      views = null;
    },
  };
}

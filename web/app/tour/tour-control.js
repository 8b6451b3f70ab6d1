// Moving through the guided tour, through the lab's state: each card brings the
// article's sentence on the trained model, the token and head the article
// follows, the card's step and experiment. What the learner answers is kept
// with the tour (and in the link and a platform's saved progress).
import { CARDS, TOUR_SENTENCE, cardAt, followedToken } from './article-tour.js';

/**
 * state: the lab's state; compute(sentence, options) runs the core (true when
 * it could); experiments: the experiments' panel; show(animate) draws; showSentence(text) puts the sentence
 * in the input box, showSettings() the model in the settings; announce(type,
 * body) tells the host; stepIndex(id): a step's index (steps/index.js, handed
 * over so that the tour's chunk imports none of the page's modules: tour-panel.js);
 * wordsChanged(): the learner's words changed (the chips and the views follow); showCode(): turns the
 * Code switch on.
 * Returns { open(card), go(k), leave(finished), answer(cardId, choice), tryAfter(id), showExperiment(id) }.
 */
export function createTourControl(state, { compute, experiments, show, showSentence, showSettings, announce, stepIndex, wordsChanged, showCode }) {
  // The article's sentence, on the trained model when there is one.
  function runArticle() {
    const model = state.trained || !state.isTrained(state.defaults.model) ? state.options.model : state.defaults.model;
    if (state.sentence === TOUR_SENTENCE && model === state.options.model) return true;
    if (!compute(TOUR_SENTENCE, state.modelOptions(model))) return false;
    showSentence(TOUR_SENTENCE);
    showSettings();
    return true;
  }

  function go(k) {
    const at = Math.max(0, Math.min(CARDS.length, k)); // CARDS.length: the optional card after them
    const card = cardAt(at);
    state.tourAt(at);
    if (!runArticle()) return;
    if (card.follow) {
      state.chooseToken(followedToken(state.run.tokens));
      const where = state.view.articleHead(state.selected); // the core's rule, as the lab opens on it
      state.chooseHead(where.head, where.layer);
    }
    // An experiment that shows a question's answer opens once the question is answered.
    const open = card.experiment && (!card.predict || state.tour.answers[card.id] !== undefined) ? card.experiment : null;
    if (open !== experiments.id) experiments.open(open, false);
    state.chooseStep(stepIndex(card.step));
    announce('tour', { tour: 'article', card: card.id, index: at, count: CARDS.length, finished: false });
    show(true);
  }

  /** From the card after the tour: opens what lies past the article (its experiment on its step, the article's words, the code). */
  function tryAfter(id) {
    const next = cardAt(CARDS.length).try.find((x) => x.id === id);
    if (!next) return;
    if (next.words) {
      for (const w of next.words) state.addWordGroup(w.from, w.to);
      state.showByWords(true);
      wordsChanged();
    }
    if (next.experiment) experiments.open(next.experiment, false);
    if (next.code) showCode();
    state.chooseStep(stepIndex(next.step));
    show(true);
  }

  return {
    open: (k = 0) => go(k),
    go,
    /** Leaves the tour; finished: the learner went through to its last card. */
    leave(finished) {
      const at = state.tour?.card ?? 0;
      state.tourAt(null);
      announce('tour', { tour: 'article', card: cardAt(at).id, index: at, count: CARDS.length, finished });
      show(false);
    },
    tryAfter,
    /** Opens a card's experiment and scrolls it into view. */
    showExperiment: (id) => experiments.open(id, true),
    answer(cardId, choice) {
      state.answerTour(cardId, choice);
      const card = cardAt(state.tour.card);
      if (card.experiment && card.predict) experiments.open(card.experiment, false);
      show(false);
    },
  };
}

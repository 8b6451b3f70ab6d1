// What a lab does on the learner's behalf, shared by its parts: run the core on
// a sentence (quietly, or with the failure shown), the context a view draws
// from, choosing a token, a set of exercises, and another language. Made by
// start-lab.js; reads the lab's parts when called, so parts made later count.
import { prefersReducedMotion } from '../ui/dom.js';
import { viewContext } from '../steps/view-context.js';

/** lab: { state, message, language, drawing, parts, host(), env, renderRail() }. */
export function createLabActions(lab) {
  const { state, message, language, parts } = lab;
  const actions = {
    /** Runs the core; on success the new run is shown and null returned, on
     *  failure everything stays as it was and the error is returned. */
    tryCompute(sentence, options) {
      const error = state.runSentence(sentence, options);
      if (!error) {
        message.hide();
        parts.labWords.render();
      }
      return error;
    },
    /** tryCompute for the learner's edits: a failure is shown inline. */
    compute(sentence, options) {
      const error = actions.tryCompute(sentence, options);
      if (error) message.show(language.words.t('msg.lastGood', { error: language.words.errorText(error) }));
      return !error;
    },
    /** What a step view (or experiment) draws from; animate = play its transition. */
    context(animate) {
      const { controls } = parts;
      return viewContext(state, language.words, { animate: animate && !prefersReducedMotion(), select: actions.selectToken,
        selectHead: controls.selectHead, selectLayer: controls.selectLayer, hide: controls.hideAt, unhide: controls.unhideAt,
        setLayerOpen: (open) => state.openLayer(open), setWhatIf: (change) => {
          // An edit of a head's row picks that head: the lab no longer follows the article's head away from it.
          if (change) state.chooseHead(state.where.head, state.where.layer);
          state.setWhatIf(change);
          lab.drawing.syncUrl();
        } });
    },
    selectToken(i) {
      state.chooseToken(i);
      lab.host().announce('select', { selected: i, token: state.run.tokens[i] });
      parts.labWords.render();
      lab.drawing.scheduleRedraw();
    },
    setExercises(text) {
      const bad = parts.exercises.set(text);
      if (bad.length) message.show(language.words.t('ex.ignored', { items: bad.join(language.words.t('list.sep')) }), 'notice');
      lab.drawing.scheduleRedraw();
    },
    /** Switches every word of the lab to another language. */
    async switchLanguage(lang) {
      if (!(await language.use(lang))) return;
      lab.env.onLanguage?.(language.words.lang);
      lab.renderRail();
      parts.experiments.renderTabs(language.words.t);
      parts.player.relabel();
      if (state.run) {
        parts.labWords.render();
        lab.drawing.show(false);
      }
    },
  };
  return actions;
}

// What the learner does with a trained model, through the lab's state: pick
// the head every step shows (and its layer), knock heads out, hide a token
// behind [MASK] and bring it back, load a model file. Each change runs the core
// again when it must and asks for a redraw.
import { countMasks, hideToken, maskNumber, showMask } from './masking.js';

function spliced(list, at, remove, ...add) {
  const copy = [...list];
  copy.splice(at, remove, ...add);
  return copy;
}

/**
 * state: the lab's state (shell/lab-state.js); words(): its words now;
 * compute(sentence, options) → true when the run succeeded (failures are
 * shown by it); redraw(); message: the lab's message line; showSentence(text)
 * puts a sentence in the input box; showModels() fills the settings' model menu again.
 */
export function createModelControls(state, { words, compute, redraw, message, showSentence, showModels }) {
  const notice = (text) => message.show(text, 'notice');

  function selectHead(head, layer = state.where.layer) {
    state.chooseHead(head, layer);
    redraw();
  }

  // A sentence from the lab's own edit; originals: what each of its [MASK]s hid.
  function edit(sentence, originals) {
    if (!compute(sentence, state.options)) return;
    showSentence(sentence);
    state.markHidden(originals);
    redraw();
  }

  return {
    selectHead,
    selectLayer: (layer) => selectHead(state.where.head, layer),

    /** Knocks a head of the selected layer out (on) or back in, and runs again. */
    knockOut(head, on) {
      state.knockOutHead(head, on);
      if (compute(state.sentence, state.options)) redraw();
    },

    /** Hides token i behind [MASK]; the model then guesses it. */
    hideAt(i) {
      const { tokens } = state.run;
      const done = hideToken(state.sentence, state.run, i);
      if (!done) return notice(words().t('msg.cannotHide', { token: tokens[i] }));
      const originals = state.hidden?.originals ?? Array(countMasks(state.run)).fill(null);
      return edit(done.sentence, spliced(originals, maskNumber(tokens, i), 0, done.hidden));
    },

    /** Puts back what the [MASK] at token i hid, when the lab hid it. */
    unhideAt(i) {
      const m = maskNumber(state.run.tokens, i);
      const text = state.hidden?.originals[m];
      if (!text) return notice(words().t('msg.cannotShow'));
      return edit(showMask(state.sentence, state.run, i, text), spliced(state.hidden.originals, m, 1));
    },

    /** Loads a model file the learner picked, under id, and shows it; a file the
     *  core refuses gets a message, and the model shown stays. */
    loadModelFile(id, bytes) {
      try {
        state.core.loadModel(id, bytes);
      } catch (error) {
        message.show(words().t('msg.modelFile', { error: words().errorText(error) }));
        return;
      }
      if (compute(state.sentence, { model: id })) redraw();
      showModels();
    },
  };
}

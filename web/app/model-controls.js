// What the learner does with a trained model, on the page's state: pick the
// head every step shows (and its layer), knock heads out, hide a token behind
// [MASK] and bring it back. Each change runs the core again when it must and
// asks for a redraw.
import { errorText, t } from './i18n.js';
import { countMasks, hideToken, maskNumber, showMask } from './masking.js';

function spliced(list, at, remove, ...add) {
  const copy = [...list];
  copy.splice(at, remove, ...add);
  return copy;
}

/**
 * page: the page's state (lab, trace, sentence, where, knockOut, hidden, view);
 * compute(sentence, options) → true when the run succeeded (failures are
 * shown by it); redraw(); showMessage(text, kind); showSentence(text) puts a
 * sentence in the input box; showModels() fills the settings' model menu again.
 */
export function createModelControls(page, { compute, redraw, showMessage, showSentence, showModels }) {
  const notice = (text) => showMessage(text, 'notice');
  const isTrained = (model) => page.lab.models.some((m) => m.id === model && m.trained);

  function selectHead(head, layer = page.where.layer) {
    page.where = { layer, head };
    redraw();
  }

  // A sentence from the page's own edit; originals: what each of its [MASK]s hid (null: typed).
  function edit(sentence, originals) {
    if (!compute(sentence, page.options)) return;
    showSentence(sentence);
    page.hidden = { sentence, originals };
    redraw();
  }

  return {
    isTrained,
    /** A model's own options: a trained model fixes its own; the seeded one starts from the core's defaults. */
    modelOptions: (model) => (isTrained(model) ? { model } : { ...page.lab.defaults, model }),
    selectHead,
    selectLayer: (layer) => selectHead(page.where.head, layer),

    /** Knocks a head of the selected layer out (on) or back in, and runs again. */
    knockOut(head, on) {
      const { layer } = page.where;
      const others = page.knockOut.filter((k) => k.layer !== layer || k.head !== head);
      page.knockOut = on ? [...others, { layer, head }] : others;
      if (compute(page.sentence, page.options)) redraw();
    },

    /** Hides token i behind [MASK]; the model then guesses it. */
    hideAt(i) {
      const done = hideToken(page.sentence, page.trace.tokens, i);
      if (!done) return notice(t('msg.cannotHide', { token: page.trace.tokens[i] }));
      const originals = page.hidden?.originals ?? Array(countMasks(page.sentence)).fill(null);
      return edit(done.sentence, spliced(originals, maskNumber(page.trace.tokens, i), 0, done.hidden));
    },

    /** Loads a model file the learner picked, under id, and shows it; a file the
     *  core refuses gets a message, and the model shown stays. */
    loadModelFile(id, bytes) {
      try {
        page.lab.loadModel(id, bytes);
      } catch (error) {
        showMessage(t('msg.modelFile', { error: errorText(error) }));
        return;
      }
      if (compute(page.sentence, { model: id })) redraw();
      showModels();
    },

    /** Puts back what the [MASK] at token i hid, when the page hid it. */
    unhideAt(i) {
      const m = maskNumber(page.trace.tokens, i);
      const text = page.hidden?.originals[m];
      if (!text) return notice(t('msg.cannotShow'));
      return edit(showMask(page.sentence, m, text), spliced(page.hidden.originals, m, 1));
    },
  };
}

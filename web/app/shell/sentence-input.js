// The sentence box and the Examples menu of one lab: typing runs the core once
// the learner pauses; an example replaces the sentence at once. (The menu's
// sentences are the lab's language's: language.js.)

const TYPING_DELAY_MS = 180;

/** $(id): the lab's element; typed(text) after a pause in typing; picked(text) for an example;
 *  signal: the lab's life (its abort drops a pending pause). */
export function bindSentenceInput($, { typed, picked, signal }) {
  let typing = 0;
  signal.addEventListener('abort', () => clearTimeout(typing));
  $('sentence').addEventListener('input', () => {
    clearTimeout(typing);
    typing = setTimeout(() => typed($('sentence').value), TYPING_DELAY_MS);
  });
  $('sentence-form').addEventListener('submit', (event) => event.preventDefault());
  $('presets').addEventListener('change', () => {
    const text = $('presets').value;
    if (!text) return;
    $('sentence').value = text;
    $('presets').value = '';
    picked(text);
  });
}

// Hiding a token of the learner's sentence behind [MASK], and bringing it
// back. Text editing only: where each token's word stands in the sentence, and
// whether it can be hidden, is the core's (trace.spans, from its tokenizer);
// the guesses are core.predictMasked's.
export const MASK = '[MASK]';

/** Whether token i of a run can be hidden: it starts a word or is a CJK character. */
export const canHide = (run, i) => run.spans[i]?.hideable ?? false;

/** The run's sentence with token i's word replaced by [MASK]: { sentence, hidden } (hidden =
 *  the text taken out), or null when it cannot be hidden. */
export function hideToken(sentence, run, i) {
  if (!canHide(run, i)) return null;
  const { begin, end } = run.spans[i];
  return { sentence: sentence.slice(0, begin) + MASK + sentence.slice(end), hidden: sentence.slice(begin, end) };
}

/** How many [MASK] tokens come before token i (i's number among the masks). */
export const maskNumber = (tokens, i) => tokens.slice(0, i).filter((t) => t === MASK).length;

/** The run's sentence with the [MASK] that is token i (however it was typed) replaced by `text`, or null. */
export function showMask(sentence, run, i, text) {
  const span = run.tokens[i] === MASK ? run.spans[i] : null;
  return span && sentence.slice(0, span.begin) + text + sentence.slice(span.end);
}

/** How many [MASK]s the run has, as predictMasked counts them. */
export const countMasks = (run) => run.tokens.filter((t) => t === MASK).length;

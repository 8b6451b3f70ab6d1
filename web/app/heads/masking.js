// Hiding a token of the learner's sentence behind [MASK], and bringing it
// back. Text editing only: which token is where comes from the core's
// tokens (one per CJK character; an English word is a token and its ##pieces),
// and the guesses from core.predictMasked.
export const MASK = '[MASK]';
const MASKS = /\[mask\]/gi; // [MASK] in the text, any case, as the core reads it

const isWordChar = (c) => /[\p{L}\p{N}]/u.test(c);
const isCjk = (text) => /^\p{Script=Han}$/u.test(text);

/** Whether token i can be hidden: a character or the start of a word. */
export function canHide(tokens, i) {
  const text = tokens[i];
  if (i === 0 || i === tokens.length - 1 || /^\[.*\]$/.test(text) || text.startsWith('##')) return false;
  return isCjk(text) || [...text].every(isWordChar);
}

// The word token i starts: its text and the ##pieces after it.
function wordAt(tokens, i) {
  if (isCjk(tokens[i])) return tokens[i];
  let word = tokens[i];
  for (let k = i + 1; k < tokens.length && tokens[k].startsWith('##'); k += 1) word += tokens[k].slice(2);
  return word;
}

// Where the k-th occurrence (from 0) of `word` is in the text, as [start, end)
// in UTF-16 units; a Latin word must stand alone (not inside a longer word),
// compared without case as the tokenizer lower-cases. null when not found.
function findOccurrence(text, word, k, whole) {
  const lowerText = text.toLowerCase();
  let from = 0;
  for (let seen = 0; ;) {
    const at = lowerText.indexOf(word, from);
    if (at < 0) return null;
    const end = at + word.length;
    const alone = !whole || (!isWordChar(text[at - 1] ?? ' ') && !isWordChar(text[end] ?? ' '));
    if (alone) {
      if (seen === k) return [at, end];
      seen += 1;
    }
    from = at + 1;
  }
}

/** The sentence with token i replaced by [MASK]: { sentence, hidden } (hidden =
 *  the text taken out), or null when the token's text cannot be found in it. */
export function hideToken(sentence, tokens, i) {
  if (!canHide(tokens, i)) return null;
  const word = wordAt(tokens, i);
  const cjk = isCjk(word);
  let k = 0;
  for (let j = 1; j < i; j += 1) if (canHide(tokens, j) && wordAt(tokens, j) === word) k += 1;
  const span = findOccurrence(sentence, word, k, !cjk);
  if (!span) return null;
  return { sentence: sentence.slice(0, span[0]) + MASK + sentence.slice(span[1]), hidden: sentence.slice(span[0], span[1]) };
}

/** How many [MASK] tokens come before token i (i's number among the masks). */
export const maskNumber = (tokens, i) => tokens.slice(0, i).filter((t) => t === MASK).length;

/** The sentence with its m-th [MASK] (any case) replaced by `text`, or null. */
export function showMask(sentence, m, text) {
  const found = [...sentence.matchAll(MASKS)][m];
  if (!found) return null;
  return sentence.slice(0, found.index) + text + sentence.slice(found.index + found[0].length);
}

/** How many [MASK]s the sentence has (any case), as predictMasked counts them. */
export const countMasks = (sentence) => (sentence.match(MASKS) ?? []).length;

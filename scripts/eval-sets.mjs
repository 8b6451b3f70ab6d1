// The everyday evaluation sets: short sentences in a learner's style, one
// [MASK] each, built by a fixed rule from held-out sentences — never chosen by
// what a model gets right. tests/data/everyday/ holds the sets `npm run corpus`
// made; tests/js/corpus.test.mjs checks that they follow this rule.
//
// The rule, for a held-out sentence:
//  1. Trailing punctuation and closing quotes are removed, and leading quotes.
//  2. Chinese: 5 to 20 characters, at least 4 in 5 of them Han, no Latin
//     letter or digit. English: 4 to 12 words of letters (an apostrophe
//     inside a word allowed) and commas, nothing else.
//  3. The hidden token: of the sentence's Han characters (Chinese) or words
//     (English), number (FNV-1a(sentence) >>> 8) mod their count.
//  4. Distinct sentences in order of FNV-1a(sentence); the first `size`.
import { fnv1a, hanCount } from './corpus-text.mjs';

export const SIZES = { zh: 300, en: 200 };

/** A sentence as a learner types it: no trailing punctuation or closing quotes, no leading quotes. */
export function learnerStyle(sentence) {
  return sentence.replace(/[\p{P}\s]+$/u, '').replace(/^[\p{Pi}\p{Ps}"'“‘「『\s]+/u, '').trim();
}

/** Whether a learner-style sentence is in the set's range (rule 2). */
export function inRange(sentence, language) {
  if (language === 'zh') {
    const length = [...sentence].length;
    return length >= 5 && length <= 20 && hanCount(sentence) >= 0.8 * length && !/[A-Za-z0-9０-９Ａ-Ｚａ-ｚ]/.test(sentence);
  }
  const words = sentence.split(' ');
  return words.length >= 4 && words.length <= 12 && words.every((w) => /^[A-Za-z]+(?:'[A-Za-z]+)?,?$/.test(w));
}

/** The sentence with one token hidden (rule 3): { masked, answer }. */
export function hide(sentence, language) {
  const at = fnv1a(sentence) >>> 8;
  if (language === 'zh') {
    const chars = [...sentence];
    const han = chars.map((c, k) => (/\p{Script=Han}/u.test(c) ? k : -1)).filter((k) => k >= 0);
    const k = han[at % han.length];
    return { masked: [...chars.slice(0, k), '[MASK]', ...chars.slice(k + 1)].join(''), answer: chars[k] };
  }
  const words = sentence.split(' ');
  const k = at % words.length;
  const [, word, comma] = /^([A-Za-z']+)(,?)$/.exec(words[k]);
  return { masked: [...words.slice(0, k), `[MASK]${comma}`, ...words.slice(k + 1)].join(' '), answer: word };
}

/** The evaluation set of a language from its held-out sentences (rules 1–4). */
export function evalSet(sentences, language, size = SIZES[language]) {
  const candidates = [...new Set(sentences.map(learnerStyle).filter((s) => inRange(s, language)))];
  candidates.sort((a, b) => fnv1a(a) - fnv1a(b) || (a < b ? -1 : a > b ? 1 : 0));
  return candidates.slice(0, size).map((sentence) => ({ sentence, ...hide(sentence, language) }));
}

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

// The learner-register English set: sentences of the learner-register sources
// (children's activities, the desktop's help, the Harvard sentences, picture
// descriptions), typed as a learner types them, one common word hidden each.
// The rule, for a held-out sentence of those sources:
//  L1. Rule 1, then lower case.
//  L2. Rule 2's English range: 4 to 12 words of letters and commas.
//  L3. The hidden word: of the sentence's words that are common (among the
//      LEARNER_COMMON most frequent words of the same sources' training
//      sentences, lower case), number (FNV-1a(sentence) >>> 8) mod their
//      count; a sentence without one is left out.
//  L4. Distinct sentences in order of FNV-1a(sentence); the first LEARNER_SIZE.

export const LEARNER_SIZE = 300;
export const LEARNER_COMMON = 2000;

/** The `count` most frequent words (lower case, letters and inner apostrophes)
 *  of the sentences, most frequent first (a tie: the word met first). */
export function commonWords(sentences, count = LEARNER_COMMON) {
  const counts = new Map();
  for (const sentence of sentences) {
    for (const word of sentence.toLowerCase().match(/[a-z]+(?:'[a-z]+)?/g) ?? []) counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1]).slice(0, count).map(([word]) => word); // a stable sort keeps first met first
}

/** The learner-register set from held-out sentences (rules L1–L4): { sentence, masked, answer }. */
export function learnerSet(sentences, common, size = LEARNER_SIZE) {
  const isCommon = new Set(common);
  const candidates = [...new Set(sentences.map((s) => learnerStyle(s).toLowerCase()).filter((s) => inRange(s, 'en')))];
  candidates.sort((a, b) => fnv1a(a) - fnv1a(b) || (a < b ? -1 : a > b ? 1 : 0));
  const out = [];
  for (const sentence of candidates) {
    const words = sentence.split(' ');
    const places = words.map((w, k) => (isCommon.has(w.replace(/,$/, '')) ? k : -1)).filter((k) => k >= 0);
    if (!places.length) continue;
    const k = places[(fnv1a(sentence) >>> 8) % places.length];
    const [, word, comma] = /^([a-z']+)(,?)$/.exec(words[k]);
    out.push({ sentence, masked: [...words.slice(0, k), `[MASK]${comma}`, ...words.slice(k + 1)].join(' '), answer: word });
    if (out.length === size) break;
  }
  return out;
}

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

/** Distinct held-out sentences in learner style (lower case if asked), in the
 *  language's range, in order of FNV-1a (rules 1, 2 and 4; L1, L2 and L4). */
function candidates(sentences, language, lowerCase = false) {
  const style = lowerCase ? (s) => learnerStyle(s).toLowerCase() : learnerStyle;
  const out = [...new Set(sentences.map(style).filter((s) => inRange(s, language)))];
  return out.sort((a, b) => fnv1a(a) - fnv1a(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/** The first `size` candidates a token can be hidden in: `places(sentence)` lists
 *  the eligible places; number (FNV-1a(sentence) >>> 8) mod their count is hidden
 *  by `item(sentence, place)`. A sentence without a place is left out. */
function firstItems(sentences, places, item, size) {
  const out = [];
  for (const sentence of sentences) {
    const eligible = places(sentence);
    if (!eligible.length) continue;
    out.push(item(sentence, eligible[(fnv1a(sentence) >>> 8) % eligible.length]));
    if (out.length === size) break;
  }
  return out;
}

/** The evaluation set of a language from its held-out sentences (rules 1–4). */
export function evalSet(sentences, language, size = SIZES[language]) {
  return candidates(sentences, language).slice(0, size).map((sentence) => ({ sentence, ...hide(sentence, language) }));
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

/** Held-out sentences, learner style and lower case, in range (rules L1, L2),
 *  one word hidden among those `eligible(word)` accepts (L3), in order of
 *  FNV-1a (L4): { sentence, masked, answer }. */
export function hiddenWordSet(sentences, eligible, size) {
  const places = (sentence) => sentence.split(' ').map((w, k) => (eligible(w.replace(/,$/, '')) ? k : -1)).filter((k) => k >= 0);
  const item = (sentence, k) => {
    const words = sentence.split(' ');
    const [, word, comma] = /^([a-z']+)(,?)$/.exec(words[k]);
    return { sentence, masked: [...words.slice(0, k), `[MASK]${comma}`, ...words.slice(k + 1)].join(' '), answer: word };
  };
  return firstItems(candidates(sentences, 'en', true), places, item, size);
}

/** The learner-register set from held-out sentences (rules L1–L4): { sentence, masked, answer }. */
export function learnerSet(sentences, common, size = LEARNER_SIZE) {
  const isCommon = new Set(common);
  return hiddenWordSet(sentences, (w) => isCommon.has(w), size);
}

// The content-word English set: the learner-register sources' held-out
// sentences, one content word hidden each. The rule: L1, L2, L4 as above, and
//  C3. The hidden word: of the sentence's words that are not among the
//      FUNCTION_COUNT most frequent words of the English everyday training
//      sentences (lower case) and have no apostrophe, number
//      (FNV-1a(sentence) >>> 8) mod their count; a sentence without one is
//      left out.
export const CONTENT_SIZE = 300;
export const FUNCTION_COUNT = 150;

/** The content-word set (rules L1, L2, C3, L4): { sentence, masked, answer }. */
export function contentSet(sentences, frequent, size = CONTENT_SIZE) {
  const isFrequent = new Set(frequent.slice(0, FUNCTION_COUNT));
  return hiddenWordSet(sentences, (w) => !isFrequent.has(w) && /^[a-z]+$/.test(w), size);
}

// The word-inside Chinese set: short everyday sentences, one character hidden
// inside a word of two or more characters. The rule, for a held-out sentence
// of the everyday sources (the learner-register ones included; not UI phrases):
//  W1. Rules 1 and 2 (Chinese: 5 to 20 characters, at least 4 in 5 Han, no
//      Latin letter or digit).
//  W2. The sentence segmented by jieba's dictionary (segment(): the path of
//      dictionary words with the largest product of word frequencies, as
//      jieba's own cut without its HMM; a character the dictionary lacks is a
//      word of its own at the smallest frequency).
//  W3. The hidden character: of the Han characters inside words of two or more
//      Han characters, number (FNV-1a(sentence) >>> 8) mod their count; a
//      sentence without one is left out.
//  W4. Distinct sentences in order of FNV-1a(sentence); the first WORD_SIZE.
export const WORD_SIZE = 300;

/** jieba's dict.txt ("word count tag" lines) → Map word → count. */
export function readWordCounts(text) {
  const out = new Map();
  for (const line of text.split('\n')) {
    const [word, count] = line.split(' ');
    if (word && Number(count) > 0) out.set(word, (out.get(word) ?? 0) + Number(count));
  }
  return out;
}

/** A sentence as words (rule W2): the largest Σ log(count / total) path. */
export function segment(sentence, counts, total = [...counts.values()].reduce((a, b) => a + b, 0), longest = 8) {
  const chars = [...sentence];
  const n = chars.length;
  const floor = Math.log(1 / total);
  const best = new Array(n + 1).fill(-Infinity);
  const from = new Array(n + 1).fill(0);
  best[0] = 0;
  for (let i = 0; i < n; i += 1) {
    if (best[i] === -Infinity) continue;
    for (let j = i + 1; j <= Math.min(n, i + longest); j += 1) {
      const word = chars.slice(i, j).join('');
      const count = counts.get(word);
      if (j > i + 1 && !count) continue;
      const score = best[i] + (count ? Math.log(count / total) : floor);
      if (score > best[j]) best[j] = score, from[j] = i;
    }
  }
  const words = [];
  for (let j = n; j > 0; j = from[j]) words.unshift(chars.slice(from[j], j).join(''));
  return words;
}

/** The dictionary's entries segment() reads for these sentences (every
 *  substring of at most `longest` characters it holds), and its total count:
 *  enough to segment them again as the whole dictionary does. */
export function lexiconFor(sentences, counts, longest = 8) {
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  const used = new Map();
  for (const sentence of sentences) {
    const chars = [...sentence];
    for (let i = 0; i < chars.length; i += 1) {
      for (let j = i + 1; j <= Math.min(chars.length, i + longest); j += 1) {
        const word = chars.slice(i, j).join('');
        if (counts.has(word)) used.set(word, counts.get(word));
      }
    }
  }
  return { total, counts: used };
}

/** The word-inside set from held-out sentences (rules W1–W4): { sentence, masked, answer, word }. */
export function wordInsideSet(sentences, counts, size = WORD_SIZE, total = [...counts.values()].reduce((a, b) => a + b, 0)) {
  const places = (sentence) => {
    const out = [];
    let at = 0;
    for (const word of segment(sentence, counts, total)) {
      const chars = [...word];
      if (chars.length >= 2 && chars.every((c) => /\p{Script=Han}/u.test(c))) chars.forEach((_, k) => out.push({ k: at + k, word }));
      at += chars.length;
    }
    return out;
  };
  const item = (sentence, { k, word }) => {
    const chars = [...sentence];
    return { sentence, masked: [...chars.slice(0, k), '[MASK]', ...chars.slice(k + 1)].join(''), answer: chars[k], word };
  };
  return firstItems(candidates(sentences, 'zh'), places, item, size);
}

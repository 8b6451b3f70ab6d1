// The lexicon's words in sentences: each word-list unit set into an everyday
// training sentence in place of a word of the same part of speech, so that the
// model meets 人工智能 where a sentence has a noun (我喜欢[音乐] → 我喜欢人工智能),
// not only as a unit of four characters alone. The rule (tested in
// tests/js/lexicon-context.test.mjs):
//
//   X1. carriers: the Chinese everyday training sentences (held-out ones never)
//       without their final punctuation, 6 to 16 characters, at least 4 in 5 Han;
//   X2. each carrier segmented by jieba's dictionary (segment(), as rule W2);
//       each of its words of two or more Han characters with a part of speech in
//       the dictionary is a slot for that part of speech;
//   X3. the k-th unit of word w (jieba's tag t) takes slot number
//       (FNV-1a(w + "\t" + k) >>> 8) mod (the number of t's slots), and is that
//       carrier with the slot's word replaced by w; a word whose tag has no slot
//       stays a unit of its own.
import { fnv1a, hanCount } from './corpus-text.mjs';
import { segment } from './eval-sets.mjs';

export const CARRIER_CHARS = [6, 16];

/** jieba's part-of-speech tags (dict.txt: "word count tag" lines): word → its first tag. */
export function readWordTags(text) {
  const out = new Map();
  for (const line of text.split('\n')) {
    const [word, count, tag] = line.split(' ');
    if (word && Number(count) > 0 && tag && !out.has(word)) out.set(word, tag.trim());
  }
  return out;
}

const FINAL_PUNCTUATION = /[\s。！？!?…，,；;：:、.”’」』）)"']+$/u;

/** Rule X1: a training sentence as a carrier, or null. */
export function carrierOf(sentence) {
  const text = sentence.replace(FINAL_PUNCTUATION, '');
  const chars = [...text];
  if (chars.length < CARRIER_CHARS[0] || chars.length > CARRIER_CHARS[1]) return null;
  return hanCount(text) * 5 >= chars.length * 4 ? text : null;
}

/** Rule X2: the slots of each part of speech, over the carriers in order: tag → [{ words, at }]. */
export function carrierSlots(sentences, counts, tags, total = [...counts.values()].reduce((a, b) => a + b, 0)) {
  const slots = new Map();
  const seen = new Set();
  for (const sentence of sentences) {
    const carrier = carrierOf(sentence);
    if (!carrier || seen.has(carrier)) continue;
    seen.add(carrier);
    const words = segment(carrier, counts, total);
    words.forEach((word, at) => {
      const chars = [...word];
      const tag = tags.get(word);
      if (chars.length < 2 || !tag || hanCount(word) !== chars.length) return;
      if (!slots.has(tag)) slots.set(tag, []);
      slots.get(tag).push({ words, at });
    });
  }
  return slots;
}

/** Rule X3: the lexicon's units (word, '' pairs, as lexiconUnits() gives them)
 *  set into carriers: { units (sentence, '' pairs), placed, alone }. */
export function lexiconInContext(units, tags, slots) {
  const out = [];
  const nth = new Map();
  let placed = 0;
  let alone = 0;
  for (const word of units) {
    if (!word) continue;
    const k = nth.get(word) ?? 0;
    nth.set(word, k + 1);
    const choices = slots.get(tags.get(word));
    if (!choices?.length) {
      out.push(word, '');
      alone += 1;
      continue;
    }
    const { words, at } = choices[(fnv1a(`${word}\t${k}`) >>> 8) % choices.length];
    out.push([...words.slice(0, at), word, ...words.slice(at + 1)].join(''), '');
    placed += 1;
  }
  return { units: out, placed, alone };
}

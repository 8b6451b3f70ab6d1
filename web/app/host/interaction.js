// An exercise's answer as the course formats report it: a number as a plain decimal, the range
// the core accepts as right, and the xAPI interaction (cmi.interaction, numeric) with its name and
// description in each language. The exercise panel puts the interaction on each result it
// announces, so the element's exercise event carries it to H5P's script; the SCORM and cmi5
// adapters write the same range and the same interaction.
import { EXERCISES_WORDS } from '../../generated/words/exercises.js';

// Each of the lab's languages as xAPI's language maps name it (the traditional words use Taiwan's phrases).
const TAGS = Object.freeze({ en: 'en-US', zh: 'zh-CN', 'zh-Hant': 'zh-TW' });

const SENTENCE_SHOWN = 80; // characters of the sentence in an exercise's description

/** A number as a plain decimal, as SCORM's numeric fields take it (no exponent). */
export function decimal(x) {
  if (!Number.isFinite(x)) return '0';
  if (Math.abs(x) >= 1e21) return BigInt(Math.round(x)).toString(); // toFixed writes an exponent from 1e21
  const text = x.toFixed(7).replace(/\.?0+$/, '');
  return text === '' || text === '-0' ? '0' : text;
}

/** The answers the core takes as right for a result ({ expected, tolerance }), as SCORM 2004 and
 *  xAPI write a numeric range: "lo[:]hi". */
export const acceptedRange = (result) => `${decimal(result.expected - result.tolerance)}[:]${decimal(result.expected + result.tolerance)}`;

/** The xAPI definition of an exercise answered on `sentence` (a result: { exercise, cell, expected, tolerance }). */
export function exerciseInteraction(result, sentence) {
  const chars = Array.from(sentence);
  const words = { row: result.cell.row, col: result.cell.col,
    sentence: chars.length > SENTENCE_SHOWN ? `${chars.slice(0, SENTENCE_SHOWN).join('')}…` : chars.join('') };
  const fill = (table, key) => table[key].replace(/\{(\w+)\}/g, (_, name) => String(words[name]));
  const inEach = (text) => Object.fromEntries(Object.entries(EXERCISES_WORDS).map(([lang, table]) => [TAGS[lang], text(table)]));
  return {
    type: 'http://adlnet.gov/expapi/activities/cmi.interaction',
    name: inEach((table) => table[`ex.name.${result.exercise}`]),
    description: inEach((table) => fill(table, 'ex.report')),
    interactionType: 'numeric',
    correctResponsesPattern: [acceptedRange(result)],
  };
}

// An exercise set as a link or an attribute writes it (?exercises=…). Plain
// data, no page: exercise-panel.js reads it, and so does
// scripts/lesson-package.mjs when it packages a set for a learning platform.
// The names are the core's (core.exerciseNames).
const MAX_ITEMS = 20;

/** An exercise set as written in a link or an attribute: names (of `names`, the
 *  core's exerciseNames), or names with their cell (row:col, counted from 0 as
 *  the API counts, [CLS] being 0), separated by commas or spaces: "dot,softmax:2:3".
 *  Returns { items: [{ name, cell }] (cell null: the lab picks one), ignored: [the
 *  bad items], given: whether the items are the text's }. An empty text (or one with
 *  no good item) is the default set, every exercise once. */
export function parseExercises(text, names) {
  const words = String(text ?? '').split(/[\s,]+/).filter(Boolean);
  if (!words.length) return { items: names.map((name) => ({ name, cell: null })), ignored: [], given: false };
  const items = [];
  const ignored = [];
  for (const word of words.slice(0, MAX_ITEMS)) {
    const match = /^([a-z]+)(?::(\d{1,4}):(\d{1,4}))?$/.exec(word);
    if (match && names.includes(match[1])) {
      items.push({ name: match[1], cell: match[2] === undefined ? null : { row: Number(match[2]), col: Number(match[3]) } });
    } else ignored.push(word.slice(0, 24));
  }
  if (words.length > MAX_ITEMS) ignored.push('…');
  return { items: items.length ? items : parseExercises('', names).items, ignored, given: items.length > 0 };
}

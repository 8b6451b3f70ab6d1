// The page's words in traditional Chinese (zh-Hant), made from the simplified
// ones at build time, never written by hand: OpenCC's Taiwan conversion with
// Taiwan's phrases (npm opencc-js, cn → twp: 软件 → 軟體, 信息 → 資訊), then the
// read-through corrections of zh-hant-corrections.mjs. The bundlers call
// writeZhHant() first; it writes one module per table into web/generated/words/
// (build output, not committed):
//   words-zh-hant.js  WORDS_ZH_HANT (the page's words, strings/words-zh.js's) and
//                     PRESETS_ZH_HANT (the Examples menu, shell/presets.js's, by OpenCC alone:
//                     they are sentences to run, not the page's words): a chunk i18n.js loads
//   <table>.js        <NAME>_ZH_HANT beside strings/<table>.js's <NAME>_EN and <NAME>_ZH, and
//                     <NAME>_WORDS, the three by language id, for the view that shows them
//   node scripts/zh-hant-words.mjs      writes them (as the bundlers do)
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Converter } from 'opencc-js/cn2t';
import { CORRECTIONS, KEPT } from './zh-hant-corrections.mjs';

const OUT = fileURLToPath(new URL('../web/generated/words/', import.meta.url));
// The tables each of strings/<file>.js holds as <NAME>_EN and <NAME>_ZH.
export const TABLES = Object.freeze([
  ['course', 'COURSE'], ['exercises', 'EXERCISES'], ['experiments', 'EXPERIMENTS'], ['lens', 'LENS'], ['rollout', 'ROLLOUT'],
  ['shared-qk', 'SHARED_QK'], ['tiles', 'TILES'], ['tour', 'TOUR'], ['training', 'TRAINING'], ['what-if', 'WHAT_IF'], ['geometry', 'GEOMETRY'], ['code', 'CODE'],
]);

const openCC = Converter({ from: 'cn', to: 'twp' });
// Private-use characters stand for the kept words while OpenCC and the corrections run.
const mark = (k) => String.fromCodePoint(0xe000 + k);
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const byLength = (words) => [...words].sort((a, b) => b.length - a.length);
const KEPT_WORDS = new RegExp(byLength(KEPT).map(escape).join('|'), 'g');
const KEPT_MARKS = /[\u{e000}-\u{e0ff}]/gu;
const TO = new Map(CORRECTIONS);
const CORRECTED = new RegExp(byLength(TO.keys()).map(escape).join('|'), 'g');

/** Simplified Chinese → Taiwan's traditional, corrected; used: a Set that gets each correction
 *  applied. The kept words stay as written, and so does whatever is not Chinese ({slots} too). */
export function toTaiwan(text, used = new Set()) {
  const masked = text.replace(KEPT_WORDS, (word) => mark(KEPT.indexOf(word)));
  const corrected = openCC(masked).replace(CORRECTED, (from) => {
    used.add(from);
    return TO.get(from);
  });
  return corrected.replace(KEPT_MARKS, (m) => KEPT[m.codePointAt(0) - 0xe000]);
}

/** A table of words converted; slots: {name}s must come out as they went in. */
function convertTable(table, used, where) {
  const slots = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort().join();
  return Object.fromEntries(Object.entries(table).map(([key, text]) => {
    const out = toTaiwan(text, used);
    if (slots(out) !== slots(text)) throw new Error(`zh-Hant: ${where} ${key} lost a {slot}: ${out}`);
    return [key, out];
  }));
}

const header = (from) => `// Made by scripts/zh-hant-words.mjs from ${from}: OpenCC's Taiwan conversion and\n`
  + '// scripts/zh-hant-corrections.mjs. Build output: edit those, never this.\n';
const literal = (value) => JSON.stringify(value, null, 2);

/** The modules' text by file name: { 'words-zh-hant.js': …, 'tour.js': …, … }; throws on a lost
 *  slot or on a correction that matches nothing any more. */
export async function zhHantModules() {
  const used = new Set();
  const modules = {};
  const { WORDS_ZH } = await import('../web/app/strings/words-zh.js');
  const { PRESETS } = await import('../web/app/shell/presets.js');
  modules['words-zh-hant.js'] = `${header('web/app/strings/words-zh.js and web/app/shell/presets.js')}
export const WORDS_ZH_HANT = Object.freeze(${literal(convertTable(WORDS_ZH, used, 'words-zh.js'))});

export const PRESETS_ZH_HANT = Object.freeze(${literal(PRESETS.map(openCC))});
`;
  for (const [file, name] of TABLES) {
    const source = await import(`../web/app/strings/${file}.js`);
    modules[`${file}.js`] = `${header(`web/app/strings/${file}.js`)}import { ${name}_EN, ${name}_ZH } from '../../app/strings/${file}.js';

export const ${name}_ZH_HANT = Object.freeze(${literal(convertTable(source[`${name}_ZH`], used, `${file}.js`))});

/** These words in each of the lab's languages (strings/i18n.js's LANGUAGE_IDS). */
export const ${name}_WORDS = Object.freeze({ en: ${name}_EN, zh: ${name}_ZH, 'zh-Hant': ${name}_ZH_HANT });
`;
  }
  const unused = [...TO.keys()].filter((from) => !used.has(from));
  if (unused.length) throw new Error(`zh-Hant: corrections that match nothing any more (scripts/zh-hant-corrections.mjs): ${unused.join(' ')}`);
  return modules;
}

/** Writes the modules into web/generated/words/, each only when its text changed, by a rename:
 *  bundlers running at once each see a whole file. */
export async function writeZhHant() {
  mkdirSync(OUT, { recursive: true });
  for (const [name, text] of Object.entries(await zhHantModules())) {
    const path = `${OUT}${name}`;
    let before = null;
    try {
      before = readFileSync(path, 'utf8');
    } catch {
      // not written yet
    }
    if (before === text) continue;
    writeFileSync(`${path}.${process.pid}.tmp`, text);
    renameSync(`${path}.${process.pid}.tmp`, path);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await writeZhHant();
  console.log(`wrote ${OUT}`);
}

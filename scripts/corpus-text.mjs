// Plain text out of what Debian packages ship (fortune files, troff man pages,
// HTML help), cleaned to one sentence-like line each, deduplicated and split
// into training and held-out lines. Pure functions: scripts/corpus.mjs fetches
// and walks the packages; tests/js/corpus.test.mjs checks each rule.
import { gunzipSync } from 'node:zlib';

const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', mdash: '—', ndash: '–', hellip: '…',
  ldquo: '“', rdquo: '”', lsquo: '‘', rsquo: '’', copy: '©', reg: '®', trade: '™', middot: '·', times: '×' };

/** HTML to lines of text: no scripts, styles, code blocks or tags; one line per block
 *  (paragraph, list item, heading, cell); entities decoded. */
export function htmlToText(html) {
  return html
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<(script|style|pre)\b[\s\S]*?<\/\1>/gi, '\n')
    .replace(/\s+/g, ' ') // a paragraph's source lines are one line of text
    .replace(/<(br|\/p|\/div|\/li|\/h[1-6]|\/tr|\/td|\/th|\/dt|\/dd|\/title|\/caption)\b[^>]*>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name) => {
      if (name[0] === '#') {
        const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
        return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ' ';
      }
      return ENTITIES[name.toLowerCase()] ?? ' ';
    });
}

/** troff (man pages) to lines of text: comments and layout requests dropped,
 *  a macro's arguments kept (".SH 描述" → "描述"), font and size escapes removed. */
export function troffToText(troff) {
  const out = [];
  for (const raw of troff.split('\n')) {
    if (/^\s*['.]\s*\\"/.test(raw)) continue; // a comment line
    let line = raw.replace(/\\".*$/, ''); // a trailing comment
    if (/^[.']/.test(line)) {
      const request = /^[.']\s*(\S*)\s*(.*)$/.exec(line);
      const name = request?.[1] ?? '';
      // Text-carrying macros keep their arguments; every other request is layout.
      if (!/^(SH|SS|B|I|BI|BR|IB|IR|RB|RI|SM|SB|TP|IP|Nm|Nd|Sh|Ss|Em|Sy|Ar)$/.test(name)) continue;
      line = (request?.[2] ?? '').replace(/"/g, '');
    }
    line = line
      .replace(/\\f(\[[^\]]*\]|\(..|.)/g, '')   // fonts: \fB \fP \f(CW \f[B]
      .replace(/\\s[+-]?\d+/g, '')               // sizes
      .replace(/\\\*(\[[^\]]*\]|\(..|.)/g, '')  // strings
      .replace(/\\\((em|en)/g, '—')
      .replace(/\\\((lq|rq|dq)/g, '"')
      .replace(/\\\(../g, '')                    // other special characters
      .replace(/\\[-e]/g, (m) => (m === '\\-' ? '-' : '\\'))
      .replace(/\\[&,/|^:]/g, '')                // zero-width and thin spaces
      .replace(/\\ /g, ' ')
      .replace(/\\(.)/g, '$1');
    out.push(line);
  }
  return out.join('\n');
}

/** Fortune files: records between % lines, ANSI colour codes removed. */
export function fortuneToText(text) {
  return text.replace(/\x1b\[[0-9;]*m/g, '').split(/^%\s*$/m).join('\n');
}

/** Reads a file's text, gunzipped when it ends in .gz. */
export function readText(bytes, name) {
  return (name.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
}

const HAN = /\p{Script=Han}/gu;

/** How many Han characters a line holds. */
export const hanCount = (line) => (line.match(HAN) ?? []).length;

/** White space folded, control characters dropped, trimmed. */
export function normalise(line) {
  return line.replace(/[\u0000-\u0008\u000b-\u001f\u007f\u200b-\u200f\ufeff]/g, '').replace(/\s+/g, ' ').trim().normalize('NFC');
}

/** Whether a cleaned line is worth training on: for 'zh', at least 4 Han
 *  characters; for 'en', at least 6 words, mostly letters, and no Han. */
export function keepLine(line, language) {
  if (language === 'zh') return hanCount(line) >= 4;
  const words = line.split(' ').filter((w) => /\p{L}{2,}/u.test(w));
  const letters = (line.match(/\p{L}/gu) ?? []).length;
  return words.length >= 6 && letters >= 0.6 * line.length && hanCount(line) === 0;
}

/** FNV-1a (32-bit) of a string's UTF-8 bytes. */
export function fnv1a(text) {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * Cleans, filters and deduplicates lines in order of appearance, then splits
 * them: a line is held out when its hash says so (1 in `every`), so the split
 * is the same whatever else the corpus holds. Returns { train, heldout, dropped, duplicates }.
 */
export function cleanAndSplit(lines, language, every = 50) {
  const out = { train: [], heldout: [], dropped: 0, duplicates: 0 };
  for (const line of keptOnce(lines, (line) => keepLine(line, language), out)) {
    (fnv1a(line) % every === 0 ? out.heldout : out.train).push(line);
  }
  return out;
}

/** The lines, cleaned, that `keep` accepts, each once (the first stays), in
 *  order; counts the others in out.dropped and out.duplicates. An item is a
 *  string or { text, … }: it is yielded as [cleaned text, item]. */
export function* keptOnce(items, keep, out, withItem = false) {
  const seen = new Set();
  for (const item of items) {
    const line = normalise(typeof item === 'string' ? item : item.text);
    if (!keep(line)) {
      out.dropped += 1;
    } else if (seen.has(line)) {
      out.duplicates += 1;
    } else {
      seen.add(line);
      yield withItem ? [line, item] : line;
    }
  }
}

// ---- everyday text: translations, recipes, a story, dictionary examples ----

/** A gettext .mo file's [msgid, msgstr] pairs (the header entry skipped; of a
 *  plural entry, the first form of each). */
export function moEntries(bytes) {
  const magic = bytes.readUInt32LE(0);
  if (magic !== 0x950412de && magic !== 0xde120495) throw new Error('not a gettext .mo file');
  const u32 = (at) => (magic === 0x950412de ? bytes.readUInt32LE(at) : bytes.readUInt32BE(at));
  const count = u32(8);
  const originals = u32(12);
  const translations = u32(16);
  const string = (table, k) => {
    const length = u32(table + 8 * k);
    const at = u32(table + 8 * k + 4);
    return bytes.toString('utf8', at, at + length).split('\0')[0];
  };
  const out = [];
  for (let k = 0; k < count; k += 1) {
    const id = string(originals, k);
    if (id) out.push([id.replace(/^[^\u0004]*\u0004/, ''), string(translations, k)]); // a msgctxt before \u0004 is dropped
  }
  return out;
}

/** A game or UI string as plain text: markup tags removed; null when it holds
 *  placeholders (`$name`, `{VARIABLE}`, `%s`, `&image=`), which are not text. */
export function messageText(text) {
  const plain = text.replace(/<[^<>]*>/g, '').replace(/~/g, '');
  return /[$&{}]|%\d*\$?[sdu]|\\[nt]/.test(plain) ? null : plain.replace(/\s+/g, ' ');
}

/** Recipes (npm howtocook-mcp's all_recipes.json): each recipe's description,
 *  steps and notes as lines, Markdown marks and star ratings dropped. */
export function recipeLines(json) {
  const out = [];
  for (const recipe of JSON.parse(json)) {
    const texts = [recipe.description ?? '', ...(recipe.steps ?? []).map((s) => s.description ?? ''), ...(recipe.additional_notes ?? [])];
    for (const text of texts) {
      for (const line of String(text).split('\n')) {
        if (/^\s*#|★|☆|^\s*!\[|https?:/.test(line)) continue; // headings, ratings, images, links
        out.push(line.replace(/^\s*([-*+]|\d+\.)\s+/, '').replace(/[*_`]/g, ''));
      }
    }
  }
  return out;
}

/** One section of texlive's zhlipsum-utf8.def (`zhufu`: 鲁迅's 祝福) as its paragraphs. */
export function zhlipsumSection(def, name) {
  const start = def.indexOf(`+newzhlipsum < ${name} >`);
  if (start < 0) throw new Error(`no section ${name}`);
  const end = def.indexOf('+newzhlipsum', start + 1);
  const body = def.slice(start, end < 0 ? def.length : end);
  return [...body.matchAll(/^\s*<([^<>\n]+)>,?\s*$/gm)].map((m) => m[1]);
}

/** A Fluent (.ftl) file's message values; values with placeables are not text. */
export function ftlValues(ftl) {
  const out = [];
  for (const line of ftl.split('\n')) {
    const m = /^\s*(?:[\w-]+|\.[\w-]+)\s*=\s*(.+)$/.exec(line);
    if (m && !/[{}]/.test(m[1])) out.push(m[1]);
  }
  return out;
}

/** WordNet's example sentences: the quoted parts of each synset's gloss (after `|`). */
export function wordnetExamples(data) {
  const out = [];
  for (const line of data.split('\n')) {
    const bar = line.indexOf(' | ');
    if (line.startsWith('  ') || bar < 0) continue; // the licence header
    for (const m of line.slice(bar + 3).matchAll(/"([^"]+)"/g)) out.push(m[1]);
  }
  return out;
}

/** A paragraph as its sentences: after 。！？!?… (and closing quotes) in Chinese;
 *  in English after . ! ? (and closing quotes) before a space and a capital or a quote. */
export function splitSentences(paragraph, language) {
  const pattern = language === 'zh'
    ? /[^。！？!?…]*(?:[。！？!?]+|…+)[”’」』）)"']*|[^。！？!?…]+$/gu
    : /.*?(?<!\b(?:Mr|Mrs|Ms|Dr|St|Sr|Jr|vs|etc|e\.g|i\.e))[.!?]+["'”’)]*(?=\s+["'“‘(]?\p{Lu})|.+$/gu;
  return (paragraph.match(pattern) ?? []).map((s) => s.trim()).filter(Boolean);
}

/** Whether an everyday paragraph is worth training on: for 'zh', at least 4 Han
 *  characters; for 'en', at least 3 words, mostly letters, and no Han. */
export function keepEveryday(line, language) {
  if (language === 'zh') return hanCount(line) >= 4;
  const words = line.split(' ').filter((w) => /\p{L}{2,}/u.test(w));
  const letters = (line.match(/\p{L}/gu) ?? []).length;
  return words.length >= 3 && letters >= 0.6 * line.length && hanCount(line) === 0;
}

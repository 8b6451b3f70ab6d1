// Plain text out of what Debian packages ship (fortune files, troff man pages,
// HTML help), cleaned to one sentence-like line each, deduplicated and split
// into training and held-out lines. Pure functions: scripts/corpus.mjs fetches
// and walks the packages; tests/js/corpus.test.mjs checks each rule.
import { gunzipSync, inflateSync } from 'node:zlib';

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

// ---- everyday text in a learner's register: children's activities, help pages, test sentences ----

const QM_MAGIC = Buffer.from([0x3c, 0xb8, 0x64, 0x18, 0xca, 0xef, 0x9c, 0x95, 0xcd, 0x21, 0x1c, 0xbf, 0x60, 0xa1, 0xbd, 0xdd]);

/** A Qt .qm translation file's messages as { context, source, translation }
 *  (the first translation of a plural; messages without a source skipped). */
export function qmEntries(bytes) {
  if (bytes.length < 16 || !bytes.subarray(0, 16).equals(QM_MAGIC)) throw new Error('not a Qt .qm file');
  let messages = null;
  for (let at = 16; at + 5 <= bytes.length;) {
    const length = bytes.readUInt32BE(at + 1);
    if (bytes[at] === 0x69) messages = bytes.subarray(at + 5, at + 5 + length);
    at += 5 + length;
  }
  if (!messages) throw new Error('a .qm file without messages');
  const out = [];
  let message = {};
  for (let at = 0; at < messages.length;) {
    const tag = messages[at++];
    if (tag === 0x01) { // end of a message
      if (message.source) out.push({ context: message.context ?? '', source: message.source, translation: message.translation ?? '' });
      message = {};
      continue;
    }
    if (tag === 0x05) { at += 4; continue; } // obsolete hash
    const length = messages.readUInt32BE(at);
    at += 4;
    if (tag === 0x03) { // a translation, UTF-16 big-endian (0xffffffff: none)
      if (length === 0xffffffff) continue;
      const utf16 = Buffer.from(messages.subarray(at, at + length));
      utf16.swap16();
      message.translation ??= utf16.toString('utf16le');
    } else if (tag === 0x06) {
      message.source = messages.toString('utf8', at, at + length);
    } else if (tag === 0x07) {
      message.context = messages.toString('utf8', at, at + length);
    } else if (tag !== 0x08) {
      throw new Error(`a .qm message with an unknown tag ${tag}`);
    }
    at += length;
  }
  return out;
}

/** A GNOME help page (Mallard XML) as its paragraphs of text: the page's
 *  description, titles, paragraphs, list and table items, inline markup kept
 *  as its text (a key sequence as Ctrl+Alt+T); a paragraph with a link whose
 *  text the page fills in (`<link xref="…"/>`) or with code is left out. */
export function mallardParagraphs(xml) {
  const body = xml
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<info>([\s\S]*?)<\/info>/g, (_, info) => (/<desc>([\s\S]*?)<\/desc>/.exec(info)?.[0] ?? ''))
    .replace(/<(screen|code|media|comment|credit|revision|include)\b[\s\S]*?(?:\/>|<\/\1>)/g, ' \u0000 ')
    .replace(/<keyseq>([\s\S]*?)<\/keyseq>/g, (_, keys) => [...keys.matchAll(/<key>([\s\S]*?)<\/key>/g)].map((m) => m[1]).join('+'))
    .replace(/<link\b[^>]*\/>/g, ' \u0000 ');
  const out = [];
  for (const m of body.matchAll(/<(p|title|desc)\b[^>]*>([\s\S]*?)<\/\1>/g)) {
    if (m[2].includes('\u0000') || /<(p|title|desc)\b/.test(m[2])) continue;
    const text = m[2].replace(/<[^>]*>/g, '').replace(/&(amp|lt|gt|quot|apos);/g, (_, e) => ENTITIES[e]).replace(/\s+/g, ' ').trim();
    if (text) out.push(text);
  }
  return out;
}

/** The strings of every character vector in an R lazy-load database (.rdb):
 *  its objects lie back to back, each a 4-byte length and a zlib stream of
 *  that many bytes, serialised in XDR. An object is found where a zlib header
 *  inflates to exactly the length before it. */
export function rdbStrings(bytes) {
  const out = [];
  for (let at = 0; at + 6 < bytes.length; at += 1) {
    const length = bytes.readUInt32BE(at);
    if (bytes[at + 4] !== 0x78 || (bytes[at + 4] * 256 + bytes[at + 5]) % 31 !== 0 || length < 16 || length > 1 << 26) continue;
    let object;
    try {
      object = inflateSync(bytes.subarray(at + 4));
    } catch {
      continue;
    }
    if (object.length !== length || object.toString('latin1', 0, 2) !== 'X\n') continue;
    let p = 14; // 'X\n', the format version, the R version, the oldest R version
    if (object.readUInt32BE(2) === 3) p += 4 + object.readUInt32BE(14); // version 3: the native encoding's name
    if ((object.readUInt32BE(p) & 0xff) !== 16) continue; // not a character vector (STRSXP)
    const count = object.readUInt32BE(p + 4);
    p += 8;
    for (let k = 0; k < count && p + 8 <= object.length; k += 1) {
      const n = object.readInt32BE(p + 4);
      p += 8;
      if (n < 0) continue; // NA
      out.push(object.toString('utf8', p, p + n));
      p += n;
    }
  }
  return out;
}

/** A Tux Paint stamp's description file: { en: its first line, zh: its zh_CN line }. */
export function stampText(text) {
  const lines = text.split('\n');
  const zh = lines.find((l) => l.startsWith('zh_CN.utf8='));
  return { en: lines[0].trim() ? [lines[0].trim()] : [], zh: zh ? [zh.slice('zh_CN.utf8='.length).trim()] : [] };
}

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
  const seen = new Set();
  const out = { train: [], heldout: [], dropped: 0, duplicates: 0 };
  for (const raw of lines) {
    const line = normalise(raw);
    if (!keepLine(line, language)) {
      out.dropped += 1;
      continue;
    }
    if (seen.has(line)) {
      out.duplicates += 1;
      continue;
    }
    seen.add(line);
    (fnv1a(line) % every === 0 ? out.heldout : out.train).push(line);
  }
  return out;
}

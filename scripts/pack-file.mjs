// A file as the one-file builds carry it: basE91 text of its gzip (level 9), 92 % of base64's length
// (web/lib/base91.js). web/lib/core.js unpackGzip91() unpacks it in the browser.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { encode91 } from '../web/lib/base91.js';

export function packFile(file) {
  return encode91(gzipSync(readFileSync(file), { level: 9 }));
}

/** packFile's text as a JavaScript string literal that is safe inside an HTML <script> ("</" escaped). */
export const packedLiteral = (file) => JSON.stringify(packFile(file)).replace(/<\//g, '<\\/');

/** The trained model the page ships (web/models/trained.almodel). */
export const MODEL_FILE = fileURLToPath(new URL('../web/models/trained.almodel', import.meta.url));

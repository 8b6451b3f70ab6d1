// A file as the one-file builds carry it: basE91 text of its gzip, 92 % of base64's length
// (web/lib/base91.js). web/lib/base91.js unpackGzip91() unpacks it in the browser.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { constants, gzipSync } from 'node:zlib';
import { encode91 } from '../web/lib/base91.js';

/** The smallest of zlib's level-9 gzips over its strategies: the model's int8 weights compress
 *  ≈ 3 % smaller as filtered data than with the default strategy; any gzip unpacks the same. */
export function smallestGzip(bytes) {
  return [constants.Z_DEFAULT_STRATEGY, constants.Z_FILTERED, constants.Z_RLE, constants.Z_HUFFMAN_ONLY]
    .map((strategy) => gzipSync(bytes, { level: 9, memLevel: 9, strategy }))
    .reduce((best, gz) => (gz.length < best.length ? gz : best));
}

export function packFile(file) {
  return encode91(smallestGzip(readFileSync(file)));
}

/** packFile's text as a JavaScript string literal that is safe inside an HTML <script> ("</" escaped). */
export const packedLiteral = (file) => JSON.stringify(packFile(file)).replace(/<\//g, '<\\/');

/** The trained model the page ships (web/models/trained.almodel). */
export const MODEL_FILE = fileURLToPath(new URL('../web/models/trained.almodel', import.meta.url));

// A file as the offline files carry it: base64 of its gzip (level 9). For the
// wasm, ~40 % of Emscripten's SINGLE_FILE base64. web/lib/core.js
// unpackGzipBase64() unpacks it in the browser.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export function packFile(file) {
  return gzipSync(readFileSync(file), { level: 9 }).toString('base64');
}

/** The trained model the page ships (web/models/trained.almodel). */
export const MODEL_FILE = fileURLToPath(new URL('../web/models/trained.almodel', import.meta.url));

// The wasm as the offline files carry it: base64 of its gzip (level 9).
// ~40 % of Emscripten's SINGLE_FILE base64; web/lib/lab.js inflateWasm() unpacks it.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

export function packWasm(file) {
  return gzipSync(readFileSync(file), { level: 9 }).toString('base64');
}

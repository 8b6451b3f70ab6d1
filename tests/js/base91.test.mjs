// basE91 text, how the one-file builds carry the gzipped wasm and model (web/lib/base91.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ALPHABET, decode91, encode91 } from '../../web/lib/base91.js';
import { packedLiteral } from '../../scripts/pack-file.mjs';

test('basE91 gives back every byte, for every length and byte value', () => {
  const all = Uint8Array.from({ length: 256 }, (_, k) => k);
  for (let n = 0; n <= 40; n += 1) {
    const bytes = Uint8Array.from({ length: n }, (_, k) => (k * 97 + n * 31) % 256);
    assert.deepEqual(decode91(encode91(bytes)), bytes, `length ${n}`);
  }
  assert.deepEqual(decode91(encode91(all)), all);
  assert.deepEqual(decode91(encode91(new Uint8Array(1000).fill(0))), new Uint8Array(1000).fill(0));
  assert.deepEqual(decode91(encode91(new Uint8Array(1000).fill(255))), new Uint8Array(1000).fill(255));
});

test('basE91 is smaller than base64 for the model, needs no escape in JSON, and rejects other text', () => {
  const model = gzipSync(readFileSync(fileURLToPath(new URL('../../web/models/trained.almodel', import.meta.url))), { level: 9 });
  const text = encode91(model);
  assert.ok(text.length < 0.93 * model.toString('base64').length, `${text.length} against ${model.toString('base64').length}`);
  assert.equal(JSON.stringify(text).length, text.length + 2, 'no quote or backslash to escape');
  assert.equal(new Set(ALPHABET).size, 91);
  assert.throws(() => decode91('AB"C'), /not basE91 text/);
  assert.throws(() => decode91('AB喜'), /not basE91 text/);
});

test('a packed file is safe inside an HTML script: no "</"', () => {
  const literal = packedLiteral(fileURLToPath(new URL('../../web/models/trained.almodel', import.meta.url)));
  assert.equal(literal.includes('</'), false);
  assert.deepEqual(decode91(JSON.parse(literal)).length > 1_000_000, true);
});

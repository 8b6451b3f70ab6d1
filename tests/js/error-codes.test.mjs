// Every error has a name: each code the core, the trainer or the API can
// throw is one of the documented ErrorCode values (web/types/attention-lab.d.ts),
// listed in checks.js and the README; and no exception reaches JS unnamed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (path) => readFileSync(join(ROOT, path), 'utf8');
const files = (dir, ext) => readdirSync(join(ROOT, dir), { recursive: true })
  .filter((f) => ext.some((e) => f.endsWith(e))).map((f) => join(dir, f));

const documented = new Set([...read('web/types/attention-lab.d.ts').match(/export type ErrorCode =([^;]*);/)[1].matchAll(/'([a-z_0-9]+)'/g)]
  .map((m) => m[1]));

/** The codes a source throws: C++ Error("code", …), error_value("code", …) and bert.cpp's fail("code", …); JS fail(…, 'code'…)
 *  and code: 'code'. */
function thrown() {
  const found = new Map();
  const note = (code, where) => { if (!found.has(code)) found.set(code, where); };
  for (const f of [...files('cpp', ['.cpp', '.hpp'])]) {
    for (const m of read(f).matchAll(/\b(?:Error|error_value|fail)\(\s*"([a-z_0-9]+)",/g)) note(m[1], f);
  }
  for (const f of files('web/lib', ['.js'])) {
    const text = read(f);
    for (const m of text.matchAll(/\bfail\([\s\S]{0,300}?,\s*'([a-z_0-9]+)'\s*[,)]/g)) note(m[1], f);
    for (const m of text.matchAll(/\bcode: '([a-z_]+)'/g)) note(m[1], f);
    for (const m of text.matchAll(/new AttentionLabError\([^;]*?,\s*'([a-z_]+)'/g)) note(m[1], f);
  }
  return found;
}

test('every code thrown is a documented ErrorCode, and each documented code is thrown somewhere', () => {
  const codes = thrown();
  for (const [code, where] of codes) assert.ok(documented.has(code), `${code} (thrown in ${where}) is not in ErrorCode`);
  for (const code of documented) assert.ok(codes.has(code), `ErrorCode lists ${code}, which nothing throws`);
  assert.ok(codes.size >= 15, `only ${codes.size} codes found: the patterns above no longer match the sources`);
});

test('the list in checks.js and the README name the same codes as the types', () => {
  const comment = read('web/lib/checks.js').match(/`code` is stable:([\s\S]*?)\*\//)[1];
  assert.deepEqual(new Set(comment.match(/\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b|\binternal\b|\bdisposed\b|\baborted\b/g)), documented);
  const readme = read('README.md').match(/\*Errors\*:([\s\S]*?)\n- \*/)[1];
  assert.deepEqual(new Set([...readme.matchAll(/`([a-z_0-9]+)`/g)].map((m) => m[1]).filter((c) => !['message', 'code', 'params'].includes(c))), documented);
});

test('no exception of the core or the trainer reaches JS without a code: they throw attention::Error', () => {
  // (std::runtime_error is the command line's reading and writing of files, which the wasm never
  // does; std::logic_error a broken invariant, which the binding's guard names internal.)
  for (const f of files('cpp', ['.cpp', '.hpp'])) {
    const text = read(f);
    for (const m of text.matchAll(/throw std::(invalid_argument|out_of_range|domain_error|length_error)\(/g)) {
      const line = text.slice(0, m.index).split('\n').length;
      assert.fail(`${f}:${line} throws std::${m[1]}, which reaches JS as internal`);
    }
  }
});

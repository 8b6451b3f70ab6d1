// The C++ the Code switch shows is the core's own, taken from its files at build time
// (scripts/core-code.mjs): every function found, whole, verbatim.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { FUNCTIONS, extractFunctions } from '../../scripts/core-code.mjs';
import { CORE_CODE } from '../../web/generated/code/stages.js';

const read = (file) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');

test('each function the Code switch shows is its file’s text, from its signature to its closing brace', () => {
  for (const [file, names] of Object.entries(FUNCTIONS)) {
    const text = read(file);
    for (const name of names) {
      const { source, file: from } = CORE_CODE[name];
      assert.equal(from, file);
      assert.ok(text.includes(source), `${name} is verbatim in ${file}`);
      assert.match(source, new RegExp(`^(template <[^>\\n]*>\\n)?\\w[\\w:<>]* ${name}\\(`));
      assert.match(source, /}[^\n]*$/);
      // Whole: as many braces open as close.
      assert.equal((source.match(/{/g) ?? []).length, (source.match(/}/g) ?? []).length, name);
    }
  }
  assert.deepEqual(Object.keys(CORE_CODE).sort(), Object.values(FUNCTIONS).flat().sort());
});

test('extractFunctions takes a one-line body, a template’s body closed at the line start, and names a function that is not there', () => {
  const text = 'int a(int x) { return x; }\n\ntemplate <class T>\nMatrix b(const Matrix& m) {\n    return m;\n}\n';
  assert.deepEqual(extractFunctions(text, ['a', 'b'], 'f.cpp'), {
    a: { file: 'f.cpp', source: 'int a(int x) { return x; }' }, b: { file: 'f.cpp', source: 'template <class T>\nMatrix b(const Matrix& m) {\n    return m;\n}' } });
  assert.throws(() => extractFunctions(text, ['c'], 'f.cpp'), /f\.cpp has no function c/);
});

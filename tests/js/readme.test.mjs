// The README is the user's document: what it is, the two commands, how to use
// it, the API, the layout. It stays short enough to read, and it holds no
// history (dates belong in git).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

test('the README stays at most 300 lines, gives the two commands, and holds no dates', () => {
  const lines = readme.split('\n').length - (readme.endsWith('\n') ? 1 : 0);
  assert.ok(lines <= 300, `README.md has ${lines} lines: at most 300`);
  assert.match(readme, /npm start/);
  assert.match(readme, /npm test/);
  assert.deepEqual(readme.match(/\b(19|20)\d\d-\d\d-\d\d\b/g) ?? [], [], 'no dated paragraphs');
});

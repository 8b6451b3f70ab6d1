// The page's script as served: one bundle (scripts/bundle-app.mjs) that
// index.html loads as a module, opening with Chromium's explicit compile hint
// so its functions are compiled off the main thread while it downloads, not
// one by one as each stage is first shown (see README, performance).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const web = (path) => readFileSync(new URL(`../../web/${path}`, import.meta.url), 'utf8');

test('index.html loads the bundle as its one module script', () => {
  const modules = [...web('index.html').matchAll(/<script type="module" src="([^"]+)"/g)].map((m) => m[1]);
  assert.deepEqual(modules, ['generated/app.js']);
});

test('the bundle opens with the compile hint, as its very first line', () => {
  const [first, second] = web('generated/app.js').split('\n', 2);
  assert.equal(first, '//# allFunctionsCalledOnLoad');
  assert.match(second, /^import\b/, 'the code itself follows');
});

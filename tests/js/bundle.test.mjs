// The page's script as served: one bundle (scripts/bundle-app.mjs) that
// index.html loads as a module, opening with Chromium's explicit compile hint
// so its functions are compiled off the main thread while it downloads, not
// one by one as each stage is first shown (see README, performance).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { STRINGS_ZH } from '../../web/app/strings/zh.js';
import { HEADS_ZH } from '../../web/app/strings/heads-zh.js';
import { EXPERIMENTS_EN } from '../../web/app/strings/experiments.js';
import { PRESETS_ZH_HANT, WORDS_ZH_HANT } from '../../web/generated/words/words-zh-hant.js';

const web = (path) => readFileSync(new URL(`../../web/${path}`, import.meta.url), 'utf8');

test('index.html loads the bundle as its one module script', () => {
  const modules = [...web('index.html').matchAll(/<script type="module" src="([^"]+)"/g)].map((m) => m[1]);
  assert.deepEqual(modules, ['generated/app.js']);
});

test('the bundle opens with the compile hint, as its very first line', () => {
  const [first, second] = web('generated/app.js').split('\n', 2);
  assert.equal(first, '//# allFunctionsCalledOnLoad');
  assert.match(second, /^(var|import|const|let|function)\b/, 'the code itself follows');
});

test('the first load is the bundle alone: the tour, Your turn, the exports, the SCORM and cmi5 adapters, the Chinese words (simplified and traditional), the training lab and every experiment are chunks it loads when they are used', () => {
  const app = web('generated/app.js');
  const statics = [...app.matchAll(/\bimport\s*\{[^}]*\}\s*from\s*"([^"]+)"/g)].map((m) => m[1]);
  assert.deepEqual(statics, [], 'no chunk on the first load, the API bundled in');
  const dynamic = [...new Set([...app.matchAll(/\bimport\("\.\/(chunk-[\w-]+)-[A-Z0-9]+\.js"\)/g)].map((m) => m[1]))].sort();
  assert.deepEqual(dynamic, ['chunk-after-wasm', 'chunk-classic-views', 'chunk-cmi5', 'chunk-code-view', 'chunk-exercise-panel', 'chunk-exports', 'chunk-geometry-view', 'chunk-host-messages', 'chunk-lens-view', 'chunk-models-wasm', 'chunk-rollout-view', 'chunk-scorm', 'chunk-shared-qk-view', 'chunk-tiles-view', 'chunk-tour', 'chunk-training-lab', 'chunk-what-if-view', 'chunk-words-zh', 'chunk-words-zh-hant']);
  // The training lab's API stays a module beside its worker; the trainer's wasm is the worker's to load.
  const training = readdirSync(new URL('../../web/generated/', import.meta.url)).find((f) => /^chunk-training-lab-.*\.js$/.test(f));
  assert.ok(!app.includes('attention-lab-trainer'));
  assert.match(web(`generated/${training}`), /Train a small model/);
  for (const words of ['dominant-baseline', 'begin{bmatrix}', 'Predict first', 'Compute the score of {q}', 'the “online softmax”', 'Attention rollout (Abnar', 'the “logit lens” (nostalgebraist', 'Why are queries and keys two matrices', EXPERIMENTS_EN['experiment.variance.explain'], EXPERIMENTS_EN['experiment.textbook.explain'], STRINGS_ZH['page.title'], HEADS_ZH['heads.title'], WORDS_ZH_HANT['page.title'], PRESETS_ZH_HANT[0]]) {
    assert.ok(!app.includes(words), `${words} is in a chunk, not in the bundle`);
  }
});

// The Code switch in Chromium: under each step the article's PyTorch and the core's C++ (its
// own source, taken at build time), with this run's shapes and first values from the core;
// kept in the link, in both languages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { loadAttentionLab } from 'attention-lab';
import { fmt } from '../../web/app/ui/format.js';
import { CORE_CODE } from '../../web/generated/code/stages.js';
import { useServedChromium, waitForParam } from './chromium.mjs';
import { openPage, shownHead } from './page-helpers.mjs';

const env = useServedChromium(fileURLToPath(new URL('../../web/', import.meta.url)));
const core = await loadAttentionLab();

const open = (query) => openPage(env, query);

test('the Code switch: the softmax step’s PyTorch and C++, the run’s shape and first values; each step its own; in the link', { timeout: 60_000 }, async () => {
  const { page, context, problems } = await open('?step=softmax&t=2');
  assert.equal(await page.isHidden('#step-code'), true);
  await page.click('#code-toggle');
  await page.waitForSelector('#step-code pre.cpp');
  await waitForParam(page, 'code', '1');
  assert.equal(await page.getAttribute('#code-toggle', 'aria-pressed'), 'true');
  assert.match(await page.textContent('#step-code pre.python'), /^attention_weights = torch\.softmax\(scores, dim=-1\)/);
  assert.deepEqual(await page.$$eval('#step-code pre.cpp', (pres) => pres.map((p) => [p.dataset.function, p.textContent])),
    [['softmax_rows', CORE_CODE.softmax_rows.source], ['softmax_rows_in_place', CORE_CODE.softmax_rows_in_place.source]]);
  const where = await shownHead(page);
  const trace = core.run('我喜欢人工智能');
  const weights = trace.stage('weights', where);
  const scores = trace.stage('scores', where);
  trace.dispose();
  const first = (m) => `${Array.from(m.data.subarray(2 * m.cols, 2 * m.cols + 4), (v) => fmt(v, 3)).join(', ')}, …`;
  assert.equal(await page.textContent('#step-code li[data-stage="weights"]'), `weights: 9 × 9; row 2 (喜) begins ${first(weights)}`);
  // Another step, its own code; a step the article has no code for says so.
  await page.click('#next'); // ×V
  await page.waitForSelector('#step-code pre[data-function="weighted_sum"]');
  await page.goto(`${env.origin}/?step=scores&t=2&code=1`);
  await page.waitForSelector('#step-code pre[data-function="attention_scores"]');
  assert.equal(await page.textContent('#step-code li[data-stage="scores"]'), `scores: 9 × 9; row 2 (喜) begins ${first(scores)}`);
  // The seeded head: no Heads → W_O step's layer stages to show, and the plain tokenizer.
  await page.goto(`${env.origin}/?step=tokens&code=1&model=random`);
  await page.waitForSelector('#step-code .note >> text=tokenize (cpp/src/tokenizer.cpp)');
  await page.goto(`${env.origin}/?step=tokens&code=1&lang=zh`);
  await page.waitForSelector('#step-code .note >> text=文章没有给出这一步的代码。');
  assert.equal(await page.textContent('#code-toggle'), '代码');
  await page.click('#code-toggle');
  await page.waitForFunction(() => !new URL(location.href).searchParams.has('code'));
  assert.equal(await page.isHidden('#step-code'), true);
  assert.deepEqual(problems, []);
  await context.close();
});

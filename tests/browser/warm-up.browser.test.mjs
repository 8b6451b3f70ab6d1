// The warm-up (web/app/shell/warm-up.js) in real Chromium: once the first view is
// painted, the other stages are drawn once out of sight and thrown away, the
// page left as it was; the two stages Next leads to right after the first
// paints even when the browser grants no idle time, the rest in idle periods;
// a long sentence is not warmed up; a click stops it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { useServedChromium, watchProblems } from './chromium.mjs';
import { openPage } from './page-helpers.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const env = useServedChromium(`${ROOT}web`);

const open = (query) => openPage(env, query);
const rendered = (page, stage) => page.waitForSelector(`body[data-step="${stage}"][data-rendered]`, { state: 'attached' });

test('after the first render the other stages are drawn once out of sight, leaving the page as it was', async () => {
  const { page, context, problems } = await open('');
  const before = await page.$eval('#step-body', (e) => e.innerHTML);
  await page.waitForSelector('body[data-warm-up="done"]', { state: 'attached', timeout: 15_000 });
  assert.equal(await page.$$eval('.warm-up', (els) => els.length), 0);
  assert.equal(await page.$eval('body', (b) => b.dataset.step), 'tokens');
  assert.equal(await page.$eval('#step-body', (e) => e.innerHTML), before);
  await page.click('#next');
  await rendered(page, 'embedding');
  assert.deepEqual(problems, []);
  await context.close();
  // From a stage in the middle, the stages on both sides are drawn; the page keeps its own.
  const middle = await open('?step=softmax');
  const shown = await middle.page.$eval('#step-body', (e) => e.innerHTML);
  await middle.page.waitForSelector('body[data-warm-up="done"]', { state: 'attached', timeout: 15_000 });
  assert.equal(await middle.page.$eval('body', (b) => b.dataset.step), 'softmax');
  assert.equal(await middle.page.$eval('#step-body', (e) => e.innerHTML), shown);
  assert.deepEqual(middle.problems, []);
  await middle.context.close();
  // A long sentence is not warmed up (its drawings would not fit in idle time).
  const long = await open(`?s=${encodeURIComponent('字'.repeat(80))}`);
  await long.page.waitForTimeout(1000);
  assert.equal(await long.page.$eval('body', (b) => b.dataset.warmUp ?? 'none'), 'none');
  await long.context.close();
});

test('the two stages Next leads to are drawn out of sight right after the first paint, even with no idle time', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
  await context.addInitScript(() => {
    window.requestIdleCallback = () => 0; // a browser that grants no idle period
    window.warmed = []; // per warm-up drawing: the matrices (data-stage) it holds
    new MutationObserver((records) => {
      for (const r of records) {
        if (!r.target.classList?.contains('warm-up')) continue;
        for (const sheet of r.addedNodes) {
          window.warmed.push([...new Set([...sheet.querySelectorAll('[data-stage]')].map((e) => e.dataset.stage))].sort());
        }
      }
    }).observe(document, { childList: true, subtree: true });
  });
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(`${env.origin}/?step=tokens`);
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached', timeout: 20_000 });
  await page.waitForFunction(() => window.warmed.length >= 2, null, { timeout: 10_000 });
  await page.waitForTimeout(500);
  // Embedding + position (embeddings, positional, x), then Q, K, V; nothing more without idle time.
  assert.deepEqual(await page.evaluate(() => window.warmed), [['embeddings', 'positional', 'x'], ['k', 'q', 'v', 'x']]);
  assert.equal(await page.$eval('body', (b) => b.dataset.warmUp), 'running');
  assert.equal(await page.$$eval('.warm-up', (els) => els.length), 0);
  await page.click('#next');
  await rendered(page, 'embedding');
  assert.equal(await page.$eval('body', (b) => b.dataset.warmUp), 'stopped');
  assert.deepEqual(problems, []);
  await context.close();
});

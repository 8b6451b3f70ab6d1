// The JS API in real Chromium: as an ES module on a page served with the strict
// CSP (no 'unsafe-eval'), and as the offline single script over file:// with
// the network blocked. Any console error fails the test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { STRICT_CSP } from '../../scripts/serve.mjs';
import { useServedChromium, watchProblems } from './chromium.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const env = useServedChromium(ROOT);

async function resultOf(page) {
  await page.waitForSelector('body[data-status]', { state: 'attached', timeout: 20_000 });
  const status = await page.getAttribute('body', 'data-status');
  const result = await page.getAttribute('body', 'data-result');
  assert.equal(status, 'done', result);
  return JSON.parse(result);
}

function checkCommon(result) {
  assert.deepEqual(result.tokens, ['[CLS]', '我', '喜', '欢', '人', '工', '智', '能', '[SEP]']);
  assert.deepEqual(result.weightsShape, [9, 9]);
  for (const sum of result.rowSums) assert.ok(Math.abs(sum - 1) < 1e-6);
  assert.equal(result.outputLength, 9 * 64);
  assert.deepEqual(result.error?.isLabError, true);
  assert.equal(result.error.code, 'empty_text');
  assert.ok(Math.abs(result.sum - 42.7354) < 1e-3);
  assert.deepEqual(result.probs.map((p) => Math.round(p * 100) / 100),
    [0.16, 0.40, 0.23, 0.03, 0.03, 0.03, 0.03, 0.05, 0.04]);
}

test('ES module on a page served with script-src \'self\' \'wasm-unsafe-eval\'', async () => {
  const page = await env.browser.newPage();
  const problems = watchProblems(page);
  const response = await page.goto(`${env.origin}/tests/browser/fixtures/csp.html`);
  assert.equal(response.headers()['content-security-policy'], STRICT_CSP);
  assert.doesNotMatch(STRICT_CSP, /'unsafe-eval'/);
  const result = await resultOf(page);
  checkCommon(result);
  assert.deepEqual(result.stageNames.length, 17);
  assert.deepEqual(result.globals, [], 'the ES module defines no globals');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a server that sends the wasm with the wrong type still works (compiled from bytes)', async () => {
  const context = await env.browser.newContext();
  let served = 0;
  await context.route('**/attention-lab-core.wasm', async (route) => {
    const response = await route.fetch();
    served += 1;
    await route.fulfill({ response, headers: { ...response.headers(), 'content-type': 'application/octet-stream' } });
  });
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(`${env.origin}/tests/browser/fixtures/csp.html`);
  checkCommon(await resultOf(page));
  assert.equal(served, 1);
  assert.deepEqual(problems, []);
  await context.close();
});

test('offline single script from file:// with the network blocked', async () => {
  const context = await env.browser.newContext();
  const requests = [];
  await context.route(/^(https?|wss?):/, (route) => {
    requests.push(route.request().url());
    return route.abort();
  });
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(pathToFileURL(`${ROOT}tests/browser/fixtures/single.html`).href);
  const result = await resultOf(page);
  checkCommon(result);
  assert.deepEqual(result.globals, ['AttentionLab'], 'only window.AttentionLab is defined');
  assert.deepEqual(requests, [], 'no network request at all');
  assert.deepEqual(problems, []);
  await context.close();
});

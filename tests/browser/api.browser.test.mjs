// The JS API in real Chromium: as an ES module on a page served with the strict
// CSP (no 'unsafe-eval'), and as the offline single script over file:// with
// the network blocked. Any console error fails the test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadAttentionLab } from 'attention-lab';
import { STRICT_CSP } from '../../scripts/serve.mjs';
import { useServedChromium, watchProblems } from './chromium.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const env = useServedChromium(ROOT);
const core = await loadAttentionLab();

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
  // The trained model loaded in the browser gives Node's numbers.
  const trace = core.run('我喜欢人工智能');
  assert.deepEqual(result.model.models, ['trained', 'random']);
  assert.equal(result.model.modelError, null);
  assert.equal(result.model.config, 'trained');
  assert.deepEqual(result.model.ids, Array.from(trace.ids));
  assert.deepEqual(result.model.weights, Array.from(trace.stage('weights', { layer: 0, head: 1 }).data));
  assert.deepEqual(result.model.report, JSON.parse(JSON.stringify(trace.headReport({ layer: 0, head: 1 }))));
  assert.deepEqual(result.model.guesses, JSON.parse(JSON.stringify(core.predictMasked('我喜[MASK]人工智能', { topK: 3 }))));
  trace.dispose();
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

test('a damaged or missing model file: the page still opens on the random model, and the API says why', async () => {
  for (const fulfil of [
    (route) => route.fulfill({ status: 200, contentType: 'application/octet-stream', body: Buffer.from('ALMODEL1 cut short') }),
    (route) => route.fulfill({ status: 404, body: 'not found' }),
  ]) {
    const context = await env.browser.newContext();
    await context.route('**/models/trained.almodel', fulfil);
    const page = await context.newPage();
    const problems = watchProblems(page);
    await page.goto(`${env.origin}/web/index.html`);
    await page.waitForSelector('body[data-ready="true"]', { state: 'attached', timeout: 20_000 });
    assert.equal(await page.getAttribute('body', 'data-models'), 'random');
    assert.equal(await page.locator('#token-chips .chip').count(), 9);
    assert.deepEqual(problems.filter((p) => !/status of 404/.test(p)), [], 'nothing but the missing file itself');
    await page.goto(`${env.origin}/tests/browser/fixtures/csp.html`);
    await page.waitForSelector('body[data-status]', { state: 'attached', timeout: 20_000 });
    assert.match(await page.getAttribute('body', 'data-result'), /trained model is not available \((the model file is damaged|could not read the trained model's file)/);
    await context.close();
  }
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

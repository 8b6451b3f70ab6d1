// A Hugging Face BERT checkpoint opened through the API in the three engines learners use
// (Chromium, Firefox ESR, WebKitGTK), where memory is tightest: its files fetched as Blobs and read
// a chunk at a time, every number the page's core computed equal to Node's (the same wasm), which
// tests/js/bert.test.mjs holds to the float64 reference; a damaged file named, nothing left behind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAttentionLab } from 'attention-lab';
import { startServer } from '../../scripts/serve.mjs';
import { launchChromium, watchProblems } from './chromium.mjs';
import { openFirefox, openWebKit } from './engines.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
const DIR = 'build/bert-fixtures/browser';
const SENTENCE = '我喜欢人工[MASK]能';

async function openChromium() {
  const browser = await launchChromium();
  const page = await browser.newPage();
  const problems = watchProblems(page);
  return {
    name: 'chromium',
    goto: (url) => page.goto(url),
    evaluate: (source, ...args) => page.evaluate(`(${source})(...${JSON.stringify(args)})`),
    problems: async () => [...problems],
    close: () => browser.close(),
  };
}

// In the page: waits for the fixture's result.
function resultOf() {
  return new Promise((resolve) => {
    const poll = () => (document.body?.dataset.status
      ? resolve({ status: document.body.dataset.status, result: document.body.dataset.result })
      : setTimeout(poll, 50));
    poll();
  });
}

test('a BERT checkpoint opened through the API in Chromium, Firefox and WebKit: the core\'s numbers, as in Node', { timeout: 600_000 }, async (t) => {
  const dir = join(ROOT, DIR);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execFileSync(PYTHON, [join(ROOT, 'tests/bert/reference.py'), 'make', dir, '--preset', 'small', '--seed', '11']);
  const core = await loadAttentionLab();
  const bytes = (name) => new Uint8Array(readFileSync(join(dir, name)));
  const info = await core.loadModel('bert', { 'config.json': bytes('config.json'), 'vocab.txt': bytes('vocab.txt'), 'model.safetensors': bytes('model.safetensors') });
  const trace = core.run(SENTENCE, { model: 'bert' });
  const last = info.layers - 1;
  const expected = {
    ids: Array.from(trace.ids),
    weights: Array.from(trace.stage('weights', { layer: last, head: info.heads - 1 }).data),
    hidden: Array.from(trace.stage('layerOutput', { layer: last }).data),
    guesses: JSON.parse(JSON.stringify(core.predictMasked(SENTENCE, { model: 'bert', wordsOnly: false }))),
  };
  trace.dispose();
  const server = await startServer({ root: ROOT, port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${server.address().port}/tests/browser/fixtures/checkpoint.html?dir=/${DIR}`;
  try {
    for (const open of [openChromium, openFirefox, openWebKit]) {
      await t.test(open.name.replace('open', ''), async () => {
        const driver = await open();
        try {
          await driver.goto(url);
          const { status, result } = await driver.evaluate(resultOf);
          assert.equal(status, 'done', result);
          const got = JSON.parse(result);
          assert.deepEqual(got.info, { layers: 3, heads: 4, dModel: 64, architecture: 'bert' });
          assert.deepEqual(got.ids, expected.ids);
          assert.deepEqual(got.weights, expected.weights, 'the last layer\'s last head, as Node computes it');
          assert.deepEqual(got.hidden, expected.hidden, 'the last hidden rows, as Node computes them');
          assert.deepEqual(got.guesses, expected.guesses);
          assert.equal(got.damaged?.code, 'model_truncated');
          assert.deepEqual(got.models, ['trained', 'random']);
          assert.ok(got.heapGrowth > 0);
          assert.deepEqual(await driver.problems(), [], `${driver.name}: no page error, the console clean`);
        } finally {
          await driver.close();
        }
      });
    }
  } finally {
    server.close();
  }
});

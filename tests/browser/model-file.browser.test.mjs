// Model files a learner loads on the page: a model of two layers gets its own
// heads and a layer picker, a damaged file is refused, and knock-outs belong to
// the model they were made on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadAttentionLab } from 'attention-lab';
import { share } from '../../web/app/ui/format.js';
import { useServedChromium } from './chromium.mjs';
import { cells, openPage, rendered, shownHead } from './page-helpers.mjs';

const WEB = fileURLToPath(new URL('../../web/', import.meta.url));
const SENTENCE = '我喜欢人工智能';
const core = await loadAttentionLab();
const env = useServedChromium(WEB);
const at = (m, i, j) => m.data[i * m.cols + j];

// A model of two layers for the layer picker: the fuzz corpus's small model
// (one layer of two heads) with its layer's blocks written twice (the file
// format: cpp/include/attention/model_file.hpp; blocks: tok, ln0 gain and
// bias, each layer's 16, the decoder bias), its checksum made again.
function twoLayers(one) {
  const view = new DataView(one.buffer, one.byteOffset, one.byteLength);
  let at = 8 + 5 * 4;
  at += 4 + view.getUint32(at, true); // the vocabulary
  const blocks = [];
  while (at < one.length - 4) {
    const rows = view.getUint32(at, true);
    const cols = view.getUint32(at + 4, true);
    const kind = one[at + 8];
    const size = 9 + (kind === 0 ? rows * cols * 4 : rows * (4 + cols));
    blocks.push(one.subarray(at, at + size));
    at += size;
  }
  const head = Uint8Array.from(one.subarray(0, blocks[0].byteOffset - one.byteOffset));
  new DataView(head.buffer).setUint32(8 + 16, 2, true); // layers
  const body = [head, ...blocks.slice(0, 3), ...blocks.slice(3, 19), ...blocks.slice(3, 19), ...blocks.slice(19)];
  const out = new Uint8Array(body.reduce((n, b) => n + b.length, 0) + 4);
  let k = 0;
  for (const b of body) { out.set(b, k); k += b.length; }
  let hash = 2166136261;
  for (let i = 0; i < k; i += 1) hash = Math.imul(hash ^ out[i], 16777619) >>> 0;
  new DataView(out.buffer).setUint32(k, hash, true);
  return out;
}

test('a model file the learner loads: its own heads, a layer picker for its two layers; a damaged file is refused', async () => {
  const one = new Uint8Array(readFileSync(new URL('../fuzz/corpus/model-small-2a317f64', import.meta.url)));
  const bytes = twoLayers(one);
  const info = core.loadModel('two', bytes);
  assert.equal(info.layers, 2);
  const { page, context, problems } = await openPage(env, `?step=softmax&s=${encodeURIComponent('hello world')}`);
  await page.setInputFiles('#opt-model-file', { name: 'two.almodel', mimeType: 'application/octet-stream', buffer: Buffer.from(bytes) });
  await page.waitForFunction(() => document.getElementById('opt-model').value === 'two');
  assert.match(await page.$eval('#opt-model option:checked', (o) => o.textContent), /two \(layers 2, heads 2/);
  await page.waitForSelector('.heads .layer-picker');
  await page.selectOption('.heads .layer-picker', '1');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('layer') === '1');
  const trace = core.run('hello world', { model: 'two' });
  const shares = await page.$$eval('.head-card[data-head="1"] .share-value', (els) => els.map((e) => e.textContent));
  const report = trace.headReport({ layer: 1, head: 1 });
  assert.deepEqual(shares, ['self', 'previous', 'next', 'special', 'same'].map((k) => share(report.shares[k])));
  const w = trace.stage('weights', { layer: 1, head: 1 });
  await page.click('.head-thumb[data-head="1"]');
  await rendered(page, 'softmax');
  for (const c of await cells(page, 'weights')) assert.equal(c.value, at(w, c.i, c.j));
  // A damaged file: a clear message, and the model shown stays.
  const damaged = Uint8Array.from(bytes);
  damaged[40] ^= 0xff;
  await page.setInputFiles('#opt-model-file', { name: 'broken.almodel', mimeType: 'application/octet-stream', buffer: Buffer.from(damaged) });
  await page.waitForSelector('#input-message:not([hidden])');
  assert.match(await page.textContent('#input-message'), /That model file cannot be loaded: .*checksum/);
  assert.equal(await page.$eval('#opt-model', (s) => s.value), 'two');
  // Its embedding is not factorised: one definition of x, LayerNorm(embedding + position), after the rows.
  await page.click('#step-rail button[data-step="embedding"]');
  await rendered(page, 'embedding');
  const said = await page.textContent('#step-explain');
  assert.ok(said.startsWith(`Each token id picks its own row of ${info.dModel} numbers, its embedding`) && !said.includes('ALBERT'), said);
  assert.equal(said.match(/x = /g).length, 1, said);
  assert.match(said, /x = LayerNorm\(embedding \+ position\)/);
  trace.dispose();
  assert.deepEqual(problems, []);
  await context.close();
});

test('knock-outs belong to their model: a one-layer model opened after knocking out a layer-2 head runs, and the trained model comes back whole', async () => {
  const one = new Uint8Array(readFileSync(new URL('../fuzz/corpus/model-small-2a317f64', import.meta.url)));
  assert.equal(core.loadModel('one', one).layers, 1);
  const { page, context, problems } = await openPage(env, '?step=softmax&layer=1&head=0');
  await page.check('.head-card[data-head="1"] input[role="switch"]');
  await page.waitForSelector('.head-card[data-head="1"].knocked-out');
  await page.setInputFiles('#opt-model-file', { name: 'one.almodel', mimeType: 'application/octet-stream', buffer: Buffer.from(one) });
  await page.waitForFunction(() => document.getElementById('opt-model').value === 'one' || !document.getElementById('input-message').hidden);
  assert.equal(await page.$eval('#input-message', (m) => (m.hidden ? '' : m.textContent)), '');
  assert.equal(await page.$$eval('.head-card.knocked-out', (els) => els.length), 0);
  // Back to the trained model: its knock-out went with the switch of model.
  await page.selectOption('#opt-model', 'trained');
  await page.waitForSelector('.head-card');
  assert.equal(await page.$$eval('.head-card.knocked-out', (els) => els.length), 0);
  const run = core.run(SENTENCE);
  const weights = run.stage('weights', await shownHead(page));
  for (const c of await cells(page, 'weights')) assert.equal(c.value, at(weights, c.i, c.j));
  run.dispose();
  assert.deepEqual(problems, []);
  await context.close();
});

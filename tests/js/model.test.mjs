// The trained model through the API (issue: attention that means something,
// 1/2): the default model, every head's stages, the layer's stages, report
// cards, knock-out, masked guesses, and the models list, in Node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadAttentionLab, AttentionLabError, TRAINED_MODEL } from 'attention-lab';
import createAttentionCore from '../../web/generated/attention-lab-core.js';
import { createCore } from '../../web/lib/core.js';

const core = await loadAttentionLab();
const MODEL_BYTES = new Uint8Array(readFileSync(new URL('../../web/models/trained.almodel', import.meta.url)));
const ARTICLE = '我喜欢人工智能';

function throwsLab(fn, code, part) {
  assert.throws(fn, (error) => {
    assert.ok(error instanceof AttentionLabError, `not an AttentionLabError: ${error}`);
    assert.equal(error.code, code);
    assert.match(error.message, part);
    return true;
  });
}

const close = (a, b, tolerance = 1e-5) => Math.abs(a - b) <= tolerance;
const columns = (m, from, count) => Array.from({ length: m.rows * count },
  (_, k) => m.data[Math.floor(k / count) * m.cols + from + (k % count)]);

test('models: the trained model first, then the seeded random one at BERT-base sizes', () => {
  assert.equal(core.modelError, null);
  assert.equal(TRAINED_MODEL, 'trained');
  const [trained, random] = core.models;
  assert.equal(core.models.length, 2);
  assert.deepEqual(Object.keys(trained), ['id', 'trained', 'layers', 'heads', 'dModel', 'dK', 'vocabSize', 'fixed']);
  // What each fixes: a trained model its sizes and switches, the seeded one its shape only.
  assert.deepEqual({ ...trained.fixed }, { layers: trained.layers, heads: trained.heads, vocabSize: trained.vocabSize,
    dModel: trained.dModel, dK: trained.dK, scale: true, causal: false, positional: true });
  assert.ok(Object.isFrozen(trained.fixed));
  assert.equal(trained.id, 'trained');
  assert.equal(trained.trained, true);
  assert.ok(trained.layers >= 1);
  assert.ok(trained.heads >= 2);
  assert.equal(trained.dModel, trained.heads * trained.dK);
  assert.ok(trained.vocabSize > 1000);
  assert.deepEqual({ ...random, fixed: { ...random.fixed } }, { id: 'random', trained: false, layers: 1, heads: 1, dModel: 768, dK: 64, vocabSize: 30522,
    fixed: { layers: 1, heads: 1, vocabSize: 30522 } });
  assert.deepEqual([...core.layerStageNames],
    ['x', 'concat', 'wo', 'bo', 'projected', 'residual', 'norm', 'ffHidden', 'ffOutput', 'ffResidual', 'output']);
});

test('run: the trained model by default, with its vocabulary ids and config', () => {
  const info = core.models[0];
  const trace = core.run(ARTICLE);
  assert.deepEqual([...trace.tokens], ['[CLS]', '我', '喜', '欢', '人', '工', '智', '能', '[SEP]']);
  assert.equal(trace.ids[0], 2);    // [CLS]: the vocabulary's line 2
  assert.equal(trace.ids[8], 3);    // [SEP]
  assert.ok([...trace.ids].every((id) => id >= 0 && id < info.vocabSize));
  assert.notEqual(trace.ids[2], 8896); // not the seeded model's hash id of 喜
  assert.deepEqual({ ...trace.config }, { model: 'trained', layers: info.layers, heads: info.heads, dModel: info.dModel,
    dK: info.dK, vocabSize: info.vocabSize, scale: true, causal: false, positional: true });
  assert.ok(close(trace.divisor, Math.sqrt(info.dK)));
  // The config runs the same again, for either model.
  const again = core.run(ARTICLE, trace.config);
  assert.deepEqual(again.stage('output').data, trace.stage('output').data);
  const random = core.run(ARTICLE, { model: 'random' });
  assert.deepEqual(core.run(ARTICLE, random.config).stage('weights').data, random.stage('weights').data);
  assert.deepEqual([...random.ids], [101, 9428, 8896, 3137, 10201, 23704, 29844, 10637, 102]);
  for (const t of [trace, again, random]) t.dispose();
});

test('run: a character the vocabulary lacks is [UNK]; [MASK] in any case is the mask token', () => {
  const trace = core.run('我喜欢🦜和[mask]');
  assert.deepEqual([...trace.tokens], ['[CLS]', '我', '喜', '欢', '[UNK]', '和', '[MASK]', '[SEP]']);
  assert.equal(trace.ids[4], 1);
  assert.equal(trace.ids[6], 4);
  trace.dispose();
});

test('stages: every head has its own q, k, v, scores, scaled, masked, weights and output', () => {
  const { heads, layers, dK, dModel } = core.models[0];
  const trace = core.run(ARTICLE);
  const n = trace.tokens.length;
  for (let layer = 0; layer < layers; layer += 1) {
    const concat = trace.stage('concat', { layer });
    assert.equal(concat.cols, dModel);
    const seen = new Set();
    for (let head = 0; head < heads; head += 1) {
      const where = { layer, head };
      for (const id of ['q', 'k', 'v', 'output']) assert.deepEqual([trace.stage(id, where).rows, trace.stage(id, where).cols], [n, dK]);
      for (const id of ['wq', 'wk', 'wv']) assert.deepEqual([trace.stage(id, where).rows, trace.stage(id, where).cols], [dModel, dK]);
      const weights = trace.stage('weights', where);
      assert.deepEqual([weights.rows, weights.cols], [n, n]);
      for (const sum of trace.rowSums('weights', where)) assert.ok(close(sum, 1, 1e-5));
      // scaled = scores / √d_k; the encoder masks nothing.
      const scores = trace.stage('scores', where), scaled = trace.stage('scaled', where);
      assert.ok(scores.data.every((s, k) => close(s / trace.divisor, scaled.data[k], 1e-4)));
      assert.deepEqual(trace.stage('masked', where).data, scaled.data);
      // The softmax row of a head is its weights row.
      const row = trace.softmaxRow(2, where);
      assert.ok([...row.probs].every((p, j) => close(p, weights.data[2 * n + j])));
      // The head's output sits in its columns of the concat.
      const output = trace.stage('output', where);
      assert.ok(columns(concat, head * dK, dK).every((c, k) => close(c, output.data[k], 1e-5)));
      seen.add(weights.data.join());
    }
    assert.equal(seen.size, heads, 'every head attends its own way');
    // The layer's stages chain.
    const x = trace.stage('x', { layer }), projected = trace.stage('projected', { layer });
    const residual = trace.stage('residual', { layer });
    assert.ok(residual.data.every((r, k) => close(r, x.data[k] + projected.data[k], 1e-4)));
    assert.equal(trace.stage('ffHidden', { layer }).rows, n);
    assert.equal(trace.stage('output', { layer }).cols, dModel);
    assert.deepEqual(trace.stage('x', { layer }).data, trace.stage('x', { layer, head: 1 }).data);
  }
  throwsLab(() => trace.stage('weights', { head: heads }), 'invalid_argument', new RegExp(`no head ${heads} in layer 0`));
  throwsLab(() => trace.stage('concat', { layer: layers }), 'invalid_argument', new RegExp(`no layer ${layers}`));
  throwsLab(() => trace.stage('weights', { head: 1.5 }), 'invalid_argument', /head must be an integer/);
  throwsLab(() => trace.stage('weights', 'head 1'), 'invalid_argument', /\{ layer, head \}/);
  throwsLab(() => trace.stage('logits'), 'unknown_stage', /unknown stage id "logits"/);
  trace.dispose();
  throwsLab(() => trace.stage('concat'), 'disposed', /disposed/);
});

test('headReport: shares of self, previous, next, [CLS]/[SEP] and same; a label where one dominates', () => {
  const trace = core.run(ARTICLE);
  const { layers, heads } = core.models[0];
  const labels = [];
  for (let layer = 0; layer < layers; layer += 1) {
    for (let head = 0; head < heads; head += 1) {
      const report = trace.headReport({ layer, head });
      assert.deepEqual(Object.keys(report.shares), ['self', 'previous', 'next', 'special', 'same']);
      const { self } = report.shares;
      assert.ok(Object.values(report.shares).every((share) => share >= 0 && share <= 1 + 1e-6));
      // self is the mean of the weights' diagonal over the real tokens.
      const w = trace.stage('weights', { layer, head });
      const diagonal = [1, 2, 3, 4, 5, 6, 7].map((i) => w.data[i * w.cols + i]);
      assert.ok(close(self, diagonal.reduce((a, b) => a + b) / 7, 1e-5));
      if (report.label !== null) {
        assert.ok(report.shares[report.label] >= 0.5, `${report.label} dominates`);
        labels.push(report.label);
      }
      assert.equal(report.knockedOut, false);
    }
  }
  assert.ok(labels.length >= 1, 'on the article sentence at least one head is labelled');
  const random = core.run(ARTICLE, { model: 'random' });
  assert.ok(random.headReport().shares.self > 0);
  throwsLab(() => random.headReport({ head: 1 }), 'invalid_argument', /random model has 1 layer of 1 head/);
  trace.dispose();
  random.dispose();
});

test('knockOut: the head\'s columns of the concat are zero, its weights stay, the prediction changes', () => {
  const plain = core.run(ARTICLE);
  const silenced = core.run(ARTICLE, { knockOut: [{ layer: 0, head: 1 }] });
  const { dK } = core.models[0];
  assert.deepEqual(silenced.knockOut, [{ layer: 0, head: 1 }]);
  assert.ok(columns(silenced.stage('concat'), dK, dK).every((c) => c === 0));
  assert.deepEqual(columns(silenced.stage('concat'), 0, dK), columns(plain.stage('concat'), 0, dK));
  assert.deepEqual(silenced.stage('weights', { head: 1 }).data, plain.stage('weights', { head: 1 }).data);
  assert.equal(silenced.headReport({ head: 1 }).knockedOut, true);
  assert.notDeepEqual(silenced.stage('output').data, plain.stage('output').data);
  const before = core.predictMasked('我喜[MASK]人工智能')[0];
  const after = core.predictMasked('我喜[MASK]人工智能', { knockOut: [{ layer: 0, head: 1 }] })[0];
  assert.notDeepEqual(after.map((g) => g.probability), before.map((g) => g.probability));
  throwsLab(() => core.run(ARTICLE, { knockOut: [{ layer: 0, head: 99 }] }), 'invalid_argument', /no head 99 in layer 0/);
  throwsLab(() => core.run(ARTICLE, { knockOut: [{ layer: 7, head: 0 }] }), 'invalid_argument', /no head 0 in layer 7/);
  throwsLab(() => core.run(ARTICLE, { knockOut: { layer: 0, head: 1 } }), 'invalid_option', /knockOut must be an array/);
  throwsLab(() => core.run(ARTICLE, { knockOut: [{ layer: 0, head: '1' }] }), 'invalid_argument', /head must be an integer/);
  throwsLab(() => core.run(ARTICLE, { model: 'random', knockOut: [{ layer: 0, head: 0 }] }), 'invalid_option', /knockOut needs a trained model/);
  throwsLab(() => core.predictMasked('[MASK]', { knockOut: [{ layer: 0, head: 99 }] }), 'invalid_argument', /no head 99/);
  plain.dispose();
  silenced.dispose();
});

test('options: a trained model fixes its sizes; unknown models are named', () => {
  throwsLab(() => core.run(ARTICLE, { dK: 64 }), 'invalid_option', /dK is fixed by the trained model "trained"/);
  throwsLab(() => core.run(ARTICLE, { causal: true }), 'invalid_option', /causal is fixed/);
  throwsLab(() => core.run(ARTICLE, { seed: 7 }), 'invalid_option', /seed applies to the random model/);
  throwsLab(() => core.run(ARTICLE, { model: 'gpt' }), 'unknown_model', /no model "gpt"; the models are trained, random/);
  throwsLab(() => core.run(ARTICLE, { model: 7 }), 'invalid_option', /model must be a model id/);
  throwsLab(() => core.run(ARTICLE, { model: 'random', layers: 2 }), 'invalid_option', /layers is fixed by the random model/);
});

test('predictMasked: one sorted list of guesses per [MASK], in both languages', () => {
  const [guesses] = core.predictMasked('我喜[MASK]人工智能');
  assert.equal(guesses.length, 5);
  assert.deepEqual(Object.keys(guesses[0]), ['token', 'probability']);
  for (let k = 1; k < 5; k += 1) assert.ok(guesses[k - 1].probability >= guesses[k].probability);
  assert.ok(guesses.reduce((s, g) => s + g.probability, 0) <= 1 + 1e-5);
  assert.ok(guesses.every((g) => typeof g.token === 'string' && g.probability > 0));
  const english = core.predictMasked('attention is all you [mask] .', { topK: 3 });
  assert.equal(english.length, 1);
  assert.equal(english[0].length, 3);
  const three = core.predictMasked('[MASK][MASK][MASK]', { topK: 1 });
  assert.equal(three.length, 3);
  assert.equal(core.predictMasked('我[MASK]', { topK: 50 })[0].length, 50);
  throwsLab(() => core.predictMasked('[MASK]'.repeat(600)), 'too_many_tokens', /602 tokens/);
  throwsLab(() => core.predictMasked('我喜欢'), 'invalid_argument', /no \[MASK\]/);
  throwsLab(() => core.predictMasked('[MASK]', { topK: 0 }), 'invalid_argument', /topK must be an integer from 1 to 50, got 0/);
  throwsLab(() => core.predictMasked('[MASK]', { topK: 51 }), 'invalid_argument', /got 51/);
  throwsLab(() => core.predictMasked('[MASK]', { topK: 2.5 }), 'invalid_argument', /topK must be an integer number/);
  throwsLab(() => core.predictMasked('[MASK]', { model: 'random' }), 'invalid_option', /random model has no prediction head/);
  throwsLab(() => core.predictMasked(7), 'invalid_argument', /sentence must be a string/);
});

test('loadModel: a damaged, cut or other-version file is refused with the reason; the models stay usable', () => {
  const flipped = MODEL_BYTES.slice();
  flipped[flipped.length >> 1] ^= 0x10;
  throwsLab(() => core.loadModel('trained', flipped), 'invalid_model', /checksum does not match/);
  throwsLab(() => core.loadModel('trained', MODEL_BYTES.slice(0, 1000)), 'invalid_model', /damaged or not a model/);
  const other = MODEL_BYTES.slice();
  other[7] = '2'.charCodeAt(0);
  throwsLab(() => core.loadModel('trained', other), 'invalid_model', /another version/);
  throwsLab(() => core.loadModel('trained', new Uint8Array(0)), 'invalid_model', /not start as an Attention Lab model/);
  throwsLab(() => core.loadModel('trained', [1, 2, 3]), 'invalid_argument', /Uint8Array/);
  throwsLab(() => core.loadModel('random', MODEL_BYTES), 'invalid_argument', /not "random"/);
  assert.equal(core.models.length, 2);
  const trace = core.run(ARTICLE);
  assert.equal(trace.tokens.length, 9);
  trace.dispose();
  // A second copy under its own id runs like the first.
  assert.equal(core.loadModel('copy', MODEL_BYTES).id, 'copy');
  assert.deepEqual(core.models.map((m) => m.id), ['trained', 'copy', 'random']);
  assert.deepEqual(core.predictMasked('我[MASK]', { model: 'copy' }), core.predictMasked('我[MASK]'));
});

test('a lab whose shipped model is damaged or missing says why, and the random model still works', async () => {
  const wasmBinary = readFileSync(new URL('../../web/generated/attention-lab-core.wasm', import.meta.url));
  for (const [given, reason] of [[MODEL_BYTES.slice(0, MODEL_BYTES.length - 9), /damaged/], [new Error('HTTP 404'), /HTTP 404/]]) {
    const fresh = createCore(await createAttentionCore({ wasmBinary }), given);
    assert.equal(fresh.modelError.code, 'invalid_model');
    assert.match(fresh.modelError.message, reason);
    assert.deepEqual(fresh.models.map((m) => m.id), ['random']);
    throwsLab(() => fresh.run(ARTICLE), 'unknown_model', /trained model is not available .*\{ model: 'random' \} still works/);
    const trace = fresh.run(ARTICLE, { model: 'random' });
    assert.equal(trace.ids[2], 8896);
    trace.dispose();
  }
});

test('memory: a trained trace and its head views are freed by dispose', () => {
  core.run(ARTICLE).dispose();
  const before = core.memoryUsage();
  for (let k = 0; k < 20; k += 1) {
    const trace = core.run(`${ARTICLE}${k}`);
    for (let head = 0; head < core.models[0].heads; head += 1) trace.stage('weights', { head });
    trace.headReport({ head: 0 });
    trace.dispose();
  }
  const after = core.memoryUsage();
  assert.equal(after.liveTraces, before.liveTraces);
  assert.equal(after.heapBytesInUse, before.heapBytesInUse);
});

test('predictMasked: characters and words only by default; wordsOnly: false lets punctuation in', () => {
  const isWord = (t) => /^[\p{L}\p{N}]/u.test(t);
  let filtered = 0;
  for (const text of ['生日快[MASK]', '老师在黑板上写[MASK]', '我喜欢人工智能[MASK]我也喜欢音乐', 'please enter your [MASK]', 'he is reading a [MASK]']) {
    const [words] = core.predictMasked(text, { topK: 50 });
    assert.ok(words.every((g) => isWord(g.token)), `${text}: ${words.map((g) => g.token).join(' ')}`);
    const [all] = core.predictMasked(text, { topK: 50, wordsOnly: false });
    filtered += all.some((g) => !isWord(g.token));
    // A filter, not another model: the words among every word start's guesses come first, with the same probabilities.
    const kept = all.filter((g) => isWord(g.token));
    assert.deepEqual(words.slice(0, kept.length), kept, text);
  }
  assert.ok(filtered > 0, 'punctuation among the 50 guesses of every word start for none of the texts');
  throwsLab(() => core.predictMasked('[MASK]', { wordsOnly: 'yes' }), 'invalid_argument', /wordsOnly must be true or false/);
});

test('articleHead: the core\'s rule, checked against the weights; the seeded model has one head', () => {
  const cases = [[ARTICLE, 2], [ARTICLE, 5], ['The animal didn\'t cross the street because it was too tired', 9],
    ...[1, 2, 3, 4, 5, 6, 7].map((token) => [ARTICLE, token, { model: 'random' }])]; // the seeded model: its one head, by the same rule
  let seededFound = 0;
  for (const [sentence, token, options] of cases) {
    const trace = core.run(sentence, options);
    if (options) seededFound += trace.articleHead(token).found ? 1 : 0;
    const chosen = trace.articleHead(token);
    const n = trace.tokens.length;
    const candidates = [];
    for (let layer = 0; layer < trace.config.layers; layer += 1) {
      for (let head = 0; head < trace.config.heads; head += 1) {
        const w = trace.stage('weights', { layer, head });
        const row = Array.from(w.data.subarray(token * n, (token + 1) * n));
        let top = -1;
        for (let j = 1; j < n - 1; j += 1) if (j !== token && (top < 0 || row[j] > row[top])) top = j;
        if (Math.abs(top - token) !== 1) continue;
        candidates.push({ layer, head, neighbour: top, weight: row[top], labelled: trace.headReport({ layer, head }).label !== null,
          spread: Math.max(...row) <= 0.9, next: top === token + 1 });
      }
    }
    const rank = (c) => [c.labelled ? 0 : 1, c.spread ? 0 : 1, c.next ? 0 : 1, -c.weight];
    candidates.sort((a, b) => { const [x, y] = [rank(a), rank(b)]; return x[0] - y[0] || x[1] - y[1] || x[2] - y[2] || x[3] - y[3]; });
    if (!candidates.length) {
      assert.deepEqual({ ...chosen }, { layer: 0, head: 0, found: false, neighbour: null, weight: 0, labelled: false, spread: false, next: false });
    } else {
      const best = candidates[0];
      assert.deepEqual([chosen.layer, chosen.head, chosen.neighbour, chosen.found], [best.layer, best.head, best.neighbour, true], sentence);
      assert.ok(close(chosen.weight, best.weight));
    }
    trace.dispose();
  }
  const trace = core.run(ARTICLE);
  throwsLab(() => trace.articleHead(9), 'invalid_argument', /no token 9/);
  throwsLab(() => trace.articleHead(-1), 'invalid_argument', /no token -1/);
  throwsLab(() => trace.articleHead(1.5), 'invalid_argument', /token must be an integer/);
  trace.dispose();
  assert.ok(seededFound >= 1, 'the seeded head looks at a neighbour first for some token');
});

test('tokenLink: the head that sends one token most to another, against the weights', () => {
  const trace = core.run('The animal didn\'t cross the street because it was too tired');
  const from = trace.tokens.indexOf('it');
  const to = trace.tokens.indexOf('animal');
  const link = trace.tokenLink(from, to);
  const n = trace.tokens.length;
  let most = -1;
  let peak = -1;
  for (let layer = 0; layer < trace.config.layers; layer += 1) {
    for (let head = 0; head < trace.config.heads; head += 1) {
      const w = trace.stage('weights', { layer, head }).data;
      most = Math.max(most, w[from * n + to]);
      for (let j = 1; j < n - 1; j += 1) if (j !== from) peak = Math.max(peak, w[from * n + j]);
    }
  }
  assert.ok(close(link.weight, most));
  assert.ok(close(link.peakWeight, peak));
  const w = trace.stage('weights', link.strongest).data;
  assert.ok(close(w[from * n + to], link.weight));
  assert.equal(trace.tokens[link.peakToken] !== undefined, true);
  throwsLab(() => trace.tokenLink(from, from), 'invalid_argument', /two different real tokens/);
  throwsLab(() => trace.tokenLink(0, to), 'invalid_argument', /two different real tokens/);
  trace.dispose();
  const random = core.run(ARTICLE, { model: 'random' });
  throwsLab(() => random.tokenLink(1, 2), 'invalid_argument', /random model has one head/);
  random.dispose();
});

// Every stage of the wasm core against an independent float64 computation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttentionLab } from 'attention-lab';
import { forward, maxAbsDiff, positional, toRows } from './oracle.mjs';

const core = await loadAttentionLab();

const CASES = [
  { sentence: '我喜欢人工智能', options: {} },
  { sentence: 'Attention is all you need!', options: { causal: true } },
  { sentence: '注意力 😀 scaling', options: { scale: false, dModel: 96, dK: 16, seed: 7 } },
  { sentence: '人工智能喜欢我', options: { positional: false, dModel: 33, dK: 5 } },
];

for (const { sentence, options } of CASES) {
  test(`float64 oracle agrees on "${sentence}" ${JSON.stringify(options)}`, () => {
    const trace = core.run(sentence, { model: 'random', ...options });
    const stage = (id) => toRows(trace.stage(id));
    const n = trace.tokens.length;
    const { dModel } = trace.config;

    const pe = trace.config.positional ? positional(n, dModel) : stage('positional').map((r) => r.map(() => 0));
    assert.ok(maxAbsDiff(stage('positional'), pe) < 1e-5, 'positional');
    const x = stage('embeddings').map((row, i) => row.map((v, j) => v + pe[i][j]));
    assert.ok(maxAbsDiff(stage('x'), x) < 1e-5, 'x');

    const expected = forward({
      x: stage('x'), wq: stage('wq'), wk: stage('wk'), wv: stage('wv'),
      bq: stage('bq'), bk: stage('bk'), bv: stage('bv'),
    }, trace.config);
    const tolerance = { q: 1e-4, k: 1e-4, v: 1e-4, scores: 2e-3, scaled: 2e-3, masked: 2e-3, weights: 1e-5, output: 1e-4 };
    for (const [id, tol] of Object.entries(tolerance)) {
      const diff = maxAbsDiff(stage(id), expected[id]);
      assert.ok(diff < tol, `${id}: max |wasm − float64| = ${diff}`);
    }
    if (trace.config.causal) {
      const w = stage('weights');
      for (let i = 0; i < n; i += 1) for (let j = i + 1; j < n; j += 1) assert.equal(w[i][j], 0);
    }
    trace.dispose();
  });
}

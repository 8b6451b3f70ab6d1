// The per-cell and per-row arithmetic the page shows, through the JS API.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttentionLab, AttentionLabError } from 'attention-lab';

const core = await loadAttentionLab();
const close = (a, b, tol = 1e-5) => assert.ok(Math.abs(a - b) <= tol, `${a} vs ${b}`);

test('stage() reports the finite min and max', () => {
  const t = core.run('我喜欢人工智能', { model: 'random', causal: true });
  const masked = t.stage('masked');
  const finite = Array.from(masked.data).filter(Number.isFinite);
  assert.equal(masked.min, Math.min(...finite));
  assert.equal(masked.max, Math.max(...finite));
  t.dispose();
});

test('softmaxRow(2) is the 喜 row of the trace through softmax', () => {
  const t = core.run('我喜欢人工智能', { model: 'random' });
  const r = t.softmaxRow(2);
  const w = t.stage('weights');
  const s = t.stage('scores');
  assert.equal(r.divisor, 8);
  for (let j = 0; j < 9; j += 1) {
    assert.equal(r.scores[j], s.data[2 * 9 + j]);
    assert.equal(r.probs[j], w.data[2 * 9 + j]);
    close(r.shares[j], r.probs[j]);
  }
  close(r.probSum, 1, 1e-6);
  assert.equal(t.divisor, 8);
  assert.equal(r.maxProb, Math.max(...w.data.subarray(2 * 9, 3 * 9)));
  assert.equal(r.probs[r.argmax], r.maxProb);
  assert.equal(r.jacobian, null);
  assert.equal(t.softmaxRow(2, { jacobian: true }).jacobian.rows, 9);
  assert.throws(() => t.softmaxRow(9), /row 9 is outside the trace's 9 tokens/);
  assert.throws(() => t.softmaxRow(2 ** 40), /outside the trace/);
  t.dispose();
});

test('dotTerms: products add up to the score and to the output element', () => {
  const t = core.run('我喜欢人工智能', { model: 'random' });
  const d = t.dotTerms('scores', 2, 3);
  assert.equal(d.products.length, 64);
  close(d.products.reduce((a, b) => a + b, 0), d.total, 1e-3);
  assert.equal(d.total, t.stage('scores').data[2 * 9 + 3]);
  const o = t.dotTerms('output', 2, 0);
  assert.equal(o.products.length, 9);
  close(o.products.reduce((a, b) => a + b, 0), o.total);
  assert.throws(() => t.dotTerms('weights', 0, 0), AttentionLabError);
  assert.throws(() => t.dotTerms('scores', 0, 1.5), /column must be an integer/);
  assert.throws(() => t.dotTerms('scores', 99, 0), /outside scores/);
  t.dispose();
});

test('weightedRows sum to the output row; rowSums; cosine', () => {
  const t = core.run('我喜欢人工智能', { model: 'random' });
  const rows = t.weightedRows(2);
  const out = t.stage('output');
  for (let j = 0; j < rows.cols; j += 1) {
    let sum = 0;
    for (let k = 0; k < rows.rows; k += 1) sum += rows.data[k * rows.cols + j];
    close(sum, out.data[2 * out.cols + j]);
  }
  for (const sum of t.rowSums('weights')) close(sum, 1, 1e-6);
  close(t.cosine('output', 2, 'output', 2), 1);
  const c = t.cosine('v', 2, 'output', 2);
  assert.ok(c > -1 && c < 1);
  assert.throws(() => t.cosine('x', 0, 'output', 0), /same length/);
  assert.throws(() => t.cosine('x', 9, 'x', 0), /outside x/);
  assert.throws(() => t.cosine('x', 2 ** 33 + 2, 'x', 0), /outside x/); // not wrapped round to row 2
  t.dispose();
  assert.throws(() => t.softmaxRow(0), /disposed/);
});

// Queries and keys as points through the API: trace.keyPlane (a head's keys in the plane of
// one query) and core.randomKeys (random vectors at a chosen d_k), in Node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttentionLab } from 'attention-lab';
import { throwsLab } from './lab-asserts.mjs';

const core = await loadAttentionLab();

test('keyPlane needs the after-the-article module; then x · |q| is each key’s score, the query on the x axis', async () => {
  const fresh = await loadAttentionLab();
  const early = fresh.run('我喜欢人工智能');
  throwsLab(() => early.keyPlane(2), 'not_loaded', /loadAfterArticle/);
  early.dispose();
  await core.loadAfterArticle();
  const trace = core.run('我喜欢人工智能');
  try {
    for (const where of [{ layer: 1, head: 3 }, { layer: 0, head: 1 }]) {
      const p = trace.keyPlane(2, where);
      const scores = trace.stage('scores', where);
      const n = trace.tokens.length;
      for (let j = 0; j < n; j += 1) {
        assert.ok(Math.abs(p.keyX[j] * p.queryNorm - scores.data[2 * n + j]) < 1e-3 * Math.max(1, Math.abs(scores.data[2 * n + j])), `key ${j}`);
        assert.ok(Math.abs(p.scores[j] - scores.data[2 * n + j]) < 1e-3 * Math.max(1, Math.abs(scores.data[2 * n + j])));
      }
      assert.ok(Math.abs(p.queryX[2] - p.queryNorm) < 1e-4 * p.queryNorm, 'the query lies on its own axis');
      assert.ok(Math.abs(p.queryY[2]) < 1e-4 * p.queryNorm);
      assert.ok(p.secondAxis);
      assert.ok(p.kept > 0 && p.kept < 1, `kept ${p.kept}: ${trace.config.dK} dimensions, two shown`);
    }
    throwsLab(() => trace.keyPlane(9), 'invalid_argument', /from 0 to 8, got 9/);
    throwsLab(() => trace.keyPlane(-1), 'invalid_argument', /from 0 to 8, got -1/);
  } finally {
    trace.dispose();
  }
});

test('randomKeys: lengths near √d_k, the scores’ spread growing with d_k and brought back by ÷√d_k', async () => {
  await core.loadAfterArticle();
  const small = core.randomKeys(1, { count: 16 }), large = core.randomKeys(512, { count: 16 });
  assert.equal(large.rootDk, Math.fround(Math.sqrt(512)));
  assert.ok(Math.abs(large.queryNorm / large.rootDk - 1) < 0.1);
  assert.ok(large.keyNorms.every((k) => Math.abs(k / large.rootDk - 1) < 0.2));
  assert.ok(large.scoreSd > 5 * small.scoreSd, `${large.scoreSd} against ${small.scoreSd}`);
  assert.ok(large.scaledSd < 2 && large.scaledSd > 0.4, `${large.scaledSd}`);
  assert.equal(small.plane.secondAxis, false, 'in one dimension every key lies on the query’s line');
  assert.deepEqual(core.randomKeys(64), core.randomKeys(64, { count: 24, seed: 1 }));
  throwsLab(() => core.randomKeys(0), 'invalid_argument', /1 ≤ d_k ≤ 512/);
  throwsLab(() => core.randomKeys(64, { count: 1 }), 'invalid_argument', /2 to 64 keys/);
  throwsLab(() => core.randomKeys(64, { seed: 0.5 }), 'invalid_argument', /seed must be an integer number/);
});

// After the article, in Node: the API of what the lab shows once the article
// is done (softmax tile by tile), against the core's own full computation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttentionLab } from 'attention-lab';
import { throwsLab } from './lab-asserts.mjs';

const core = await loadAttentionLab();

test('tiledRow: the blocks chain (m, ℓ, the accumulator) and end at the full row, for every block size', () => {
  const trace = core.run('我喜欢人工智能');
  const where = trace.articleHead(2);
  const head = { layer: where.layer, head: where.head };
  const output = trace.stage('output', head);
  for (let block = 1; block <= trace.tokens.length; block += 1) {
    const row = trace.tiledRow(2, { block, ...head });
    assert.equal(row.blocks.length, Math.ceil(9 / block));
    assert.deepEqual(Array.from(row.full), Array.from(output.data.slice(2 * output.cols, 3 * output.cols)), 'the full row is the head\'s output row');
    assert.ok(row.relativeDifference <= 1e-6, `B = ${block}: ${row.relativeDifference}`);
    row.blocks.forEach((b, k) => {
      const before = row.blocks[k - 1];
      assert.equal(b.maxBefore, before ? before.maxAfter : -Infinity);
      assert.equal(b.sumBefore, before ? before.sumAfter : 0);
      assert.deepEqual(Array.from(b.accBefore), before ? Array.from(before.accAfter) : Array(output.cols).fill(0));
      assert.equal(b.maxAfter, Math.max(b.maxBefore, ...b.scores));
      assert.equal(b.end - b.begin, b.scores.length);
    });
    const last = row.blocks.at(-1);
    assert.ok(Array.from(row.output).every((x, j) => Math.abs(x - last.accAfter[j] / last.sumAfter) <= 1e-6 * Math.abs(x) + 1e-9));
    const whole = trace.tiledAttention({ block, ...head });
    assert.deepEqual([whole.output.rows, whole.output.cols, whole.fullScores, whole.tiledScores], [9, output.cols, 81, 9 * block]);
    assert.ok(whole.relativeDifference <= 1e-6);
  }
  trace.dispose();
});

test('tiledRow on a causal row of the seeded head: the masked keys add nothing', () => {
  const trace = core.run('我喜欢人工智能', { model: 'random', causal: true });
  const row = trace.tiledRow(3, { block: 2 });
  const masked = row.blocks.filter((b) => b.begin > 3);
  assert.ok(masked.length > 0);
  for (const b of masked) {
    assert.equal(b.blockMax, -Infinity);
    assert.equal(b.rescale, 1);
    assert.deepEqual(Array.from(b.exps), Array(b.end - b.begin).fill(0));
    assert.equal(b.sumAfter, b.sumBefore);
  }
  assert.ok(row.relativeDifference <= 1e-6);
  trace.dispose();
});

test('tiledRow and tiledAttention refuse a block or row out of range, by name', () => {
  const trace = core.run('我喜欢');
  throwsLab(() => trace.tiledRow(1, { block: 0 }), 'invalid_argument', /block must be from 1 to the number of keys, 5, got 0/);
  throwsLab(() => trace.tiledRow(1, { block: 1.5 }), 'invalid_argument', /block must be an integer/);
  throwsLab(() => trace.tiledRow(7, { block: 2 }), 'invalid_argument', /row 7 is outside/);
  throwsLab(() => trace.tiledAttention({ block: 6 }), 'invalid_argument', /got 6/);
  throwsLab(() => trace.tiledAttention(), 'invalid_argument', /block must be an integer/);
  trace.dispose();
});

// core.whatIf and the override it runs: one head's row of weights changed by the learner,
// the model run again with it, and what moved, in Node against the shipped model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttentionLab } from 'attention-lab';
import { throwsLab } from './lab-asserts.mjs';

const core = await loadAttentionLab();
const HIDDEN = '我[MASK]欢人工智能'; // the article's sentence, 喜 hidden: token 2 is its [MASK], token 3 is 欢

// The head of `layer` whose row `row` gives key `key` the most weight, in a run of HIDDEN.
function headLookingAt(layer, row, key) {
  const run = core.run(HIDDEN);
  try {
    let best = { head: 0, weight: -1 };
    for (let head = 0; head < run.config.heads; head += 1) {
      const w = run.stage('weights', { layer, head });
      if (w.data[row * w.cols + key] > best.weight) best = { head, weight: w.data[row * w.cols + key] };
    }
    return best.head;
  } finally {
    run.dispose();
  }
}

test('whatIf needs the after-the-article module, and says so', async () => {
  const fresh = await loadAttentionLab();
  throwsLab(() => fresh.whatIf(HIDDEN, { layer: 1, head: 1, row: 2 }), 'not_loaded', /loadAfterArticle/);
  await core.loadAfterArticle();
});

test('hiding 欢 from the hidden 喜’s row in the layer-2 head that looks at it most (its next-token head) takes 喜 out of the model’s five guesses', async () => {
  await core.loadAfterArticle();
  const r = core.whatIf(HIDDEN, { layer: 1, head: headLookingAt(1, 2, 3), row: 2, edits: [{ key: 3, weight: 0 }] });
  // softmax's row looks at 欢 most; renormalised, the rest of the row shares that weight in proportion.
  assert.ok(r.weights.before[3] > 0.5, `the row's weight on 欢: ${r.weights.before[3]}`);
  assert.equal(r.weights.after[3], 0);
  assert.ok(Math.abs(r.weights.sum - 1) < 1e-5);
  const others = [0, 1, 2, 4, 5, 6, 7, 8];
  for (const j of others) assert.ok(Math.abs(r.weights.after[j] / r.weights.before[j] - 1 / (1 - r.weights.before[3])) < 1e-3);
  // Which way the guess went: 喜 was first, and is not among the five any more.
  const [mask] = r.masks;
  assert.equal(mask.index, 2);
  assert.equal(mask.before[0].token, '喜');
  assert.ok(!mask.after.some((g) => g.token === '喜'), mask.after.map((g) => g.token).join(' '));
  assert.deepEqual({ ...mask.shift, before: undefined }, { firstBefore: '喜', firstAfter: mask.after[0].token, sameFirst: false, before: undefined, after: -1, direction: 'gone' });
  // Every vector after the head moved, the head's output first.
  assert.deepEqual(r.stages.map((s) => [s.id, s.layer]), [['output', 1], ['projected', 1], ['layerOutput', 1]]);
  assert.ok(r.stages.every((s) => s.moved && s.distance > 0));
});

test('with the switch off, the head’s output row is the weighted sum of the unnormalised row', async () => {
  await core.loadAfterArticle();
  const head = headLookingAt(0, 2, 3); // a head whose row gives 欢 a share worth taking away
  const r = core.whatIf(HIDDEN, { layer: 0, head, row: 2, edits: [{ key: 3, weight: 0 }], renormalise: false });
  assert.ok(r.weights.sum < 0.99, `sum ${r.weights.sum}`);
  for (const j of [0, 1, 2, 4, 5, 6, 7, 8]) assert.equal(r.weights.after[j], r.weights.before[j]); // the others keep softmax's weights
  // The same row through run's override: output row 2 = Σ_j w_j · v_j.
  const run = core.run(HIDDEN, { override: { layer: 0, head, row: 2, weights: r.weights.after } });
  try {
    const [v, output, weights] = ['v', 'output', 'weights'].map((id) => run.stage(id, { layer: 0, head }));
    assert.deepEqual(Array.from(weights.data.slice(2 * weights.cols, 3 * weights.cols)), Array.from(r.weights.after));
    for (let c = 0; c < v.cols; c += 1) {
      let sum = 0;
      for (let j = 0; j < v.rows; j += 1) sum += r.weights.after[j] * v.data[j * v.cols + c];
      assert.ok(Math.abs(output.data[2 * output.cols + c] - sum) < 1e-4, `column ${c}: ${output.data[2 * output.cols + c]} against ${sum}`);
    }
  } finally {
    run.dispose();
  }
  // A change in layer 1 reaches layer 2: one stage more.
  assert.deepEqual(r.stages.map((s) => [s.id, s.layer]), [['output', 0], ['projected', 0], ['layerOutput', 0], ['layerOutput', 1]]);
});

test('softmax’s own row changes nothing; in the last layer another token’s [MASK] does not move', async () => {
  await core.loadAfterArticle();
  const same = core.whatIf(HIDDEN, { layer: 1, head: 3, row: 2 });
  assert.ok(same.stages.every((s) => !s.moved), JSON.stringify(same.stages));
  // Exactly: with no edit the row is softmax's own, not renormalised by its float sum.
  assert.ok(same.stages.every((s) => s.distance === 0 && s.after === s.before), JSON.stringify(same.stages));
  assert.equal(same.masks[0].shift.direction, 'same');
  const elsewhere = core.whatIf('我喜欢人工智[MASK]', { layer: 1, head: 1, row: 2, edits: [{ key: 1, weight: 1 }] });
  assert.ok(elsewhere.stages[0].moved);
  assert.equal(elsewhere.masks[0].moved.moved, false);
  assert.deepEqual(elsewhere.masks[0].after, elsewhere.masks[0].before);
  // No [MASK]: no guesses, the rows still compared.
  assert.equal(core.whatIf('我喜欢人工智能', { layer: 0, head: 0, row: 2, edits: [{ key: 1, weight: 0 }] }).masks.length, 0);
});

test('whatIf and the override refuse what does not fit, by name', async () => {
  await core.loadAfterArticle();
  throwsLab(() => core.whatIf(HIDDEN, { layer: 2, head: 0, row: 2 }), 'invalid_argument', /no head 0 in layer 2/);
  throwsLab(() => core.whatIf(HIDDEN, { layer: 0, head: 0, row: 9 }), 'invalid_argument', /from 0 to 8, got 9/);
  throwsLab(() => core.whatIf(HIDDEN, { layer: 0, head: 0, row: 2, edits: [{ key: 9, weight: 0 }] }), 'invalid_argument', /from 0 to 8, got 9/);
  throwsLab(() => core.whatIf(HIDDEN, { layer: 0, head: 0, row: 2, edits: [{ key: 1, weight: 2 }] }), 'invalid_argument', /from 0 to 1/);
  throwsLab(() => core.whatIf(HIDDEN, { layer: 0, head: 0, row: 2, edits: [{ key: 1, weight: '0' }] }), 'invalid_argument', /number from 0 to 1/);
  throwsLab(() => core.whatIf(HIDDEN, { layer: 0, head: 0, row: 2, edits: 'none' }), 'invalid_argument', /edits must be an array/);
  const all = Array.from({ length: 9 }, (_, key) => ({ key, weight: 0 }));
  throwsLab(() => core.whatIf(HIDDEN, { layer: 0, head: 0, row: 2, edits: all }), 'invalid_argument', /nothing to renormalise/);
  assert.equal(core.whatIf(HIDDEN, { layer: 0, head: 0, row: 2, edits: all, renormalise: false }).weights.sum, 0);
  throwsLab(() => core.whatIf(HIDDEN, { model: 'random', layer: 0, head: 0, row: 2 }), 'invalid_option', /needs a trained model/);
  throwsLab(() => core.run(HIDDEN, { model: 'random', override: { layer: 0, head: 0, row: 1, weights: [1] } }), 'invalid_option', /override needs a trained model/);
  const rule = /an overridden row must be a token's index, from 0 to 8, with one finite weight ≥ 0 per token/;
  throwsLab(() => core.run(HIDDEN, { override: { layer: 0, head: 0, row: 1, weights: [1, 0] } }), 'invalid_argument', rule);
  throwsLab(() => core.run(HIDDEN, { override: { layer: 0, head: 0, row: 1, weights: [-1, 0, 0, 0, 0, 0, 0, 0, 2] } }), 'invalid_argument', rule);
  throwsLab(() => core.run(HIDDEN, { override: 'row 1' }), 'invalid_option', /override must be \{ layer, head, row, weights \}/);
  throwsLab(() => core.predictMasked(HIDDEN, { override: { layer: 0, head: 0, row: 12, weights: new Float32Array(9) } }), 'invalid_argument', rule);
  assert.equal(core.memoryUsage().liveTraces, 0);
});

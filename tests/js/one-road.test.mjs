// What a view may hold (docs/architecture.md): its view context, which reads the run through run
// views and offers the core's computations on numbers, but holds neither the core nor a run, and
// starts no run of its own but through the lab's state (withRun), which frees it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLabState } from '../../web/app/shell/lab-state.js';
import { viewContext } from '../../web/app/steps/view-context.js';
import { loadAttentionLab } from '../../web/lib/attention-lab.js';

test('a view context holds no core and no run; other runs are the state\'s, freed after use', async () => {
  const core = await loadAttentionLab();
  const state = createLabState(9);
  state.useCore(core, 'trained');
  assert.equal(state.runSentence('我喜欢人工智能', state.modelOptions('trained')), null);
  const ctx = viewContext(state, { lang: 'en', t: (k) => k, errorText: String }, {});
  for (const held of ['core', 'run', 'headView', 'stage', 'stageOf', 'reportOf', 'rowOf', 'words']) assert.equal(held in ctx, false, held);
  assert.deepEqual(ctx.wordGroups, [], 'the learner\'s token groups: their own name (the translations are t)');
  for (const [name, value] of Object.entries(ctx)) {
    assert.notEqual(value, core, `${name} is the core`);
    assert.notEqual(value, state.run, `${name} is the run`);
  }
  assert.deepEqual(Object.keys(ctx.compute).sort(), ['compareRows', 'crossEntropyGradient', 'divideByMax', 'loadAfterArticle', 'predictMasked',
    'randomKeys', 'rankAnswers', 'sampleDotProducts', 'scalingEffect', 'softmaxRow', 'varianceGrowth', 'whatIf']);
  assert.equal(ctx.view, state.viewOf(state.where));
  assert.equal(ctx.viewOf, state.viewOf);
  const before = core.memoryUsage().liveTraces;
  let seen = null;
  const n = ctx.withRun('大家都喜欢音乐', state.options, (other) => {
    seen = other.viewOf({ layer: 0, head: 0 });
    assert.equal(core.memoryUsage().liveTraces, before + 1);
    return other.tokens.length;
  });
  assert.equal(n, 9);
  assert.equal(core.memoryUsage().liveTraces, before, 'the other run is freed once used');
  assert.equal(seen.disposed, true);
  assert.throws(() => ctx.withRun('我', state.options, () => { throw new Error('drawing failed'); }), /drawing failed/);
  assert.equal(core.memoryUsage().liveTraces, before, 'freed when its use throws too');
  // A new run: new views; the old ones answer with the trace's error.
  const old = ctx.view;
  old.stage('weights'); // kept while the run lives
  state.runSentence('我爱北京天安门', state.options);
  assert.notEqual(state.view, old);
  assert.throws(() => old.stage('weights'), { code: 'disposed' }, 'an ended run answers nothing, even what it kept');
  state.dispose();
});

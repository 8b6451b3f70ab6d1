// The training API (web/lib/training.js) in Node: the trainer's wasm on this
// thread. A run whose loss falls and repeats for a seed, pause/resume/stop,
// the model it exports opened by the core, and bad input named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { openTrainer, startTraining } from '../../web/lib/training.js';
import { loadAttentionLab } from '../../web/lib/attention-lab.js';

const LAB_TEXT = readFileSync(new URL('../../web/models/training-text.txt', import.meta.url), 'utf8');
const TINY = Object.freeze({ layers: 1, heads: 2, dModel: 16, steps: 40, lr: 0.01, seed: 3 });
// The training lab's tiny preset as docs/training.md gives it (its heads get a label by about step 2500).
const TINY_PRESET = Object.freeze({ layers: 1, heads: 2, dModel: 32, steps: 3000, lr: 0.01, initScale: 0.02 });

async function reportsOf(run) {
  const reports = [];
  for await (const report of run) reports.push(report);
  return reports;
}

const codeOf = async (promise) => {
  try {
    await promise;
  } catch (error) {
    return `${error.code}${error.params?.name ? `:${error.params.name}` : ''}`;
  }
  return 'none';
};

test('a run on the lab\'s text: its loss falls, every step reported in order, and a seed repeats it bit for bit', async () => {
  const run = await startTraining(LAB_TEXT, TINY, { sentence: '我喜欢人工智能', every: 10 });
  assert.equal(run.info.settings.steps, 40);
  assert.equal(run.info.settings.scaled, true, 'the default');
  assert.ok(run.info.trainTokens > 20000, `${run.info.trainTokens} tokens`);
  assert.ok(run.info.heldoutSentences >= 250);
  const reports = await reportsOf(run);
  assert.deepEqual(reports.map((r) => r.step), Array.from({ length: 40 }, (_, k) => k + 1));
  assert.equal(run.state, 'finished');
  assert.deepEqual(await run.done, { reason: 'finished', step: 40 });
  const heldout = reports.filter((r) => r.heldoutLoss !== undefined);
  assert.deepEqual(heldout.map((r) => r.step), [1, 10, 20, 30, 40]);
  assert.ok(heldout.at(-1).heldoutLoss < heldout[0].heldoutLoss - 0.5, `held-out loss ${heldout[0].heldoutLoss} → ${heldout.at(-1).heldoutLoss}`);
  for (const r of reports) {
    assert.ok(r.oneHotShare >= 0 && r.oneHotShare <= 1);
    assert.ok(r.entropy > 0 && r.entropy <= r.maxEntropy + 1e-9);
    assert.ok(r.gradWq > 0 && r.gradWk > 0, `step ${r.step}: ‖∂W_q‖ ${r.gradWq}, ‖∂W_k‖ ${r.gradWk}`);
    assert.ok(r.tokensPerSecond > 0);
    // The time left: the steps to go at the run's pace, none after the last.
    if (r.step < r.steps) assert.ok(r.msLeft > 0, `step ${r.step}: ${r.msLeft} ms left`);
    else assert.equal(r.msLeft, 0);
  }
  // The heads on the sentence come with the held-out loss.
  const { heads } = reports.at(-1);
  assert.equal(heads.layers.length, 1);
  assert.equal(heads.layers[0].length, 2);
  const n = heads.tokens.texts.length;
  assert.equal(heads.tokens.texts[0], '[CLS]');
  for (const head of heads.layers[0]) {
    assert.equal(head.weights.length, n * n);
    assert.ok(head.report.label === null || ['self', 'previous', 'next', 'special', 'same'].includes(head.report.label));
    assert.equal(head.argmax.length, n);
  }
  run.dispose();

  const again = await startTraining(LAB_TEXT, TINY, { every: 10 });
  const repeated = await reportsOf(again);
  assert.deepEqual(repeated.map((r) => r.loss), reports.map((r) => r.loss));
  assert.deepEqual(repeated.map((r) => r.gradWk), reports.map((r) => r.gradWk));
  again.dispose();
});

test('pause holds the run, resume goes on, stop ends it where it is; the model opens in the core', async () => {
  const run = await startTraining(LAB_TEXT, { ...TINY, steps: 500 }, { every: 50 });
  const seen = [];
  const pausedAt = new Promise((resolve) => {
    run.addEventListener('progress', (e) => {
      seen.push(e.detail.step);
      if (e.detail.step === 3) {
        run.pause();
        resolve();
      }
    });
  });
  await pausedAt;
  assert.equal(run.state, 'paused');
  // The loop runs a slice per turn of the event loop: many turns, and no step.
  const turns = async (n) => { for (let k = 0; k < n; k += 1) await new Promise(setImmediate); };
  await turns(50);
  assert.deepEqual(seen, [1, 2, 3], 'no step while paused');
  run.resume();
  await new Promise((resolve) => { run.addEventListener('progress', resolve, { once: true }); });
  assert.deepEqual(seen.slice(0, 4), [1, 2, 3, 4], 'steps again, from where it was');
  run.stop();
  const done = await run.done;
  assert.equal(done.reason, 'stopped');
  assert.ok(done.step < 500);
  assert.equal(run.state, 'stopped');

  const bytes = await run.exportModel();
  assert.ok(bytes instanceof Uint8Array && bytes.length > 1000);
  const core = await loadAttentionLab();
  core.loadModel('trained-here', bytes);
  const trace = core.run('我喜欢人工智能', { model: 'trained-here' });
  assert.equal(trace.config.heads, 2);
  assert.equal(trace.config.layers, 1);
  trace.dispose();
  const heads = await run.heads('The cat sat on the mat.');
  assert.equal(heads.tokens.texts.at(-1), '[SEP]');
  run.dispose();
  assert.equal(await codeOf(run.exportModel()), 'disposed', 'a disposed run says so');

  // Disposed under way: it ends as stopped, and its iterator ends.
  const busy = await startTraining(LAB_TEXT, { ...TINY, steps: 5000 });
  const steps = [];
  for await (const report of busy) {
    steps.push(report.step);
    if (report.step === 3) busy.dispose();
  }
  // The reports made before it was disposed, in order, and no more.
  assert.deepEqual(steps, Array.from({ length: steps.length }, (_, k) => k + 1));
  assert.ok(steps.length < 5000);
  assert.deepEqual(await busy.done, { reason: 'stopped', step: steps.at(-1) });
  assert.equal(busy.state, 'stopped');
});

test('follow(): the reports\' heads are of the sentence the learner now looks at, and say which', async () => {
  const run = await startTraining(LAB_TEXT, { ...TINY, steps: 60 }, { sentence: '我喜欢人工智能', every: 10 });
  const seen = [];
  run.addEventListener('progress', (e) => {
    if (e.detail.heads) seen.push({ step: e.detail.step, sentence: e.detail.sentence, tokens: e.detail.heads.tokens.texts.join(' ') });
    if (e.detail.step === 25) run.follow('The cat sat on the mat.');
    if (e.detail.step === 45) run.follow(null);
  });
  await run.done;
  assert.deepEqual(seen.map((r) => r.step), [1, 10, 20, 30, 40]);
  assert.deepEqual(seen.map((r) => r.sentence), ['我喜欢人工智能', '我喜欢人工智能', '我喜欢人工智能', 'The cat sat on the mat.', 'The cat sat on the mat.']);
  assert.equal(seen[0].tokens.split(' ').length, 9); // [CLS], seven characters (some [UNK] in a tiny vocabulary), [SEP]
  assert.match(seen.at(-1).tokens, /^\[CLS\] the c.* m.*\. \[SEP\]$/);
  assert.throws(() => run.follow(42), /sentence must be a string or null, got/);
  run.dispose();
});

test('without ÷√d_k: the rows it measures are more peaked, and it has no model file', async () => {
  const settings = { ...TINY, steps: 5, initScale: 1 };
  const withIt = await startTraining(LAB_TEXT, settings);
  const without = await startTraining(LAB_TEXT, { ...settings, scaled: false });
  const [a, b] = await Promise.all([reportsOf(withIt), reportsOf(without)]);
  assert.ok(b[0].oneHotShare > a[0].oneHotShare, `${b[0].oneHotShare} vs ${a[0].oneHotShare}`);
  assert.ok(b[0].entropy < a[0].entropy);
  assert.equal(await codeOf(without.exportModel()), 'invalid_argument');
  withIt.dispose();
  without.dispose();
});

test('one matrix for queries and keys: every score matrix symmetric, more weight kept on the token itself, the model file a model like any', async () => {
  const settings = { ...TINY, steps: 30 };
  const two = await startTraining(LAB_TEXT, settings, { sentence: '我喜欢人工智能', every: 30 });
  const one = await startTraining(LAB_TEXT, { ...settings, sharedQk: true }, { sentence: '我喜欢人工智能', every: 30 });
  assert.equal(one.info.settings.sharedQk, true);
  assert.equal(two.info.settings.sharedQk, false);
  const [a, b] = await Promise.all([reportsOf(two), reportsOf(one)]);
  for (const r of b) assert.ok(Math.abs(r.symmetricShare - 1) < 1e-6, `step ${r.step}: ${r.symmetricShare}`);
  assert.ok(a.every((r) => r.symmetricShare < 0.99));
  assert.ok(Math.abs(b.at(-1).gradWq - b.at(-1).gradWk) < 1e-6 * b.at(-1).gradWq, 'each copy gets the whole gradient');
  for (const head of b.at(-1).heads.layers[0]) assert.ok(Math.abs(head.symmetricShare - 1) < 1e-6);
  assert.ok(a.at(-1).heads.layers[0].every((head) => head.symmetricShare < 0.99));
  // Its file is an ordinary model whose W_k equals W_q: the core runs it, and its Q·Kᵀ is symmetric.
  const core = await loadAttentionLab();
  await core.loadAfterArticle();
  core.loadModel('shared-qk', await one.exportModel());
  const trace = core.run('我喜欢人工智能', { model: 'shared-qk' });
  assert.ok(Math.abs(trace.qkSymmetry({ layer: 0, head: 1 }).symmetricShare - 1) < 1e-6);
  trace.dispose();
  assert.equal(await codeOf(startTraining(LAB_TEXT, { sharedQk: 1 })), 'invalid_option:sharedQk');
  two.dispose();
  one.dispose();
});

test('bad input is named: the text, each setting, the options', async () => {
  assert.equal(await codeOf(startTraining(42)), 'invalid_argument');
  assert.equal(await codeOf(startTraining(LAB_TEXT, null)), 'invalid_option');
  assert.equal(await codeOf(startTraining(LAB_TEXT, { depth: 3 })), 'invalid_option:depth');
  assert.equal(await codeOf(startTraining(LAB_TEXT, { heads: '2' })), 'invalid_option:heads');
  assert.equal(await codeOf(startTraining(LAB_TEXT, { heads: 9 })), 'invalid_option:heads');
  assert.equal(await codeOf(startTraining(LAB_TEXT, { heads: 2.5 })), 'invalid_option:heads');
  assert.equal(await codeOf(startTraining(LAB_TEXT, { dModel: 30, heads: 4 })), 'invalid_option:dModel');
  assert.equal(await codeOf(startTraining(LAB_TEXT, { lr: Number.NaN })), 'invalid_option:lr');
  assert.equal(await codeOf(startTraining(LAB_TEXT, { steps: 1e12 })), 'invalid_option:steps');
  assert.equal(await codeOf(startTraining(LAB_TEXT, { seed: -1 })), 'invalid_option:seed');
  assert.equal(await codeOf(startTraining(LAB_TEXT, { scaled: 'no' })), 'invalid_option:scaled');
  assert.equal(await codeOf(startTraining(LAB_TEXT, {}, { every: 0 })), 'invalid_argument');
  assert.equal(await codeOf(startTraining(LAB_TEXT, {}, { sentence: 5 })), 'invalid_argument');
  assert.equal(await codeOf(startTraining('')), 'text_too_short');
  assert.equal(await codeOf(startTraining('我喜欢人工智能。'.repeat(30))), 'text_too_short');
  await assert.rejects(startTraining('Short text.\nAnother line.'), (error) => {
    assert.match(error.message, /needs at least 2000 and 5/);
    assert.deepEqual(Object.keys(error.params).sort(), ['heldout', 'min', 'min_heldout', 'tokens']);
    return true;
  });
  // A sentence too long for the heads: the run goes on, the heads say why.
  const run = await startTraining(LAB_TEXT, { ...TINY, steps: 2 }, { sentence: '字'.repeat(200), every: 1 });
  const reports = await reportsOf(run);
  assert.equal(reports.length, 2);
  assert.equal(reports[0].heads, null);
  assert.equal(reports[0].headsError.code, 'too_many_tokens');
  assert.equal(await codeOf(run.heads('字'.repeat(200))), 'too_many_tokens');
  run.dispose();
});

test('the training settings\' ranges, presets, d_k and verdicts are the trainer\'s one table, and the page\'s core has none', async () => {
  const core = await loadAttentionLab();
  for (const gone of ['trainingRanges', 'trainingHeadSize', 'lossVerdict', 'scalingVerdict']) assert.equal(core[gone], undefined, gone);
  const { loadTrainer } = await import('../../web/lib/trainer-wasm.js');
  const wasm = await loadTrainer();
  const trainer = await openTrainer();
  assert.deepEqual(JSON.parse(JSON.stringify(trainer.ranges)), JSON.parse(JSON.stringify(wasm.settingRanges())));
  assert.deepEqual(Object.keys(trainer.ranges), ['layers', 'heads', 'dModel', 'length', 'batch', 'steps', 'vocab', 'lr', 'initScale', 'seed']);
  assert.ok(Object.isFrozen(trainer.ranges.heads));
  assert.deepEqual({ ...trainer.defaults }, wasm.defaultSettings());
  assert.deepEqual(Object.keys(trainer.presets), ['tiny', 'small', 'larger']);
  assert.deepEqual({ ...trainer.presets.tiny }, TINY_PRESET);
  // Each range is where the trainer draws its line: one past its top is refused, by name.
  for (const [name, { min, max }] of Object.entries(trainer.ranges)) {
    const past = Number.isInteger(min) ? max + 1 : max * 2;
    assert.equal(await codeOf(startTraining(LAB_TEXT, { ...TINY, [name]: past })), `invalid_option:${name}`, name);
  }
  assert.equal(await trainer.headSize(32, 2), 16);
  assert.equal(await trainer.headSize(30, 4), 0);
  assert.equal(await trainer.headSize(32.5, 2), 0);
  assert.equal(await trainer.headSize(Number.NaN, 2), 0);
  assert.equal(await trainer.headSize(-32, 2), 0);
  await assert.rejects(() => trainer.headSize('32', 2), { code: 'invalid_argument' });
  assert.equal(await codeOf(startTraining(LAB_TEXT, { ...TINY, dModel: 30, heads: 4 })), 'invalid_option:dModel');
  // 3 % either side of the reference.
  assert.equal(await trainer.lossVerdict(4.355, 4.604), 'worse');
  assert.equal(await trainer.lossVerdict(4.758, 4.288), 'better');
  assert.equal(await trainer.lossVerdict(2.0, 2.07), 'worse');
  assert.equal(await trainer.lossVerdict(2.0, 2.05), 'same');
  assert.equal(await trainer.lossVerdict(2.0, 1.95), 'same');
  assert.equal(await trainer.lossVerdict(2.0, 1.93), 'better');
  assert.equal(await trainer.lossVerdict(2.0, Number.NaN), 'same');
  await assert.rejects(() => trainer.lossVerdict('2', 2), { code: 'invalid_argument' });
  trainer.dispose();
  await assert.rejects(() => trainer.headSize(32, 2), { code: 'disposed' });
  // A signal lets go of it: aborted before, or once open.
  await assert.rejects(() => openTrainer({ signal: AbortSignal.abort() }), { code: 'aborted' });
  await assert.rejects(() => openTrainer({ signal: 'no' }), { code: 'invalid_argument' });
  const life = new AbortController();
  const held = await openTrainer({ signal: life.signal });
  life.abort();
  await assert.rejects(() => held.headSize(32, 2), { code: 'disposed' });
});

test('a signal ends a run: aborted before it starts, or stopped and disposed once it runs', async () => {
  await assert.rejects(() => startTraining(LAB_TEXT, TINY, { signal: AbortSignal.abort() }), { code: 'aborted' });
  assert.equal(await codeOf(startTraining(LAB_TEXT, TINY, { signal: {} })), 'invalid_argument');
  const life = new AbortController();
  const run = await startTraining(LAB_TEXT, { ...TINY, steps: 5000 }, { signal: life.signal });
  life.abort();
  assert.equal((await run.done).reason, 'stopped');
  assert.equal(run.state, 'stopped');
  await assert.rejects(() => run.exportModel(), { code: 'disposed' });
});

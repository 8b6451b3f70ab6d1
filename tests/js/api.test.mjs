// The JavaScript API contract (issue: JS API over the wasm core), in Node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttentionLab } from 'attention-lab';
import { throwsLab } from './lab-asserts.mjs';

const core = await loadAttentionLab();
const RANDOM = { model: 'random', layers: 1, heads: 1, vocabSize: 30522 };
const STAGES = ['embeddings', 'positional', 'x', 'wq', 'wk', 'wv', 'bq', 'bk', 'bv', 'q', 'k', 'v',
  'scores', 'scaled', 'masked', 'weights', 'output'];

test('loadAttentionLab loads once and returns the same lab', async () => {
  assert.equal(await loadAttentionLab(), core);
  assert.deepEqual([...core.stageNames], STAGES);
  assert.ok(Object.isFrozen(core.stageNames));
  assert.deepEqual({ ...core.defaults },
    { dModel: 768, dK: 64, seed: 42, scale: true, causal: false, positional: true });
  assert.equal(core.limits.maxTokens, 512);
});

test('run: tokens, ids, resolved config and every stage with its shape', () => {
  const trace = core.run('我喜欢人工智能', { model: 'random', dModel: 768, dK: 64, seed: 42, scale: true, causal: false, positional: true });
  assert.deepEqual([...trace.tokens], ['[CLS]', '我', '喜', '欢', '人', '工', '智', '能', '[SEP]']);
  assert.ok(trace.ids instanceof Int32Array);
  assert.deepEqual([...trace.ids], [101, 9428, 8896, 3137, 10201, 23704, 29844, 10637, 102]);
  assert.deepEqual({ ...trace.config }, { ...RANDOM, ...core.defaults });
  const n = 9;
  const shapes = {
    embeddings: [n, 768], positional: [n, 768], x: [n, 768], wq: [768, 64], wk: [768, 64],
    wv: [768, 64], bq: [1, 64], bk: [1, 64], bv: [1, 64], q: [n, 64], k: [n, 64], v: [n, 64],
    scores: [n, n], scaled: [n, n], masked: [n, n], weights: [n, n], output: [n, 64],
  };
  for (const id of core.stageNames) {
    const s = trace.stage(id);
    assert.deepEqual([s.rows, s.cols], shapes[id], id);
    assert.ok(s.data instanceof Float32Array, id);
    assert.equal(s.data.length, s.rows * s.cols, id);
  }
  trace.dispose();
});

test('run: every option is optional, and partial options keep the other defaults', () => {
  const a = core.run('hello world', { model: 'random' });
  assert.deepEqual({ ...a.config }, { ...RANDOM, ...core.defaults });
  const b = core.run('hello world', { model: 'random', dK: 8, causal: true, dModel: undefined });
  assert.deepEqual({ ...b.config }, { ...RANDOM, ...core.defaults, dK: 8, causal: true });
  assert.equal(b.stage('q').cols, 8);
  a.dispose();
  b.dispose();
});

test('stage data is row-major: data[i * cols + j]', () => {
  const trace = core.run('row major', { model: 'random', dModel: 6, dK: 3 });
  const e = trace.stage('embeddings');
  const p = trace.stage('positional');
  const x = trace.stage('x');
  // positional row 1, column 0 is sin(1); column 1 is cos(1)
  assert.ok(Math.abs(p.data[1 * p.cols + 0] - Math.sin(1)) < 1e-6);
  assert.ok(Math.abs(p.data[1 * p.cols + 1] - Math.cos(1)) < 1e-6);
  for (let i = 0; i < x.data.length; i += 1) assert.equal(x.data[i], Math.fround(e.data[i] + p.data[i]));
  const w = trace.stage('weights');
  for (let i = 0; i < w.rows; i += 1) {
    const sum = w.data.subarray(i * w.cols, (i + 1) * w.cols).reduce((s, v) => s + v, 0);
    assert.ok(Math.abs(sum - 1) < 1e-6);
  }
  trace.dispose();
});

test('wrongly typed options give an AttentionLabError naming the option', () => {
  throwsLab(() => core.run('hi', { model: 'random', dK: '64' }), 'invalid_option', /dK must be an integer number, got the string "64"/);
  throwsLab(() => core.run('hi', { model: 'random', dK: NaN }), 'invalid_option', /dK .* got NaN/);
  throwsLab(() => core.run('hi', { model: 'random', dK: null }), 'invalid_option', /dK .* got null/);
  throwsLab(() => core.run('hi', { model: 'random', dModel: 12.5 }), 'invalid_option', /dModel .* got 12.5/);
  throwsLab(() => core.run('hi', { model: 'random', seed: Infinity }), 'invalid_option', /seed .* got Infinity/);
  throwsLab(() => core.run('hi', { model: 'random', seed: 10n }), 'invalid_option', /seed .* BigInt/);
  throwsLab(() => core.run('hi', { model: 'random', scale: 'yes' }), 'invalid_option', /scale must be true or false/);
  throwsLab(() => core.run('hi', { model: 'random', causal: 1 }), 'invalid_option', /causal must be true or false, got 1/);
  throwsLab(() => core.run('hi', { model: 'random', dk: 64 }), 'invalid_option', /unknown option "dk"; the options are model, knockOut, override, dModel, dK/);
  throwsLab(() => core.run('hi', 64), 'invalid_option', /options must be an object/);
  throwsLab(() => core.run('hi', null), 'invalid_option', /options must be an object/);
  throwsLab(() => core.run('hi', [1]), 'invalid_option', /got an array/);
});

test('out-of-range options are rejected by the core with the allowed range', () => {
  throwsLab(() => core.run('hi', { model: 'random', dModel: 0 }), 'invalid_config', /d_model must be an integer from 1 to 1024, got 0/);
  throwsLab(() => core.run('hi', { model: 'random', dModel: 1e15 }), 'invalid_config', /d_model .* got 1000000000000000/);
  throwsLab(() => core.run('hi', { model: 'random', dModel: 32, dK: 33 }), 'invalid_config', /d_k .* to d_model \(32\), got 33/);
  throwsLab(() => core.run('hi', { model: 'random', dK: -3 }), 'invalid_config', /d_k .* got -3/);
  throwsLab(() => core.run('hi', { model: 'random', seed: -1 }), 'invalid_config', /seed .* 0 to 4294967295, got -1/);
  throwsLab(() => core.run('hi', { model: 'random', seed: 2 ** 32 }), 'invalid_config', /seed .* got 4294967296/);
});

test('bad sentences give clear errors and the module stays usable', () => {
  throwsLab(() => core.run(), 'invalid_argument', /sentence must be a string, got undefined/);
  throwsLab(() => core.run(42, { model: 'random' }), 'invalid_argument', /got 42/);
  throwsLab(() => core.run('', { model: 'random' }), 'empty_text', /empty/);
  throwsLab(() => core.run(' \n\t ', { model: 'random' }), 'empty_text', /empty/);
  throwsLab(() => core.run('字'.repeat(511), { model: 'random' }), 'too_many_tokens', /513 tokens .* the most is 512/);
  throwsLab(() => core.run('a'.repeat(2 ** 20 + 1), { model: 'random' }), 'text_too_long', /1048577 bytes/);
  throwsLab(() => core.run('I \uD83D love', { model: 'random' }), 'invalid_text', /lone UTF-16 surrogate, U\+D83D\) at index 2/);
  throwsLab(() => core.run('\uDE00', { model: 'random' }), 'invalid_text', /index 0/);
  const ok = core.run('字'.repeat(510), { model: 'random' });
  assert.equal(ok.tokens.length, 512);
  ok.dispose();
  const emoji = core.run('I ❤️ 👩‍💻 and <script>alert(1)</script>', { model: 'random' });
  assert.deepEqual([...emoji.tokens].slice(0, 5), ['[CLS]', 'i', '❤️', '👩‍💻', 'and']);
  assert.ok(emoji.tokens.includes('script'));
  emoji.dispose();
});

test('stage(): unknown ids, wrong types and use after dispose', () => {
  const trace = core.run('我喜欢', { model: 'random' });
  throwsLab(() => trace.stage('softmax'), 'unknown_stage', /unknown stage id "softmax"; the stage ids are embeddings, positional/);
  throwsLab(() => trace.stage(3), 'unknown_stage', /must be a string, got 3/);
  assert.equal(trace.disposed, false);
  trace.dispose();
  trace.dispose(); // twice is fine
  assert.equal(trace.disposed, true);
  throwsLab(() => trace.stage('weights'), 'disposed', /disposed/);
  assert.equal(trace.tokens[2], '喜'); // plain JS copies stay readable
  assert.equal(core.run('still works', { model: 'random' }).tokens.length, 4);
});

test('stage data stays valid after later calls grow the wasm heap', () => {
  const small = core.run('我喜欢人工智能', { model: 'random' });
  const weights = small.stage('weights');
  const before = Array.from(weights.data);
  small.dispose(); // the copy outlives its trace, too
  const bytesBefore = core.memoryUsage().wasmMemoryBytes;
  const big = core.run('字'.repeat(510), { model: 'random', dModel: 1024, dK: 1024 });
  assert.ok(core.memoryUsage().wasmMemoryBytes > bytesBefore, 'the heap should have grown');
  assert.equal(weights.data.length, 81);
  assert.deepEqual(Array.from(weights.data), before);
  big.dispose();
});

test('10,000 run/dispose cycles leave the heap and live handles where they started', () => {
  const cycle = () => {
    const t = core.run('我喜欢人工智能', { model: 'random' });
    t.stage('weights');
    t.dispose();
  };
  cycle(); // the model cache and allocator settle on the first run
  const start = core.memoryUsage();
  for (let i = 0; i < 10_000; i += 1) cycle();
  const end = core.memoryUsage();
  assert.equal(end.heapBytesInUse, start.heapBytesInUse);
  assert.equal(end.liveHandles, start.liveHandles);
  assert.equal(end.liveTraces, start.liveTraces);
  assert.equal(end.wasmMemoryBytes, start.wasmMemoryBytes);
  assert.ok(Number.isFinite(end.liveHandles));
});

test("the model's cache of embedding rows is bounded: ever new words do not grow the heap", () => {
  // 500 distinct CJK characters per sentence, 6,000 in all: far more rows than the cache keeps.
  const sentence = (k) => Array.from({ length: 500 }, (_, i) => String.fromCodePoint(0x4e00 + k * 500 + i)).join('');
  const peak = (from, to) => {
    let most = 0;
    for (let k = from; k < to; k += 1) {
      core.run(sentence(k), { model: 'random' }).dispose();
      most = Math.max(most, core.memoryUsage().heapBytesInUse);
    }
    return most;
  };
  const early = peak(0, 4);
  const late = peak(4, 12);
  assert.ok(late <= early + 64 * 1024, `heap peak ${early} → ${late}`);
});

test('errors leak nothing either', () => {
  const round = () => {
    assert.throws(() => core.run('', { model: 'random' }));
    assert.throws(() => core.run('x', { model: 'random', dK: 0 }));
    const t = core.run('x', { model: 'random' });
    assert.throws(() => t.stage('nope'));
    t.dispose();
  };
  round(); // the model keeps the embedding row of "x" from its first run on
  const start = core.memoryUsage();
  for (let i = 0; i < 1000; i += 1) round();
  const end = core.memoryUsage();
  assert.equal(end.heapBytesInUse, start.heapBytesInUse);
  assert.equal(end.liveHandles, start.liveHandles);
});

test("softmaxRow reproduces the article's 喜 row", () => {
  const steps = core.softmaxRow([15.3, 22.7, 18.2, 2.1, 1.8, 3.2, 2.9, 5.6, 4.1], { dK: 64, jacobian: true });
  const round = (v, d) => Math.round(v * 10 ** d) / 10 ** d;
  assert.deepEqual(Array.from(steps.scaled, (v) => round(v, 6)),
    [1.9125, 2.8375, 2.275, 0.2625, 0.225, 0.4, 0.3625, 0.7, 0.5125]);
  assert.deepEqual(Array.from(steps.exps, (v) => round(v, 2)),
    [6.77, 17.07, 9.73, 1.3, 1.25, 1.49, 1.44, 2.01, 1.67]);
  assert.equal(round(Array.from(steps.exps, (v) => round(v, 2)).reduce((s, v) => s + v), 2), 42.73);
  assert.ok(Math.abs(steps.expSum - 42.7354) < 1e-4);
  assert.equal(steps.divisor, 8);
  assert.equal(steps.argmax, 1);
  assert.deepEqual(Array.from(steps.probs, (v) => round(v, 2)),
    [0.16, 0.40, 0.23, 0.03, 0.03, 0.03, 0.03, 0.05, 0.04]);
  assert.equal(steps.jacobian.rows, 9);
  const p1 = steps.probs[1];
  assert.ok(Math.abs(steps.jacobian.data[1 * 9 + 1] - p1 * (1 - p1)) < 1e-6);
  assert.ok(Math.abs(steps.jacobian.data[0 * 9 + 1] + steps.probs[0] * p1) < 1e-6);
  // A Float32Array works as well as an array; without dK nothing is divided,
  // and the Jacobian comes only when asked for.
  const again = core.softmaxRow(new Float32Array([15.3, 22.7, 18.2, 2.1, 1.8, 3.2, 2.9, 5.6, 4.1]), { dK: 64 });
  assert.deepEqual(Array.from(again.probs), Array.from(steps.probs));
  assert.equal(again.jacobian, null);
  const plain = core.softmaxRow([15.3, 22.7]);
  assert.equal(plain.divisor, 1);
  assert.deepEqual(Array.from(plain.scaled), Array.from(new Float32Array([15.3, 22.7])));
  // A temperature divides too: softmax(s / T).
  const warm = core.softmaxRow([2, 1, 0], { temperature: 2 });
  assert.ok(Math.abs(warm.probs[0] - Math.exp(1) / (Math.exp(1) + Math.exp(0.5) + 1)) < 1e-6);
});

test('scalingEffect: the largest weight without ÷√d_k and with it, as softmaxRow has them, and the row\'s shape', () => {
  const row = [15.3, 22.7, 18.2, 2.1, 1.8, 3.2, 2.9, 5.6, 4.1];
  const e = core.scalingEffect(row, { dK: 64 });
  assert.equal(e.unscaled, core.softmaxRow(row).maxProb);
  assert.equal(e.scaled, core.softmaxRow(row, { dK: 64 }).maxProb);
  assert.equal(e.shape, 'peaked');
  assert.equal(core.scalingEffect(row).shape, 'same', 'dK 1 divides by nothing');
  assert.equal(core.scalingEffect([0.02, 0, -0.02], { dK: 64 }).shape, 'same', 'within the margin');
  assert.ok(Object.isFrozen(e));
  assert.throws(() => core.scalingEffect(row, { dK: 0 }), { code: 'invalid_argument', message: /d_k must be an integer from 1/ });
  assert.throws(() => core.scalingEffect(row, { dK: 'eight' }), { code: 'invalid_argument' });
  assert.throws(() => core.scalingEffect([]), { code: 'invalid_argument', message: /empty/ });
  assert.throws(() => core.scalingEffect('1,2'), { code: 'invalid_argument' });
});

test('the claims the page makes, decided by the core on both sides of each threshold', () => {
  const row = [15.3, 22.7, 18.2, 2.1, 1.8];
  // The Jacobian's verdict is decided back at q·k, where the scaled path also carries 1/√d_k: the
  // article's five scores lose a twentieth at softmax's input, but a third reaches q·k: smaller.
  const off = core.scalingEffect(row, { dK: 64, target: 0 });
  assert.ok(off.unscaledJacobian < 0.1 * off.scaledJacobian);
  assert.equal(off.scaledJacobianQk, Math.fround(off.scaledJacobian / 8));
  assert.equal(off.jacobian, 'smaller');
  // "vanishes" only at a tenth or less at q·k: a third is smaller, a 26th vanishes.
  assert.equal(core.scalingEffect([4, 0], { dK: 4 }).jacobian, 'smaller');
  assert.equal(core.scalingEffect([8, 0], { dK: 4 }).jacobian, 'vanishes');
  assert.equal(off.gradient, 'larger');
  assert.equal(off.unscaledJacobian, core.softmaxRow(row, { jacobian: true }).maxJacobian);
  assert.equal(core.scalingEffect(row, { dK: 64, target: 1 }).gradient, 'smaller');
  assert.equal(core.scalingEffect(row, { dK: 64 }).gradient, '');
  assert.throws(() => core.scalingEffect(row, { dK: 64, target: -1 }), { code: 'invalid_argument' });
  assert.throws(() => core.scalingEffect(row, { dK: 64, target: 9 }), { code: 'invalid_argument', message: /outside the row/ });
  // ÷ the maximum: not a distribution with a negative score, one without.
  assert.equal(core.divideByMax([2.5, -1.25, 0.625]).kind, 'not');
  assert.equal(core.divideByMax([1, 0]).kind, 'distribution');
  assert.equal(core.divideByMax([-1, -2]).kind, 'undefined');
  // The variance of q·k when d_k doubles, measured.
  assert.equal(core.varianceGrowth(32, 64).growth, 'doubles');
  assert.equal(core.varianceGrowth(32, 32).growth, 'same');
  assert.equal(core.varianceGrowth(16, 64).growth, 'quadruples');
  // The article's row beside another.
  const c = core.compareRows([0.16, 0.40, 0.23], [0.1, 0.12, 0.78], 1);
  assert.deepEqual({ ...c, selfA: Math.round(c.selfA * 100), selfB: Math.round(c.selfB * 100) },
    { topA: 1, topB: 2, sameTop: false, selfA: 40, selfB: 12, self: 'smaller' });
  assert.throws(() => core.compareRows([0.5, 0.5], [1], 0), { code: 'invalid_argument' });
  // The trained model's sharpest head of layer 2 (its largest weight the largest): saturating rows
  // and scores far from unit variance; its most spread head: neither.
  const trace = core.run('我喜欢人工智能');
  const reports = Array.from({ length: trace.config.heads }, (_, head) => ({ head, ...trace.scalingReport({ layer: 1, head }) }))
    .sort((a, b) => b.largestWeight - a.largestWeight);
  const hot = reports[0];
  assert.equal(hot.saturation, 'saturates');
  assert.ok(hot.saturatedRows >= 1 && hot.largestWeight >= 0.9);
  assert.equal(hot.variance, 'above');
  const calm = reports.at(-1);
  assert.equal(calm.saturation, 'spread');
  assert.ok(calm.largestWeight < 0.9);
  assert.ok(Math.abs(hot.scoreRowVariance / hot.scaledRowVariance - trace.config.dK) < 1e-3 * trace.config.dK, 'the variance divides by d_k');
  // The variance is softmax's: within each row (its own mean taken out), averaged over the rows.
  const scores = trace.stage('scores', { layer: 1, head: hot.head });
  let within = 0;
  for (let i = 0; i < scores.rows; i += 1) {
    const r = Array.from(scores.data.subarray(i * scores.cols, (i + 1) * scores.cols));
    const mean = r.reduce((a, b) => a + b, 0) / r.length;
    within += r.reduce((a, b) => a + (b - mean) ** 2, 0) / r.length;
  }
  assert.ok(Math.abs(hot.scoreRowVariance - within / scores.rows) < 1e-3 * hot.scoreRowVariance, 'the mean of the rows\' variances');
  // How many times smaller the unscaled Jacobian is, as the page says it, and a Jacobian of 0.
  assert.equal(core.scalingEffect([8, 0], { dK: 4 }).jacobianTimes, 26);
  assert.equal(core.scalingEffect([4, 0], { dK: 4 }).jacobianTimes, 3);
  const none = core.scalingEffect([1000, 0], { dK: 1024 });
  assert.deepEqual([none.jacobian, none.unscaledJacobian, none.jacobianTimes], ['zero', 0, 0]);
  const strongest = trace.contributions(2, { layer: 1, head: calm.head });
  assert.equal(strongest.lengths.length, 9);
  assert.equal(strongest.strongest, strongest.lengths.indexOf(Math.max(...strongest.lengths)));
  trace.dispose();
});

test('softmaxRow order and layerRow: the keys by weight, and a layer\'s heads together for one row', async () => {
  assert.deepEqual(Array.from(core.softmaxRow([1, 3, 2, 3, -1]).order), [1, 3, 2, 0, 4]);
  await core.loadAfterArticle(); // layerRow is the after-the-article module's
  const trace = core.run('我喜欢人工智能', { knockOut: [{ layer: 1, head: 0 }] });
  const r = trace.layerRow(2, { layer: 1 });
  const rows = Array.from({ length: trace.config.heads }, (_, head) => trace.softmaxRow(2, { layer: 1, head }));
  rows.forEach((row, head) => {
    assert.equal(r.headTop[head], row.argmax);
    assert.equal(r.headWeight[head], row.maxProb);
  });
  assert.deepEqual(Array.from(r.averaged), [0, 1, 1, 1], 'the knocked-out head is left out of the mean');
  for (let j = 0; j < 9; j += 1) {
    const mean = (rows[1].probs[j] + rows[2].probs[j] + rows[3].probs[j]) / 3;
    assert.ok(Math.abs(r.mean[j] - mean) < 1e-6);
  }
  assert.equal(r.order[0], r.mean.indexOf(Math.max(...r.mean)));
  throwsLab(() => trace.layerRow(2, { layer: 2 }), 'invalid_argument', /no layer 2/);
  throwsLab(() => trace.layerRow(9, { layer: 0 }), 'invalid_argument', /outside/);
  trace.dispose();
  const random = core.run('我喜欢人工智能', { model: 'random' });
  assert.deepEqual(Array.from(random.layerRow(2).mean), Array.from(random.softmaxRow(2).probs));
  throwsLab(() => random.layerRow(2, { layer: 1 }), 'invalid_argument', /no layer 1/);
  random.dispose();
});

test('expRows: every row\'s exps and totals as one matrix, the trace\'s own softmaxRow numbers, of any head', () => {
  for (const [options, where] of [[{ model: 'random', causal: true }, {}], [{}, { layer: 1, head: 2 }]]) {
    const trace = core.run('我喜欢人工智能', options);
    const { exps, sums } = trace.expRows(where);
    assert.equal(exps.rows, 9);
    assert.equal(exps.cols, 9);
    for (let i = 0; i < 9; i += 1) {
      const row = trace.softmaxRow(i, where);
      assert.deepEqual(Array.from(exps.data.subarray(i * 9, i * 9 + 9)), Array.from(row.exps));
      assert.equal(sums[i], row.expSum);
    }
    trace.dispose();
  }
});

test('crossEntropyGradient: p − one_hot(target), as a Float32Array; bad targets rejected', () => {
  const g = core.crossEntropyGradient([0.25, 0.5, 0.25], 1);
  assert.ok(g instanceof Float32Array);
  assert.deepEqual(Array.from(g), [0.25, -0.5, 0.25]);
  throwsLab(() => core.crossEntropyGradient([0.5, 0.5], 2), 'invalid_argument', /target 2 is outside the row of 2/);
  throwsLab(() => core.crossEntropyGradient([0.5, 0.5], -1), 'invalid_argument', /target must be an index/);
});

test('softmaxRow: overflowing exps stay visible, probabilities finite; bad input rejected', () => {
  const steps = core.softmaxRow([1000, 999, -1000]);
  assert.equal(steps.exps[0], Infinity);
  assert.equal(steps.expSum, Infinity);
  assert.ok(Number.isNaN(steps.shares[0]));
  assert.equal(steps.overflowed, true);
  assert.ok(Math.abs(steps.probs[0] - 0.7310586) < 1e-6);
  throwsLab(() => core.softmaxRow([], { dK: 64 }), 'invalid_argument', /empty/);
  throwsLab(() => core.softmaxRow([1, NaN]), 'invalid_argument', /score 2 is not a finite number/);
  throwsLab(() => core.softmaxRow(['1', 2]), 'invalid_argument', /array of numbers/);
  throwsLab(() => core.softmaxRow('1,2'), 'invalid_argument', /array of numbers/);
  throwsLab(() => core.softmaxRow([1, 2], { dK: '64' }), 'invalid_argument', /dK must be an integer/);
  throwsLab(() => core.softmaxRow([1, 2], { dK: 0 }), 'invalid_argument', /d_k must be an integer from 1 to 1024, got 0/);
  throwsLab(() => core.softmaxRow([1, 2], { dK: 2 ** 60 }), 'invalid_argument', /dK must be an integer/);
  throwsLab(() => core.softmaxRow([1, 2], { temperature: 0 }), 'invalid_argument', /temperature must be a number above 0/);
  throwsLab(() => core.softmaxRow([1, 2], { jacobian: 1 }), 'invalid_argument', /jacobian must be true or false/);
});

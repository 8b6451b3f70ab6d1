// Hugging Face BERT checkpoints through the API (core.loadModel with a checkpoint's files), held
// to tests/bert/reference.py: random checkpoints in Hugging Face's layout (every layout variant the
// core reads), their tokenization and every head's weights, the last hidden rows and the guesses
// at each [MASK] against a float64 reference of BertTokenizer and BertForMaskedLM written from
// their documented architecture; every damaged input; memory; a BERT-base-shaped checkpoint.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, openAsBlob, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as OpenCC from 'opencc-js';
import { AttentionLabError, loadAttentionLab } from 'attention-lab';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3'; // Debian's, with NumPy
const REFERENCE = join(ROOT, 'tests/bert/reference.py');
const FIXTURES = join(ROOT, 'build/bert-fixtures');
const core = await loadAttentionLab();

/** Writes a random checkpoint (reference.py make) into build/bert-fixtures/name; returns its folder. */
function make(name, ...args) {
  const dir = join(FIXTURES, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execFileSync(PYTHON, [REFERENCE, 'make', dir, ...args]);
  return dir;
}

/** What the reference computes for each sentence (reference.py run). */
const reference = (dir, sentences, top = 6) => JSON.parse(execFileSync(PYTHON, [REFERENCE, 'run', dir, '--top', String(top)],
  { input: JSON.stringify(sentences), maxBuffer: 1 << 30 }));
const referenceIds = (dir, sentences) => JSON.parse(execFileSync(PYTHON, [REFERENCE, 'tokenize', dir],
  { input: JSON.stringify(sentences), maxBuffer: 1 << 28 }));

const NAMES = ['config.json', 'vocab.txt', 'model.safetensors', 'tokenizer_config.json'];
/** The checkpoint's files as Uint8Arrays (or as Blobs read a chunk at a time). */
async function files(dir, { blobs = false } = {}) {
  const out = {};
  for (const name of NAMES) {
    const path = join(dir, name);
    if (existsSync(path)) out[name] = blobs ? await openAsBlob(path) : new Uint8Array(readFileSync(path));
  }
  return out;
}

/** Rejects with an AttentionLabError of this code whose message matches part. */
async function rejectsLab(promise, code, part) {
  await assert.rejects(promise, (error) => {
    assert.ok(error instanceof AttentionLabError, `not an AttentionLabError: ${error}`);
    assert.equal(error.code, code, error.message);
    assert.match(error.message, part);
    return true;
  });
}

const maxDifference = (a, b) => {
  let most = 0;
  for (let k = 0; k < a.length; k += 1) most = Math.max(most, Math.abs(a[k] - b[k]));
  return most;
};

/** The model's run of each sentence against the reference's: ids, every head's weights and the last
 *  hidden rows within tolerance, and the guesses at each [MASK] in the same order (ties within 1e-6
 *  of each other aside). */
function matchesReference(id, dir, sentences, tolerance = 1e-5) {
  const expected = reference(dir, sentences);
  const info = core.models.find((m) => m.id === id);
  for (const [k, sentence] of sentences.entries()) {
    const want = expected[k];
    const trace = core.run(sentence, { model: id });
    try {
      assert.deepEqual(Array.from(trace.ids), want.ids, `ids of ${sentence}`);
      assert.deepEqual(trace.tokens, want.tokens, `tokens of ${sentence}`);
      for (let layer = 0; layer < info.layers; layer += 1) {
        for (let head = 0; head < info.heads; head += 1) {
          const got = trace.stage('weights', { layer, head });
          const diff = maxDifference(got.data, want.weights[layer][head].flat());
          assert.ok(diff < tolerance, `${sentence}: layer ${layer} head ${head}'s weights differ by ${diff}`);
        }
      }
      const hidden = trace.stage('layerOutput', { layer: info.layers - 1 });
      const diff = maxDifference(hidden.data, want.hidden.flat());
      assert.ok(diff < tolerance, `${sentence}: the last hidden rows differ by ${diff}`);
    } finally {
      trace.dispose();
    }
    if (!want.guesses.length) continue;
    const got = core.predictMasked(sentence, { model: id, topK: 5, wordsOnly: false });
    for (const [m, list] of want.guesses.entries()) {
      for (let r = 0; r < 5; r += 1) {
        const tied = Math.abs(list[r].probability - (list[r + 1]?.probability ?? -1)) < 1e-6
          || (r > 0 && Math.abs(list[r].probability - list[r - 1].probability) < 1e-6);
        if (!tied) assert.equal(got[m][r].token, list[r].token, `${sentence}: guess ${r + 1} at [MASK] ${m + 1}`);
        assert.ok(Math.abs(got[m][r].probability - list[r].probability) < tolerance, `${sentence}: probability ${r + 1}`);
      }
    }
  }
}

const SENTENCES = [
  '我喜欢人工[MASK]能',
  '我喜欢人工智能',
  'The animal didn\'t cross the [MASK] because it was too tired.',
  '时间过得真[MASK]，我住在上海。',
  '[MASK] is all you need!',
  'Café naïve [MASK] 1234',
];

const SMALL = make('small', '--preset', 'small', '--seed', '3');

test('a random BERT in Hugging Face\'s layout runs as BertForMaskedLM computes it: every head, the last rows, the guesses', async () => {
  const info = await core.loadModel('small-bert', await files(SMALL));
  assert.equal(info.architecture, 'bert');
  assert.equal(info.name, 'random-bert-small-plain');
  assert.deepEqual([info.layers, info.heads, info.dModel, info.dK, info.dFf, info.maxTokens], [3, 4, 64, 16, 128, 64]);
  assert.equal(core.models.find((m) => m.id === 'small-bert'), info);
  assert.deepEqual(core.models.map((m) => m.id), ['trained', 'small-bert', 'random']);
  matchesReference('small-bert', SMALL, SENTENCES);
  // The default guesses are characters and words only; wordsOnly: false ranks every entry but the
  // special ones, ## pieces and punctuation included (the reference's rule).
  for (const g of core.predictMasked('我喜欢人工[MASK]能', { model: 'small-bert', topK: 50 })[0]) {
    assert.match(g.token, /^[\p{L}\p{N}]/u);
  }
  const every = core.predictMasked('[MASK] [MASK]', { model: 'small-bert', topK: 50, wordsOnly: false }).flat();
  assert.ok(every.every((g) => !/^\[(PAD|UNK|CLS|SEP|MASK|unused\d+)\]$/.test(g.token)));
  const rank = core.rankAnswers('我喜欢人工[MASK]能', ['智'], { model: 'small-bert' });
  assert.equal(rank.length, 1);
  assert.ok(rank[0].rank >= 1);
  // Heads knocked out, as on the built-in model.
  const knocked = core.run('我喜欢人工智能', { model: 'small-bert', knockOut: [{ layer: 0, head: 1 }] });
  assert.ok(knocked.stage('concat', { layer: 0 }).data.slice(16, 32).every((v) => v === 0));
  knocked.dispose();
});

test('each layout Hugging Face writes: F16, BF16, gamma/beta with an I64 position_ids, no prefix, a decoder written out, cased, gelu_new', async () => {
  const variants = [
    ['f16', ['--dtype', 'F16']], ['bf16', ['--dtype', 'BF16']], ['gamma-beta', ['--variant', 'gamma-beta']],
    ['no-prefix', ['--variant', 'no-prefix']], ['decoder', ['--variant', 'decoder']], ['cased', ['--variant', 'cased']],
    ['tanh', ['--variant', 'tanh']],
  ];
  for (const [name, args] of variants) {
    const dir = make(name, '--seed', '5', ...args);
    await core.loadModel(name, await files(dir, { blobs: name === 'f16' }));
    matchesReference(name, dir, SENTENCES.slice(0, 4));
    core.unloadModel(name);
  }
});

// ≥ 200 sentences by a written rule: every 8th line of the held-out Chinese and English text (up
// to 80 of each), 40 of the Chinese ones in traditional characters (OpenCC), and the cases below.
function tokenizerSentences() {
  const lines = (file) => readFileSync(join(ROOT, 'tests/data/heldout', file), 'utf8').split('\n').filter(Boolean);
  const every8 = (file) => lines(file).filter((_, k) => k % 8 === 0).slice(0, 80);
  const zh = every8('zh.txt');
  const toTraditional = OpenCC.Converter({ from: 'cn', to: 'tw' });
  return [
    ...zh, ...every8('en.txt'), ...zh.slice(0, 40).map(toTraditional),
    'Café naïve résumé Ångström São Paulo', 'ΟΔΥΣΣΕΥΣ ΣΊΣΥΦΟΣ ΑΣ.Β', 'İstanbul ǅemal ß', 'e\u0301 a\u0308 \u1e9b\u0323',
    '한국어 문장입니다', '日本語のテキストです。', 'I ❤️ NY 👍🏽 👨‍👩‍👧', '1234567890 3.14 ½ ²', 'a'.repeat(120),
    `${'x'.repeat(99)} ${'y'.repeat(100)} ${'z'.repeat(101)}`, '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 ＡＢＣ１２３', 'abc[MASK]def [mask] [CLS] [SEP][UNK]',
    'a\u0000b\u200bc\ufffdd\u00ade\u0007f', 'مرحبا بالعالم', 'ภาษาไทยไม่มีช่องว่าง', 'tab\there\nnewline\u3000ideographic space',
    'don\'t "quote" (paren) [bracket] {brace} — – … ¡¿', '「引号」《书名》，。！？；：', '\u2028line\u2029para', 'Ⅻ ① ㈱ ㎞',
  ];
}

test('the tokenizer\'s Unicode tables are what scripts/bert-unicode.py makes of Python\'s unicodedata now', () => {
  const check = (...file) => execFileSync(PYTHON, [join(ROOT, 'scripts/bert-unicode.py'), '--check', ...file], { stdio: 'pipe' });
  check();
  // The check itself fails on tables that differ.
  mkdirSync(FIXTURES, { recursive: true });
  const changed = join(FIXTURES, 'changed-tables.inc');
  writeFileSync(changed, `${readFileSync(join(ROOT, 'cpp/src/bert_unicode_tables.inc'), 'utf8')}// changed\n`);
  assert.throws(() => check(changed), (e) => /is stale/.test(e.stderr.toString()));
});

test('tokenization equals the reference BertTokenizer on 200 sentences and more, lower-cased and cased', async () => {
  const sentences = tokenizerSentences();
  assert.ok(sentences.length >= 200, `${sentences.length} sentences`);
  for (const variant of ['plain', 'cased']) {
    const dir = make(`tok-${variant}`, '--preset', 'tokenizer', '--variant', variant);
    const id = `tok-${variant}`;
    await core.loadModel(id, await files(dir));
    const expected = referenceIds(dir, sentences);
    for (const [k, sentence] of sentences.entries()) {
      const trace = core.run(sentence, { model: id });
      assert.deepEqual(Array.from(trace.ids), expected[k], `${variant}: ${JSON.stringify(sentence)}`);
      trace.dispose();
    }
    core.unloadModel(id);
  }
});

// model.safetensors with its header edited (edit(header) changes it in place) or its bytes cut.
function damaged(bytes, { edit, cut, poke } = {}) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = Number(view.getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n)));
  const data = bytes.slice(8 + n);
  edit?.(header);
  poke?.(header, data);
  let text = new TextEncoder().encode(JSON.stringify(header));
  const padded = new Uint8Array(Math.ceil(text.length / 8) * 8).fill(0x20);
  padded.set(text);
  text = padded;
  const out = new Uint8Array(8 + text.length + data.length);
  new DataView(out.buffer).setBigUint64(0, BigInt(text.length), true);
  out.set(text, 8);
  out.set(data, 8 + text.length);
  return cut === undefined ? out : out.slice(0, cut);
}

test('every damaged input gets its named error, and the lab keeps working on its models', async () => {
  const good = await files(SMALL);
  await core.loadModel('kept', good);
  const text = (object) => new TextEncoder().encode(JSON.stringify(object));
  const config = JSON.parse(new TextDecoder().decode(good['config.json']));
  const weights = good['model.safetensors'];
  const word = 'bert.embeddings.word_embeddings.weight';
  const cases = [
    [{ 'model.safetensors': new Uint8Array(0) }, 'model_empty', /model\.safetensors is empty/],
    [{ 'config.json': new Uint8Array(0) }, 'model_empty', /config\.json is empty/],
    [{ 'model.safetensors': weights.slice(0, 5) }, 'model_truncated', /no header length/],
    [{ 'model.safetensors': weights.slice(0, 4000) }, 'model_truncated', /past the end of the file/],
    [{ 'model.safetensors': damaged(weights, { cut: weights.length - 100 }) }, 'model_truncated', /lies past the end/],
    [{ 'config.json': new TextEncoder().encode('{"hidden_size": 64,') }, 'model_bad_json', /config\.json is not valid JSON/],
    [{ 'config.json': text([1, 2]) }, 'model_bad_json', /not a JSON object/],
    [{ 'model.safetensors': damaged(weights, { edit: (h) => { h[word] = 7; } }) }, 'model_bad_json', /lacks its dtype/],
    [{ 'tokenizer_config.json': text({ do_lower_case: 'yes' }) }, 'model_bad_json', /do_lower_case is neither/],
    [{ 'model.safetensors': damaged(weights, { edit: (h) => { h[word].dtype = 'I32'; } }) }, 'model_dtype', /is I32: the lab reads F32, F16 and BF16/],
    [{ 'model.safetensors': damaged(weights, { edit: (h) => { h['bert.encoder.layer.2.output.dense.bias2'] = h['bert.encoder.layer.2.output.dense.bias']; delete h['bert.encoder.layer.2.output.dense.bias']; } }) },
      'model_missing_tensor', /no tensor encoder\.layer\.2\.output\.dense\.bias/],
    [{ 'model.safetensors': damaged(weights, { edit: (h) => { h[word].shape = [h[word].shape[1], h[word].shape[0]]; } }) }, 'model_shape', /the config says/],
    [{ 'config.json': text({ ...config, num_attention_heads: 5 }) }, 'model_heads', /5 heads do not divide its hidden size 64/],
    [{ 'config.json': text({ ...config, model_type: 'gpt2' }) }, 'model_not_bert', /model_type is "gpt2"/],
    [{ 'config.json': text({ ...config, position_embedding_type: 'relative_key' }) }, 'model_not_bert', /relative positions/],
    [{ 'config.json': text({ ...config, hidden_act: 'relu' }) }, 'model_not_bert', /hidden_act is "relu"/],
    [{ 'config.json': text({ ...config, hidden_size: undefined }) }, 'model_not_bert', /hidden_size is missing/],
    [{ 'config.json': text({ ...config, num_hidden_layers: 25 }) }, 'model_shape', /1 to 24 layers/],
    [{ 'vocab.txt': good['vocab.txt'].slice(0, good['vocab.txt'].lastIndexOf(10, good['vocab.txt'].length - 2) + 1) }, 'model_vocab', /vocab\.txt has 2643 tokens, the embeddings 2644 rows/],
    [{ 'vocab.txt': new TextEncoder().encode(new TextDecoder().decode(good['vocab.txt']).replace('[MASK]\n', '[MASQUE]\n')) }, 'model_vocab', /no \[MASK\] token/],
    [{ 'model.safetensors': damaged(weights, { poke: (h, data) => { new DataView(data.buffer).setFloat32(h['bert.embeddings.LayerNorm.weight'].data_offsets[0] + 8, NaN, true); } }) },
      'model_values', /embeddings\.LayerNorm\.weight holds a value that is not a finite number/],
  ];
  for (const [change, code, part] of cases) {
    await rejectsLab(core.loadModel('broken', { ...good, ...change }), code, part);
    assert.ok(!core.models.some((m) => m.id === 'broken'));
  }
  await rejectsLab(core.loadModel('Bad Id', good), 'invalid_argument', /a model id is 1 to 32/);
  await rejectsLab(core.loadModel('trained', good), 'invalid_argument', /is a model file's model here/);
  await rejectsLab(core.loadModel('x', { 'config.json': good['config.json'], 'model.safetensors': weights }), 'invalid_argument', /needs its vocab\.txt/);
  await rejectsLab(core.loadModel('x', { ...good, 'merges.txt': good['vocab.txt'] }), 'invalid_argument', /"merges\.txt" is none of them/);
  await rejectsLab(core.loadModel('x', { ...good, 'vocab.txt': 'text' }), 'invalid_argument', /vocab\.txt is given as a Uint8Array/);
  assert.throws(() => core.unloadModel('trained'), (e) => e.code === 'invalid_argument');
  assert.throws(() => core.unloadModel('nothing'), (e) => e.code === 'unknown_model');
  // A text longer than the model's positions (64 here) is too many tokens for it.
  await assert.rejects(async () => core.run('字'.repeat(63), { model: 'kept' }), (e) => e.code === 'too_many_tokens' && /at most 64/.test(e.message));
  // The lab keeps working: the checkpoint loaded before, and the built-in model.
  matchesReference('kept', SMALL, SENTENCES.slice(0, 1));
  core.run('我喜欢人工智能').dispose();
  core.unloadModel('kept');
});

test('a BERT-base-shaped checkpoint (12 × 12 heads, 768 wide, feed-forward 3072, 21128 tokens): read a chunk at a time, kept once in memory, as the reference computes it', async () => {
  const dir = make('base', '--preset', 'base', '--seed', '7');
  const before = core.memoryUsage();
  const info = await core.loadModel('base', await files(dir, { blobs: true }));
  const after = core.memoryUsage();
  assert.deepEqual([info.layers, info.heads, info.dModel, info.dK, info.dFf, info.vocabSize, info.maxTokens], [12, 12, 768, 64, 3072, 21128, 512]);
  // The weights' bytes in float32: the encoder's 85 M, the embeddings and the head's.
  const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
  const d = config.hidden_size;
  const weightBytes = 4 * (config.vocab_size * d + 512 * d + d + 2 * d
    + config.num_hidden_layers * (4 * d * d + 4 * d + 2 * d * config.intermediate_size + config.intermediate_size + d + 4 * d)
    + d * d + 3 * d + config.vocab_size);
  const heapGrowth = after.checkpointsHeapBytesInUse - before.checkpointsHeapBytesInUse;
  const memoryGrowth = after.checkpointsWasmMemoryBytes - before.checkpointsWasmMemoryBytes;
  assert.ok(heapGrowth <= 1.15 * weightBytes, `the heap grew ${heapGrowth} bytes for ${weightBytes} bytes of weights`);
  assert.ok(memoryGrowth <= 1.15 * weightBytes, `the wasm memory grew ${memoryGrowth} bytes for ${weightBytes} bytes of weights`);
  matchesReference('base', dir, ['我喜欢人工[MASK]能']);
  core.unloadModel('base');
  const freed = core.memoryUsage().checkpointsHeapBytesInUse;
  assert.ok(freed - before.checkpointsHeapBytesInUse < 0.01 * weightBytes, `unloadModel left ${freed - before.checkpointsHeapBytesInUse} bytes in use`);
  rmSync(dir, { recursive: true, force: true });
});

test('a checkpoint larger than memory allows is model_too_large, and the lab keeps working', async () => {
  const small = await files(SMALL);
  const config = { ...JSON.parse(new TextDecoder().decode(small['config.json'])), vocab_size: 250000, hidden_size: 1024,
    num_attention_heads: 16, intermediate_size: 4096, num_hidden_layers: 24 };
  const vocab = new TextEncoder().encode(['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]', ...Array.from({ length: 250000 - 5 }, (_, k) => `t${k}`)].join('\n'));
  await rejectsLab(core.loadModel('huge', { ...small, 'config.json': new TextEncoder().encode(JSON.stringify(config)), 'vocab.txt': vocab }),
    'model_too_large', /larger than this page's memory allows/);
  await core.loadModel('after', small);
  matchesReference('after', SMALL, SENTENCES.slice(0, 1));
  core.unloadModel('after');
});

test('every view of a run works on an imported checkpoint as on the built-in model: stages, rows, rollout, key plane, exercises, what if', async () => {
  await core.loadAfterArticle();
  await core.loadModel('views-bert', await files(SMALL));
  const sentence = '我喜欢人工智能';
  const trace = core.run(sentence, { model: 'views-bert' });
  const n = trace.tokens.length;
  const near = (a, b, what) => assert.ok(Math.abs(a - b) < 1e-4, `${what}: ${a} against ${b}`);
  for (const id of core.stageNames) assert.ok(trace.stage(id).data.every(Number.isFinite), id);
  for (let layer = 0; layer < 3; layer += 1) {
    for (const id of core.layerStageNames) {
      for (let head = 0; head < 4; head += 1) {
        const m = trace.stage(id, { layer, head });
        assert.ok(m.data.length > 0 && m.data.every(Number.isFinite), `${id} layer ${layer} head ${head}`);
      }
    }
    for (const s of trace.rowSums('weights', { layer, head: 2 })) near(s, 1, 'a row of weights');
  }
  const where = { layer: 2, head: 3 };
  const row = trace.softmaxRow(2, { ...where, jacobian: true });
  near(row.probSum, 1, 'softmaxRow');
  assert.equal(row.jacobian.rows, n);
  const weights = trace.stage('weights', where);
  for (let j = 0; j < n; j += 1) near(row.probs[j], weights.data[2 * n + j], `softmaxRow's weight ${j}`);
  const { sums } = trace.expRows(where);
  assert.equal(sums.length, n);
  const tiled = trace.tiledRow(2, { ...where, block: 3 });
  assert.ok(tiled.relativeDifference < 1e-5, `tiles against the whole: ${tiled.relativeDifference}`);
  assert.ok(trace.tiledAttention({ ...where, block: 4 }).relativeDifference < 1e-5);
  const symmetry = trace.qkSymmetry(where);
  near(symmetry.symmetricShare + symmetry.antisymmetricShare, 1, 'the shares of Q·Kᵀ');
  const words = [{ from: 2, to: 3 }, { from: 4, to: 7 }];
  assert.equal(trace.wordAttention(words, where).groups.length, n - 4);
  const rollout = trace.rollout();
  for (let i = 0; i < n; i += 1) near(rollout.rollout.data.slice(i * n, (i + 1) * n).reduce((a, b) => a + b, 0), 1, `rollout row ${i}`);
  assert.equal(trace.rolloutRow(2).rollout.length, n);
  assert.equal(trace.keyPlane(2, where).keyX.length, n);
  const terms = trace.dotTerms('scores', 2, 3, where);
  near(terms.total / trace.divisor, trace.stage('scaled', where).data[2 * n + 3], 'the terms of q·k');
  assert.equal(trace.weightedRows(2, where).rows, n);
  assert.equal(trace.contributions(2, where).lengths.length, n);
  const scaling = trace.scalingReport(where);
  near(scaling.scoreRowVariance / (trace.divisor * trace.divisor), scaling.scaledRowVariance, 'variance ÷ d_k');
  assert.ok(trace.headReport(where));
  assert.ok(trace.articleHead(2).layer < 3);
  const layerRow = trace.layerRow(2, { layer: 1 });
  near(layerRow.mean.reduce((a, b) => a + b, 0), 1, 'the layer\'s mean row');
  assert.equal(layerRow.headTop.length, 4);
  assert.ok(Number.isFinite(trace.tokenLink(2, 3).weight));
  near(trace.cosine('embeddings', 2, 'embeddings', 2), 1, 'a row with itself');
  for (const name of core.exerciseNames) {
    const cell = { ...trace.pickCell(name, { seed: 4, ...where }), ...where };
    const exercise = trace.exercise(name, cell);
    assert.equal(trace.checkAnswer(name, cell, exercise.expected).correct, true, name);
  }
  const knocked = core.run(sentence, { model: 'views-bert', knockOut: [{ layer: 1, head: 0 }] });
  assert.ok(knocked.rollout().rollout.data.every(Number.isFinite));
  knocked.dispose();
  const what = core.whatIf('我喜欢人工[MASK]能', { model: 'views-bert', layer: 1, head: 2, row: 6, edits: [{ key: 3, weight: 0 }] });
  assert.equal(what.weights.after[3], 0);
  assert.equal(what.masks.length, 1);
  assert.ok(what.masks[0].before.length > 0, 'what if');
  trace.dispose();
  core.unloadModel('views-bert');
});

test('npm run import-model writes one model file a course can host: float32 runs as the checkpoint does, --int8 near it at a third of the bytes; a damaged file is refused', async () => {
  const out = join(FIXTURES, 'small.almodel');
  const out8 = join(FIXTURES, 'small-int8.almodel');
  execFileSync(process.execPath, [join(ROOT, 'scripts/import-model.mjs'), SMALL, out]);
  execFileSync(process.execPath, [join(ROOT, 'scripts/import-model.mjs'), SMALL, out8, '--int8']);
  const bytes = new Uint8Array(readFileSync(out));
  const bytes8 = new Uint8Array(readFileSync(out8));
  assert.ok(bytes8.length < bytes.length / 3, `${bytes8.length} bytes in int8 against ${bytes.length}`);
  await core.loadModel('from-files', await files(SMALL));
  const info = await core.loadModel('from-file', { 'model.almodel': bytes });
  assert.deepEqual({ ...info, id: 'from-files' }, core.models.find((m) => m.id === 'from-files'));
  const info8 = await core.loadModel('from-int8', { 'model.almodel': await openAsBlob(out8) });
  assert.equal(info8.name, 'random-bert-small-plain');
  for (const sentence of SENTENCES.slice(0, 3)) {
    const [a, b, c] = ['from-files', 'from-file', 'from-int8'].map((model) => core.run(sentence, { model }));
    assert.deepEqual(b.tokens, a.tokens);
    const last = (t) => t.stage('layerOutput', { layer: 2 }).data;
    assert.deepEqual(last(b), last(a), 'the float32 file runs exactly as its checkpoint');
    const off = maxDifference(last(c), last(a));
    assert.ok(off > 0 && off < 0.1, `int8 moves the last rows by ${off}`);
    for (const t of [a, b, c]) t.dispose();
  }
  assert.deepEqual(core.predictMasked(SENTENCES[0], { model: 'from-file' }), core.predictMasked(SENTENCES[0], { model: 'from-files' }));
  // Written again from the file's model: not a checkpoint's files, so refused; and from a model file of the built-in kind.
  await rejectsLab(core.saveModelFile('from-file'), 'invalid_argument', /was not opened from a checkpoint's files/);
  await rejectsLab(core.saveModelFile('trained'), 'invalid_argument', /only those are written/);
  assert.throws(() => core.loadModel('sync', bytes), (e) => e.code === 'invalid_argument' && /model\.almodel/.test(e.message));
  const flipped = bytes.slice();
  flipped[flipped.length >> 1] ^= 1;
  await rejectsLab(core.loadModel('broken', { 'model.almodel': flipped }), 'invalid_model', /checksum does not match/);
  await rejectsLab(core.loadModel('broken', { 'model.almodel': bytes.slice(0, 1000) }), 'invalid_model', /damaged/);
  await rejectsLab(core.loadModel('broken', { 'model.almodel': readFileSync(join(ROOT, 'web/models/trained.almodel')) }), 'invalid_model', /version 4/);
  await rejectsLab(core.loadModel('broken', { 'model.almodel': bytes, 'vocab.txt': bytes }), 'invalid_argument', /alone/);
  assert.ok(!core.models.some((m) => m.id === 'broken'));
  for (const id of ['from-files', 'from-file', 'from-int8']) core.unloadModel(id);
  // The script says what is wrong with a folder that is not a checkpoint.
  assert.throws(() => execFileSync(process.execPath, [join(ROOT, 'scripts/import-model.mjs'), join(ROOT, 'docs'), join(FIXTURES, 'none.almodel')], { stdio: 'pipe' }),
    (e) => /has no model\.safetensors/.test(e.stderr.toString()));
});

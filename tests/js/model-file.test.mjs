// The trained model's file and its masked guesses through the API: loading a
// damaged or missing model, freeing a trace, and the guesses for [MASK], in Node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadAttentionLab } from 'attention-lab';
import createAttentionCore from '../../web/generated/attention-lab-core.js';
import { createCore } from '../../web/lib/core.js';
import { instantiateWith } from '../../web/lib/wasm-loader.js';
import { throwsLab } from './lab-asserts.mjs';

const core = await loadAttentionLab();
const MODEL_BYTES = new Uint8Array(readFileSync(new URL('../../web/models/trained.almodel', import.meta.url)));
const ARTICLE = '我喜欢人工智能';

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

test('rankAnswers: where the hidden text stands among the guesses, as predictMasked orders them', () => {
  const sentence = '我喜欢人工[MASK]能';
  const all = core.predictMasked(sentence, { topK: 50 })[0];
  // Each of the first fifty guesses is ranked where predictMasked lists it; shown only within topK.
  for (const k of [0, 4, 5, 49]) {
    const [rank] = core.rankAnswers(sentence, [all[k].token]);
    assert.deepEqual({ ...rank, pieces: [...rank.pieces] }, { answer: all[k].token, pieces: [all[k].token], guessable: true,
      rank: k + 1, candidates: rank.candidates, probability: all[k].probability, shown: k < 5 });
    assert.equal(core.rankAnswers(sentence, [all[k].token], { topK: k + 1 })[0].shown, true);
  }
  assert.ok(core.rankAnswers(sentence, ['智'])[0].candidates > 1000);
  // Traditional as typed; a word this vocabulary splits; several [MASK]s; knocked-out heads as predictMasked's.
  const [typed] = core.rankAnswers('我喜[MASK]人工智慧', ['歡']);
  assert.equal(typed.answer, '歡');
  assert.equal(typed.rank, 1);
  assert.deepEqual([...typed.pieces], ['欢']);
  const [midwife] = core.rankAnswers('my mother is a [MASK] at the hospital', ['midwife']);
  assert.equal(midwife.guessable, false);
  assert.equal(midwife.rank, 0);
  assert.equal(midwife.shown, false);
  assert.ok(midwife.pieces.length > 1);
  const two = core.rankAnswers('[MASK]喜欢人工[MASK]能', ['我', '智']);
  assert.equal(two.length, 2);
  assert.equal(two[0].rank, core.predictMasked('[MASK]喜欢人工[MASK]能', { topK: 50 })[0].findIndex((g) => g.token === '我') + 1);
  const off = [{ layer: 1, head: 0 }];
  const offFirst = core.predictMasked(sentence, { knockOut: off })[0][0];
  assert.equal(core.rankAnswers(sentence, [offFirst.token], { knockOut: off })[0].rank, 1);
  assert.equal(core.rankAnswers(sentence, [offFirst.token], { depth: 2 })[0].rank, core.rankAnswers(sentence, [offFirst.token])[0].rank);
  throwsLab(() => core.rankAnswers(sentence, '智'), 'invalid_argument', /answers must be an array of strings/);
  throwsLab(() => core.rankAnswers(sentence, ['智', '能']), 'invalid_argument', /one text for each \[MASK\] of the sentence: it has 1, got 2/);
  throwsLab(() => core.rankAnswers(sentence, ['']), 'invalid_argument', /empty text/);
  throwsLab(() => core.rankAnswers('我喜欢', ['我']), 'invalid_argument', /no \[MASK\]/);
  throwsLab(() => core.rankAnswers(sentence, ['智'], { topK: 51 }), 'invalid_argument', /topK/);
  throwsLab(() => core.rankAnswers(sentence, ['智'], { model: 'random' }), 'invalid_option', /rankAnswers needs a trained model/);
});

test('loadModel: a damaged, cut or other-version file is refused with the reason; the models stay usable', () => {
  const flipped = MODEL_BYTES.slice();
  flipped[flipped.length >> 1] ^= 0x10;
  throwsLab(() => core.loadModel('trained', flipped), 'invalid_model', /checksum does not match/);
  throwsLab(() => core.loadModel('trained', MODEL_BYTES.slice(0, 1000)), 'invalid_model', /damaged or not a model/);
  const other = MODEL_BYTES.slice();
  other[7] = '9'.charCodeAt(0); // ALMODEL4 is a checkpoint's file (bert.test.mjs)
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
  const wasm = await WebAssembly.compile(readFileSync(new URL('../../web/generated/attention-lab-core.wasm', import.meta.url)));
  for (const [given, reason] of [[MODEL_BYTES.slice(0, MODEL_BYTES.length - 9), /damaged/], [new Error('HTTP 404'), /HTTP 404/]]) {
    const fresh = createCore(await instantiateWith(createAttentionCore, wasm), given);
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

test('predictMasked at a depth: the prediction layer read after the embeddings (0) and after each layer; the last depth is the model’s guess', () => {
  const { layers } = core.models.find((m) => m.trained);
  const text = '我喜欢人工[MASK]能';
  assert.deepEqual(core.predictMasked(text, { depth: layers }), core.predictMasked(text));
  const lists = Array.from({ length: layers + 1 }, (_, depth) => core.predictMasked(text, { depth })[0]);
  for (const list of lists) {
    assert.equal(list.length, 5);
    list.slice(1).forEach((g, k) => assert.ok(list[k].probability >= g.probability));
  }
  // Each depth reads another row: after the embeddings the head sees 智's neighbours' traces only.
  assert.notDeepEqual(lists[0], lists[layers]);
  assert.notDeepEqual(lists[1], lists[layers]);
  // After the embeddings the row is the [MASK]'s embedding and its position only (what the lens view says).
  assert.deepEqual(core.predictMasked('我喜[MASK]人工智能', { depth: 0 }), core.predictMasked('他们[MASK]天去学校', { depth: 0 }));
  assert.notDeepEqual(core.predictMasked('我喜[MASK]人工智能', { depth: 0 }), core.predictMasked('我[MASK]欢人工智能', { depth: 0 }));
  // Knock-outs hold at every depth, as for the model's guess.
  assert.notDeepEqual(core.predictMasked(text, { depth: 1, knockOut: [{ layer: 0, head: 0 }] }), core.predictMasked(text, { depth: 1 }));
  assert.deepEqual(core.predictMasked(text, { depth: 0, knockOut: [{ layer: 1, head: 0 }] }), core.predictMasked(text, { depth: 0 }), 'a head of layer 2 changes nothing before it');
  throwsLab(() => core.predictMasked(text, { depth: layers + 1 }), 'invalid_argument', new RegExp(`depth must be an integer from 0 \\(after the embeddings\\) to ${layers} \\(after the last layer\\), got ${layers + 1}`));
  throwsLab(() => core.predictMasked(text, { depth: -1 }), 'invalid_argument', /depth must be an integer from 0 .* got -1/);
  throwsLab(() => core.predictMasked(text, { depth: 0.5 }), 'invalid_argument', /depth must be an integer number/);
  throwsLab(() => core.predictMasked(text, { depth: '1' }), 'invalid_argument', /depth must be an integer number/);
});

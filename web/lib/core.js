// The JavaScript API over the wasm core: option checking, errors, memory rules.
//
// Rules every file of web/lib/ keeps: it computes nothing (every number comes
// from the C++ core); it imports only its siblings, by one-line
// `import { … } from './x.js';` statements, and exports only declarations, so
// scripts/bundle-single.mjs can join core.js and its siblings into the
// offline single script by dropping those two words.
//
// Memory rule: everything this API returns is a JS-owned copy (typed arrays
// included) that stays valid forever, whatever later calls do to the wasm heap.
// Only a Trace holds wasm memory; trace.dispose() frees it.
import { AttentionLabError, CHECKS, checkFlag, checkIndex, checkKnockOut, checkOverride, checkSentence, describe, fail, unwrap } from './checks.js';
import { Trace, freeWasm } from './trace.js';
import { rowMaths } from './row-maths.js';

export { AttentionLabError };

/** The id of the model the API runs by default: the trained model shipped
 *  with the package (web/models/trained.almodel). */
export const TRAINED_MODEL = 'trained';

// The seeded model's options, and what a trained model fixes them to.
const OPTION_KINDS = Object.freeze({
  model: 'string',
  knockOut: 'array',
  override: 'override',
  dModel: 'integer',
  dK: 'integer',
  seed: 'integer',
  scale: 'boolean',
  causal: 'boolean',
  positional: 'boolean',
  layers: 'integer',
  heads: 'integer',
  vocabSize: 'integer',
  embedding: 'integer',
});

// Checks each option's JS type; the core checks ranges.
function checkOptions(options) {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    fail(`options must be an object such as { dK: 64 }, got ${describe(options)}`, 'invalid_option');
  }
  const given = {};
  for (const [name, value] of Object.entries(options)) {
    const kind = OPTION_KINDS[name];
    if (!kind) {
      fail(`unknown option "${name}"; the options are ${Object.keys(OPTION_KINDS).join(', ')}`,
        'invalid_option', { name, got: '' });
    }
    if (value === undefined) continue;
    const bad = (kind === 'integer' && !Number.isSafeInteger(value))
      || (kind === 'boolean' && typeof value !== 'boolean')
      || (kind === 'string' && typeof value !== 'string');
    if (bad) {
      const wanted = { integer: 'an integer number', boolean: 'true or false', string: 'a model id (a string)' }[kind];
      fail(`${name} must be ${wanted}, got ${describe(value)}`, 'invalid_option', { name, got: describe(value) });
    }
    given[name] = kind === 'array' ? checkKnockOut(value) : kind === 'override' ? checkOverride(value) : value;
  }
  return given;
}

/** Builds the public API object over an instantiated Emscripten module.
 *  trained: the shipped model file's bytes (Uint8Array), or the Error that
 *  kept them from being read; the core works without it, on the random model.
 *  loadAfter(): a promise of the module with the after-the-article functions
 *  (tile by tile, rollout, one matrix or two), loaded by loadAfterArticle().
 *  loadModels(): a promise of the module that opens BERT checkpoints (models-wasm.js), loaded
 *  when loadModel() is first given a checkpoint; absent where the build does not carry it. */
export function createCore(core, trained, loadAfter, loadModels) {
  const constants = core.constants();
  const defaults = Object.freeze(constants.defaults);
  let liveTraces = 0;

  // A safety net for traces that are dropped without dispose(): the garbage
  // collector frees their wasm memory eventually. dispose() is still the rule.
  const registry = typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry((wasm) => { liveTraces -= 1; freeWasm(wasm); })
    : null;
  // A module loaded once, when first asked for (its promise; keep(module) takes it): a failed load
  // rejects with 'load_failed' and may be tried again.
  const loadOnce = (load, what, keep) => {
    let loading = null;
    return () => (loading ??= Promise.resolve().then(load).then(keep, (error) => {
      loading = null;
      throw new AttentionLabError(`${what} could not be loaded: ${error?.message ?? error}`, 'load_failed', { reason: String(error?.message ?? error) });
    }));
  };
  let after = null; // the after-the-article module, once loaded
  const loadAfterOnce = loadOnce(loadAfter, 'the after-the-article module', (module) => { after = module; });
  const owner = {
    /** The after-the-article module, or an error saying how to load it. */
    after(what) {
      if (!after) fail(`${what} is computed by the after-the-article module: \`await core.loadAfterArticle()\` first`, 'not_loaded', { what });
      return after;
    },
    register(trace, wasm) {
      liveTraces += 1;
      registry?.register(trace, wasm, trace);
    },
    release(trace, wasm) {
      registry?.unregister(trace);
      liveTraces -= 1;
      freeWasm(wasm);
    },
  };

  // Imported BERT checkpoints live in a module of their own, with their entries (models-wasm.js).
  let checkpoints = null; // { module, has(id), infos(), open(), unload(), memory() }, once loaded
  const loadCheckpointsOnce = loadOnce(loadModels, 'the module that opens checkpoints', (side) => { checkpoints = side; });
  const engine = (id) => (checkpoints?.has(id) ? checkpoints.module : core); // the module that runs model id
  const freezeInfo = (m) => Object.freeze({ ...m, fixed: Object.freeze(m.fixed) });
  // The core's list of models (trained ones, imported checkpoints, the random one), asked again
  // only when a model is loaded or unloaded.
  const readModels = () => {
    const main = core.models().map(freezeInfo);
    return Object.freeze([...main.filter((m) => m.trained), ...(checkpoints?.infos() ?? []), ...main.filter((m) => !m.trained)]);
  };
  let models = readModels();
  const listModels = () => models;
  const loadCheckpoint = async (id, files, options) => {
    if (!loadModels) fail('this build of the lab cannot open checkpoints: load the module build (attention-lab.js)', 'not_available');
    await loadCheckpointsOnce();
    const info = await checkpoints.open(id, files, options, { checks: CHECKS, taken: core.models().some((m) => m.id === id), freeze: freezeInfo });
    models = readModels();
    return info;
  };
  // A checkpoint's files are an object naming model.safetensors (or model.almodel: a model file
  // npm run import-model wrote from one); a built-in model's file is its bytes.
  const isCheckpoint = (files) => files !== null && typeof files === 'object' && !ArrayBuffer.isView(files)
    && !(files instanceof ArrayBuffer) && ('model.safetensors' in files || 'model.almodel' in files);
  const BERT_FILE = 'ALMODEL4';
  const loadModel = (id, bytes, options) => {
    if (typeof id !== 'string') fail(`a model id must be a string, got ${describe(id)}`, 'invalid_argument');
    if (isCheckpoint(bytes)) return loadCheckpoint(id, bytes, options);
    if (!(bytes instanceof Uint8Array)) {
      fail(`a model file is given as a Uint8Array of its bytes, or a checkpoint as { 'config.json', 'vocab.txt', 'model.safetensors' }, got ${describe(bytes)}`, 'invalid_argument');
    }
    if (bytes.length >= 8 && String.fromCharCode(...bytes.subarray(0, 8)) === BERT_FILE) {
      fail('this model file holds a BERT checkpoint: open it with loadModel(id, { \'model.almodel\': bytes }), which returns a promise', 'invalid_argument');
    }
    const info = Object.freeze(unwrap(core.loadModel(id, bytes)));
    checkpoints?.unload(id, CHECKS);
    models = readModels();
    return info;
  };
  let modelError = null;
  if (trained instanceof Uint8Array) {
    try {
      loadModel(TRAINED_MODEL, trained);
    } catch (error) {
      modelError = error;
    }
  } else if (trained !== undefined) {
    const detail = trained instanceof Error ? trained.message : String(trained);
    modelError = new AttentionLabError(`could not read the trained model's file: ${detail}`, 'invalid_model', { reason: detail });
  }

  // The model a call names (the trained one when it names none), or a clear error.
  const modelInfo = (id = TRAINED_MODEL) => {
    const info = listModels().find((m) => m.id === id);
    if (info) return info;
    if (id === TRAINED_MODEL && modelError) {
      fail(`the trained model is not available (${modelError.message}); { model: 'random' } still works`,
        'unknown_model', { id, reason: modelError.message });
    }
    const ids = listModels().map((m) => m.id).join(', ');
    fail(`there is no model "${id}"; the models are ${ids}`, 'unknown_model', { id, ids });
  };
  // The trained model a guessing call names (what), or a clear error for the random one.
  const guessingModel = (model, what) => {
    const info = modelInfo(checkOptions({ model }).model);
    if (!info.trained) fail(`the random model has no prediction head; ${what} needs a trained model`, 'invalid_option', { name: 'model', got: describe(model) });
    return info;
  };

  return Object.freeze({
    /** The seeded head's stage ids (every head's, in a trained model), in pipeline order. */
    stageNames: Object.freeze(constants.stageNames),
    /** A trained model's layer stage ids, in pipeline order (after its heads). */
    layerStageNames: Object.freeze(constants.layerStageNames),
    /** The core's default options for the random model. */
    defaults,
    /** { maxTokens, maxDModel, maxSeed, maxTextBytes }. */
    limits: Object.freeze(constants.limits),
    /** The exercises a set may name (?exercises=…, trace.exercise()), in the lab's order. */
    exerciseNames: Object.freeze(constants.exerciseNames),
    /** Loads what the lab computes after the article (trace.tiledRow, tiledAttention, rollout,
     *  rolloutRow, qkSymmetry, wordAttention): a module of its own, loaded once; those methods throw
     *  'not_loaded' before. A failed load rejects with 'load_failed' and may be tried again. */
    loadAfterArticle: loadAfterOnce,
    /** Whether loadAfterArticle() has loaded its module. */
    get afterArticleLoaded() {
      return after !== null;
    },

    /** Every model, trained ones first: { id, trained, layers, heads, dModel, dK, vocabSize, embedding }. */
    get models() {
      return listModels();
    },
    /** Why the shipped trained model could not be loaded (an AttentionLabError), or null. */
    get modelError() {
      return modelError;
    },
    /** Loads a model file (the bytes train_encoder --export writes) under an id;
     *  returns its entry of `models`. Throws AttentionLabError ('invalid_model')
     *  for a damaged file; the models loaded before stay.
     *  Given a Hugging Face BERT checkpoint instead, { 'config.json', 'vocab.txt',
     *  'model.safetensors', 'tokenizer_config.json'? } (each a Uint8Array, an ArrayBuffer or a
     *  Blob), returns a promise of its entry (architecture 'bert'); options: { onProgress(read,
     *  total) }. Rejects with the core's model_* codes for a damaged checkpoint (docs/models.md).
     *  { 'model.almodel' } (the same kinds of bytes): a model file npm run import-model wrote from
     *  a checkpoint, the same promise. */
    loadModel,
    /** An imported checkpoint as one model file (what npm run import-model writes), a promise of
     *  its bytes; options: { int8 } (the matrices as int8 rows, a quarter of the bytes). */
    async saveModelFile(id, options) {
      if (!checkpoints?.has(id)) fail(`"${id}" is not an imported checkpoint; only those are written as BERT model files`, 'invalid_argument', { id });
      return checkpoints.saveFile(id, options, CHECKS);
    },
    /** Frees an imported checkpoint; its traces keep working until disposed. */
    unloadModel(id) {
      if (typeof id !== 'string') fail(`a model id must be a string, got ${describe(id)}`, 'invalid_argument');
      if (!checkpoints?.has(id)) {
        fail(`"${id}" is not an imported checkpoint; only those can be unloaded`, listModels().some((m) => m.id === id) ? 'invalid_argument' : 'unknown_model', { id });
      }
      checkpoints.unload(id, CHECKS);
      models = readModels();
    },

    /** Tokenizes the sentence and computes every stage. options: model (the
     *  trained model unless given; 'random' for the seeded head, whose dModel,
     *  dK, seed, scale, causal and positional apply), knockOut ([{ layer, head }]
     *  whose output is zeroed), override ({ layer, head, row, weights }: that head's row of
     *  weights in place of softmax's; a trained model's). Throws AttentionLabError. */
    run(sentence, options) {
      checkSentence(sentence);
      const { model, knockOut = [], override, ...rest } = checkOptions(options);
      const info = modelInfo(model);
      const fixed = info.fixed; // what the model fixes (the core's): a run may give these options only with these values
      const seeded = {};
      for (const [name, value] of Object.entries(rest)) {
        if (!(name in fixed)) seeded[name] = value;
        else if (value !== fixed[name]) {
          fail(info.trained
            ? `${name} is fixed by the trained model "${info.id}" (${info.layers} layer(s) of ${info.heads} heads, d_model ${info.dModel}, d_k ${info.dK}, vocabulary ${info.vocabSize}, scaled, no causal mask, positions on); use { model: 'random' } to change the seeded head's options`
            : `${name} is fixed by the random model (${info.layers} layer of ${info.heads} head, vocabulary ${info.vocabSize}), got ${describe(value)}`,
          'invalid_option', { name, got: describe(value) });
        }
      }
      if (!info.trained) {
        const extra = knockOut.length ? 'knockOut' : override ? 'override' : null;
        if (extra) fail(`${extra} needs a trained model; the random model has a single head`, 'invalid_option', { name: extra, got: extra === 'knockOut' ? 'an array' : 'an object' });
        const handle = unwrap(core.run(sentence, { ...defaults, ...seeded }));
        return new Trace(handle, owner, { config: { model: info.id, ...fixed, ...handle.config() } });
      }
      if (seeded.seed !== undefined) {
        fail(`seed applies to the random model; the trained model "${info.id}" has learned params`, 'invalid_option', { name: 'seed', got: describe(seeded.seed) });
      }
      const handle = unwrap(engine(info.id).runEncoder(info.id, sentence, knockOut, override));
      return new Trace(handle, owner, { config: handle.config(), layerStages: constants.layerStageNames, knockOut });
    },

    /** For each [MASK] (any case) in the sentence, the trained model's topK
     *  guesses, most likely first: [[{ token, probability }, …], …]. By default (wordsOnly) among characters and words;
     *  wordsOnly: false adds punctuation and symbols. Traditional guesses for a traditional sentence, or traditional: true.
     *  depth: where the prediction head reads each [MASK]'s row, 0 (after the embeddings) … layers (after the
     *  last layer: the model's guess, the default); earlier, what the head would say there (the "logit lens").
     *  override: as run's. */
    predictMasked(sentence, { topK = 5, model, knockOut = [], wordsOnly = true, traditional = false, depth, override } = {}) {
      checkSentence(sentence);
      checkIndex('topK', topK);
      checkFlag('wordsOnly', wordsOnly), checkFlag('traditional', traditional);
      if (depth !== undefined) checkIndex('depth', depth);
      const info = guessingModel(model, 'predictMasked');
      const lists = unwrap(engine(info.id).predictMasked(info.id, sentence, topK, checkKnockOut(knockOut), wordsOnly, traditional, depth,
        override === undefined ? undefined : checkOverride(override), undefined));
      return Object.freeze(lists.map((list) => Object.freeze(list.map((g) => Object.freeze(g)))));
    },

    /** Where the text each [MASK] hid stands among the model's guesses for it, ordered as
     *  predictMasked orders them (the same model, knockOut, wordsOnly and depth): one answer a [MASK];
     *  shown: among the topK guesses predictMasked lists. */
    rankAnswers(sentence, answers, { topK = 5, model, knockOut = [], wordsOnly = true, depth } = {}) {
      checkSentence(sentence);
      checkIndex('topK', topK);
      if (!Array.isArray(answers) || !answers.every((a) => typeof a === 'string')) {
        fail(`answers must be an array of strings, one for each [MASK], got ${describe(answers)}`, 'invalid_argument');
      }
      checkFlag('wordsOnly', wordsOnly);
      if (depth !== undefined) checkIndex('depth', depth);
      const info = guessingModel(model, 'rankAnswers');
      const ranks = unwrap(engine(info.id).predictMasked(info.id, sentence, topK, checkKnockOut(knockOut), wordsOnly, false, depth, undefined, answers));
      return Object.freeze(ranks.map((r) => Object.freeze({ ...r, pieces: Object.freeze(r.pieces) })));
    },

    /** After loadAfterArticle(), as the README's API says: what if one head's row were changed (what-if.js);
     *  one query and random keys in dK dimensions, and their plane (trace-after.js). */
    whatIf(sentence, options) { return owner.after('whatIf').whatIfOf({ api: this, after: owner.after('whatIf'), checks: CHECKS }, sentence, options); },
    randomKeys(dK, options) { return owner.after('randomKeys').randomKeysOf({ after: owner.after('randomKeys'), checks: CHECKS }, dK, options); },
    // The article's row calculators (row-maths.js).
    ...rowMaths(core),

    /** Counters for leak checks: wasm heap bytes in use, the wasm memory's
     *  size, traces not yet disposed, and Embind's live value handles. */
    memoryUsage() {
      return {
        heapBytesInUse: core.heapBytesInUse(),
        wasmMemoryBytes: core.HEAP8.buffer.byteLength,
        ...(checkpoints?.memory() ?? { checkpointsHeapBytesInUse: 0, checkpointsWasmMemoryBytes: 0 }),
        liveTraces,
        liveHandles: typeof core.count_emval_handles === 'function' ? core.count_emval_handles() : NaN,
      };
    },
  });
}

/** Memoizes an async loader; a failed load is reported as an
 *  AttentionLabError ('load_failed') and may be retried. */
export function makeLoader(load) {
  let loading = null;
  return function loadAttentionLab(options) {
    const start = typeof WebAssembly === 'object'
      ? load
      : () => Promise.reject(new Error('this browser does not support WebAssembly'));
    loading ??= start(options).catch((cause) => {
      loading = null;
      const detail = cause instanceof Error ? cause.message : String(cause);
      const error = new AttentionLabError(
        `could not load the WebAssembly core of Attention Lab: ${detail}`, 'load_failed');
      error.cause = cause;
      throw error;
    });
    return loading;
  };
}

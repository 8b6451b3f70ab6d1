// The JavaScript API over the wasm core: option checking, errors, memory rules.
//
// This file has no imports and only `export` statements at the top level, so
// the same source serves the ES module (attention-lab.js) and, with the
// `export` keywords stripped by scripts/bundle-single.mjs, the offline single
// script. It computes nothing: every number comes from the C++ core. That is
// also why it is one file of about 320 lines: with no imports it needs no
// bundler to become the single script.
//
// Memory rule: everything this API returns is a JS-owned copy (typed arrays
// included) that stays valid forever, whatever later calls do to the wasm heap.
// Only a Trace holds wasm memory; trace.dispose() frees it.

/** An error from the core or from checking the arguments. `code` is stable:
 *  invalid_text, invalid_utf8, empty_text, too_many_tokens, text_too_long, invalid_config,
 *  unknown_stage, invalid_argument, invalid_option, disposed, load_failed,
 *  out_of_memory, internal. */
export class AttentionLabError extends Error {
  /** params: the values the message quotes, by name (strings), so the page
   *  can say the same thing in another language. */
  constructor(message, code, params = {}) {
    super(message);
    this.name = 'AttentionLabError';
    this.code = code;
    this.params = Object.freeze({ ...params });
  }
}

const OPTION_KINDS = Object.freeze({
  dModel: 'integer',
  dK: 'integer',
  seed: 'integer',
  scale: 'boolean',
  causal: 'boolean',
  positional: 'boolean',
});

function describe(value) {
  if (value === null) return 'null';
  if (typeof value === 'string') {
    const text = value.length > 40 ? `${value.slice(0, 40)}…` : value;
    return `the string ${JSON.stringify(text)}`;
  }
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'undefined') {
    return String(value);
  }
  if (typeof value === 'bigint') return `${value}n (a BigInt)`;
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:^|[^\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function fail(message, code, params) {
  throw new AttentionLabError(message, code, params);
}

// Checks each option's JS type and fills defaults; the core checks ranges.
function resolveOptions(options, defaults) {
  if (options === undefined) return { ...defaults };
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    fail(`options must be an object such as { dK: 64 }, got ${describe(options)}`, 'invalid_option');
  }
  const resolved = { ...defaults };
  for (const [name, value] of Object.entries(options)) {
    const kind = OPTION_KINDS[name];
    if (!kind) {
      fail(`unknown option "${name}"; the options are ${Object.keys(OPTION_KINDS).join(', ')}`,
        'invalid_option', { name, got: '' });
    }
    if (value === undefined) continue;
    if (kind === 'integer' && !Number.isSafeInteger(value)) {
      fail(`${name} must be an integer number, got ${describe(value)}`, 'invalid_option', { name, got: describe(value) });
    }
    if (kind === 'boolean' && typeof value !== 'boolean') {
      fail(`${name} must be true or false, got ${describe(value)}`, 'invalid_option', { name, got: describe(value) });
    }
    resolved[name] = value;
  }
  return resolved;
}

// Bound functions answer {error, code} instead of throwing (see bindings.cpp).
function unwrap(result) {
  if (result && typeof result.error === 'string') fail(result.error, result.code, result.params);
  return result;
}

function wrapMatrix(m) {
  return Object.freeze({ rows: m.rows, cols: m.cols, data: m.data, min: m.min, max: m.max });
}

function checkNumbers(scores) {
  const isNumbers = Array.isArray(scores)
    ? scores.every((s) => typeof s === 'number')
    : ArrayBuffer.isView(scores) && !(scores instanceof DataView) && typeof scores[0] !== 'bigint';
  if (!isNumbers) fail(`scores must be an array of numbers, got ${describe(scores)}`, 'invalid_argument');
}

function checkIndex(name, value) {
  if (!Number.isSafeInteger(value)) fail(`${name} must be an integer number, got ${describe(value)}`, 'invalid_argument');
}

function checkFlag(name, value) {
  if (typeof value !== 'boolean') fail(`${name} must be true or false, got ${describe(value)}`, 'invalid_argument');
}

/* SOFTMAX_ROW: one row of scores through softmax, as the core's SoftmaxRow
 * (cpp/include/attention/softmax_row.hpp): { scores, divisor, scaled, masked,
 * exps, expSum, expsMin, expsMax, shares, overflowed, max, shiftedExps, shiftedSum, probs,
 * probSum, argmax, maxProb, entropy, jacobian, maxJacobian }. exps and expSum
 * are e^x with no shift, as the article prints them (they overflow to Infinity
 * for large x, and shares turn NaN); probs come from the stable, max-shifted
 * form. jacobian is { rows, cols, data } when asked for, else null. */
function freezeRow(row) {
  return Object.freeze({ ...row, jacobian: row.jacobian && wrapMatrix(row.jacobian) });
}

/** One run of the core: tokens, ids, resolved config, and every stage. */
class Trace {
  #handle;
  #onDispose;

  constructor(handle, onDispose) {
    this.#handle = handle;
    this.#onDispose = onDispose;
    const { texts, ids } = handle.tokens();
    /** Token texts, [CLS] first and [SEP] last. */
    this.tokens = Object.freeze(texts);
    /** Vocabulary ids (Int32Array), one per token. */
    this.ids = ids;
    /** The configuration used, defaults filled in. */
    this.config = Object.freeze(handle.config());
    /** What every score is divided by: √dK when scaling is on, else 1. */
    this.divisor = handle.divisor();
  }

  /** A stage by id: { rows, cols, data: Float32Array, min, max }, row-major
   *  (data[i * cols + j]); min and max are over the finite entries. The data
   *  is a copy the caller owns. */
  stage(id) {
    return wrapMatrix(unwrap(this.#live().stage(this.#stageId(id))));
  }

  /** Query row i through softmax, every intermediate (see SOFTMAX_ROW below):
   *  its scores, scaled and masked rows, and probs = its weights row. */
  softmaxRow(i, { jacobian = false } = {}) {
    checkIndex('row', i);
    checkFlag('jacobian', jacobian);
    return freezeRow(unwrap(this.#live().softmaxRow(i, jacobian)));
  }

  /** The terms of one cell: for 'scores', a = q_i, b = k_j; for 'output',
   *  a = weights row i, b = v column j. { a, b, products, total,
   *  productsMin, productsMax }. */
  dotTerms(id, i, j) {
    checkIndex('row', i);
    checkIndex('column', j);
    return Object.freeze(unwrap(this.#live().dotTerms(this.#stageId(id), i, j)));
  }

  /** ×V for query i: row k is weights(i, k) · v_k; the rows add up to output row i. */
  weightedRows(i) {
    checkIndex('row', i);
    return wrapMatrix(unwrap(this.#live().weightedRows(i)));
  }

  /** Σ of each row of a stage (−∞ counts as 0): Float32Array. */
  rowSums(id) {
    return unwrap(this.#live().rowSums(this.#stageId(id)));
  }

  /** Cosine similarity of row a of one stage and row b of another (same width). */
  cosine(idA, rowA, idB, rowB) {
    return this.cosineWith(this, idA, rowA, idB, rowB);
  }

  /** Cosine similarity of row rowA of stage idA here and row rowB of stage idB in another trace. */
  cosineWith(other, idA, rowA, idB, rowB) {
    if (!(other instanceof Trace)) fail(`cosineWith needs another trace, got ${describe(other)}`, 'invalid_argument');
    checkIndex('row', rowA);
    checkIndex('row', rowB);
    return unwrap(this.#live().cosine(other.#live(), this.#stageId(idA), rowA, this.#stageId(idB), rowB));
  }

  #live() {
    if (!this.#handle) fail('this trace was disposed; run the sentence again to get a new one', 'disposed');
    return this.#handle;
  }

  #stageId(id) {
    if (typeof id !== 'string') fail(`a stage id must be a string, got ${describe(id)}`, 'unknown_stage');
    return id;
  }

  get disposed() {
    return this.#handle === null;
  }

  /** Frees the wasm memory behind the trace. Safe to call twice. tokens, ids
   *  and config stay readable; stage() throws afterwards. */
  dispose() {
    if (!this.#handle) return;
    const handle = this.#handle;
    this.#handle = null;
    this.#onDispose(this, handle);
  }
}

/** Builds the public API object over an instantiated Emscripten module. */
export function createLab(core) {
  const constants = core.constants();
  const defaults = Object.freeze(constants.defaults);
  let liveTraces = 0;

  // A safety net for traces that are dropped without dispose(): the garbage
  // collector frees their wasm memory eventually. dispose() is still the rule.
  const registry = typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry((handle) => { liveTraces -= 1; handle.delete(); })
    : null;
  const release = (trace, handle) => {
    registry?.unregister(trace);
    liveTraces -= 1;
    handle.delete();
  };

  return Object.freeze({
    /** Every stage id, in pipeline order. */
    stageNames: Object.freeze(constants.stageNames),
    /** The core's default options. */
    defaults,
    /** { maxTokens, maxDModel, maxSeed, maxTextBytes }. */
    limits: Object.freeze(constants.limits),

    /** Tokenizes the sentence and computes every stage. Throws AttentionLabError. */
    run(sentence, options) {
      if (typeof sentence !== 'string') {
        fail(`the sentence must be a string, got ${describe(sentence)}`, 'invalid_argument');
      }
      // Embind's UTF-8 encoder would silently pair a lone surrogate with the
      // next character; refuse it here with a clear message instead.
      const lone = LONE_SURROGATE.exec(sentence);
      if (lone) {
        const at = lone.index + (lone[0].length - 1);
        const unit = sentence.charCodeAt(at).toString(16).toUpperCase();
        fail(`the sentence has half of a character (a lone UTF-16 surrogate, U+${unit}) at index ${at}; was an emoji cut in two?`,
          'invalid_text', { index: String(at), unit });
      }
      const config = resolveOptions(options, defaults);
      const handle = unwrap(core.run(sentence, config));
      const trace = new Trace(handle, release);
      liveTraces += 1;
      registry?.register(trace, handle, trace);
      return trace;
    },

    /** One row of given scores through softmax (SOFTMAX_ROW above), divided
     *  first by √dK · temperature (both 1 unless given: no division). */
    softmaxRow(scores, { dK = 1, temperature = 1, jacobian = false } = {}) {
      checkNumbers(scores);
      if (!Number.isSafeInteger(dK)) fail(`dK must be an integer number, got ${describe(dK)}`, 'invalid_argument');
      if (typeof temperature !== 'number') fail(`temperature must be a number, got ${describe(temperature)}`, 'invalid_argument');
      checkFlag('jacobian', jacobian);
      return freezeRow(unwrap(core.softmaxRow(scores, dK, temperature, jacobian)));
    },

    /** ∂L/∂s of cross-entropy after softmax: probs − one_hot(target) (Float32Array). */
    crossEntropyGradient(probs, target) {
      if (!(Array.isArray(probs) || ArrayBuffer.isView(probs))) fail(`probs must be an array of numbers, got ${describe(probs)}`, 'invalid_argument');
      if (!Number.isSafeInteger(target) || target < 0) fail(`target must be an index (an integer from 0), got ${describe(target)}`, 'invalid_argument');
      return unwrap(core.crossEntropyGradient(probs, target));
    },

    /** q·k for `count` random pairs with N(0, 1) entries (seeded), before and
     *  after ÷√dK: { variance, scaledVariance, halfVectorDot, histogram,
     *  scaledHistogram (Uint32Array, `bins` counts over [−range, range]), range, scaledRange }. */
    sampleDotProducts(dK, { count = 2000, bins = 40, seed = 42 } = {}) {
      for (const [name, v] of Object.entries({ dK, count, bins, seed })) {
        if (!Number.isSafeInteger(v)) fail(`${name} must be an integer number, got ${describe(v)}`, 'invalid_argument');
      }
      return Object.freeze(unwrap(core.sampleDotProducts(dK, count, bins, seed)));
    },

    /** Counters for leak checks: wasm heap bytes in use, the wasm memory's
     *  size, traces not yet disposed, and Embind's live value handles. */
    memoryUsage() {
      return {
        heapBytesInUse: core.heapBytesInUse(),
        wasmMemoryBytes: core.HEAP8.buffer.byteLength,
        liveTraces,
        liveHandles: typeof core.count_emval_handles === 'function' ? core.count_emval_handles() : NaN,
      };
    },
  });
}

/** The wasm bytes from base64 of their gzip (how the offline files carry
 *  them: a third of the size of Emscripten's plain base64), unpacked by the
 *  browser's own DecompressionStream: nothing is fetched. */
export async function inflateWasm(base64) {
  if (typeof DecompressionStream !== 'function') {
    throw new Error('this browser is too old to unpack the built-in WebAssembly (it has no DecompressionStream)');
  }
  const packed = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const stream = new Blob([packed]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Memoizes an async loader; a failed load is reported as an
 *  AttentionLabError ('load_failed') and may be retried. */
export function makeLoader(load) {
  let loading = null;
  return function loadAttentionLab() {
    const start = typeof WebAssembly === 'object'
      ? load
      : () => Promise.reject(new Error('this browser does not support WebAssembly'));
    loading ??= start().catch((cause) => {
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

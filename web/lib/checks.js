// The API's errors and argument checks (see core.js for the rules every file of
// web/lib/ keeps: no numbers computed here, only imports of siblings).

/** An error from the core or from checking the arguments. `code` is stable:
 *  invalid_text, invalid_utf8, empty_text, too_many_tokens, text_too_long, invalid_config,
 *  unknown_stage, invalid_argument, invalid_option, invalid_model, unknown_model, disposed,
 *  load_failed, not_loaded, out_of_memory, internal; and from a training run text_too_short,
 *  trainer_load_failed, worker_failed, aborted; and from opening a checkpoint model_empty,
 *  model_truncated, model_bad_json, model_not_bert, model_heads, model_shape, model_missing_tensor,
 *  model_dtype, model_vocab, model_values, model_too_large, not_available (the list of ErrorCode in
 *  web/types/attention-lab.d.ts). */
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

export function describe(value) {
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
  return /^[aeiou]/.test(typeof value) ? `an ${typeof value}` : `a ${typeof value}`;
}

export function fail(message, code, params) {
  throw new AttentionLabError(message, code, params);
}

// Bound functions answer {error, code, params} instead of throwing (see bindings.cpp).
/** Such an answer as a plain { message, code, params } (to post across a worker), or null. */
export const failureOf = (result) => (result && typeof result.error === 'string'
  ? { message: result.error, code: result.code, params: result.params ?? {} } : null);

/** result, or its error thrown as an AttentionLabError. */
export function unwrap(result) {
  const failure = failureOf(result);
  if (failure) fail(failure.message, failure.code, failure.params);
  return result;
}

export function wrapMatrix(m) {
  return Object.freeze({ rows: m.rows, cols: m.cols, data: m.data, min: m.min, max: m.max });
}

export function checkNumbers(scores) {
  const isNumbers = Array.isArray(scores)
    ? scores.every((s) => typeof s === 'number')
    : ArrayBuffer.isView(scores) && !(scores instanceof DataView) && typeof scores[0] !== 'bigint';
  if (!isNumbers) fail(`scores must be an array of numbers, got ${describe(scores)}`, 'invalid_argument');
}

export function checkIndex(name, value) {
  if (!Number.isSafeInteger(value)) fail(`${name} must be an integer number, got ${describe(value)}`, 'invalid_argument');
}

export function checkFlag(name, value) {
  if (typeof value !== 'boolean') fail(`${name} must be true or false, got ${describe(value)}`, 'invalid_argument');
}

// { layer, head } with integer fields (both 0 when absent), or fails naming `what`.
export function checkHead(where, what = 'a head') {
  if (where === null || typeof where !== 'object' || Array.isArray(where)) {
    fail(`${what} is given as { layer, head }, got ${describe(where)}`, 'invalid_argument');
  }
  const { layer = 0, head = 0 } = where;
  checkIndex('layer', layer);
  checkIndex('head', head);
  return { layer, head };
}

// knockOut: an array of { layer, head }.
export function checkKnockOut(list) {
  if (!Array.isArray(list)) fail(`knockOut must be an array of { layer, head }, got ${describe(list)}`, 'invalid_option', { name: 'knockOut', got: describe(list) });
  return list.map((where) => checkHead(where, 'each head to knock out'));
}

// override: { layer, head, row, weights } (one head's row of weights put in place of softmax's), as the core reads it.
export function checkOverride(o) {
  if (o === null || typeof o !== 'object' || Array.isArray(o)) fail(`override must be { layer, head, row, weights }, got ${describe(o)}`, 'invalid_option', { name: 'override', got: describe(o) });
  const { layer, head } = checkHead(o, 'the overridden head');
  checkIndex('the overridden row', o.row);
  checkNumbers(o.weights);
  return { layer, head, row: o.row, weights: o.weights };
}

// words: an array of { from, to } (token indices, both included), as plain objects the core reads.
export function checkWords(list) {
  if (!Array.isArray(list)) fail(`words must be an array of { from, to }, got ${describe(list)}`, 'invalid_argument');
  return list.map((word) => {
    if (word === null || typeof word !== 'object') fail(`each word is { from, to }, got ${describe(word)}`, 'invalid_argument');
    checkIndex('a word\'s from', word.from);
    checkIndex('a word\'s to', word.to);
    return { from: word.from, to: word.to };
  });
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:^|[^\uD800-\uDBFF])[\uDC00-\uDFFF]/;

// A sentence must be a string of whole characters: Embind's UTF-8 encoder would
// silently pair a lone surrogate with the next character, so refuse it here.
export function checkSentence(sentence) {
  if (typeof sentence !== 'string') {
    fail(`the sentence must be a string, got ${describe(sentence)}`, 'invalid_argument');
  }
  const lone = LONE_SURROGATE.exec(sentence);
  if (lone) {
    const at = lone.index + (lone[0].length - 1);
    const unit = sentence.charCodeAt(at).toString(16).toUpperCase();
    fail(`the sentence has half of a character (a lone UTF-16 surrogate, U+${unit}) at index ${at}; was an emoji cut in two?`,
      'invalid_text', { index: String(at), unit });
  }
}

/* SOFTMAX_ROW: one row of scores through softmax, as the core's SoftmaxRow
 * (cpp/include/attention/softmax_row.hpp): { scores, divisor, scaled, masked,
 * exps, expSum, expsMin, expsMax, shares, overflowed, max, shiftedExps, shiftedSum, probs,
 * probSum, argmax, maxProb, order (the keys by probability, largest first), entropy, jacobian,
 * maxJacobian }. exps and expSum
 * are e^x with no shift, as the article prints them (they overflow to Infinity
 * for large x, and shares turn NaN); probs come from the stable, max-shifted
 * form. jacobian is { rows, cols, data } when asked for, else null. */
export function freezeRow(row) {
  return Object.freeze({ ...row, jacobian: row.jacobian && wrapMatrix(row.jacobian) });
}

/** The checks the after-the-article functions use (trace-after.js, what-if.js): handed to them by
 *  trace.js and core.js, so that they import nothing of the first load's files. */
export const CHECKS = Object.freeze({ checkFlag, checkHead, checkIndex, checkNumbers, checkWords, describe, fail, unwrap, wrapMatrix });

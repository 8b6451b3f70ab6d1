// The article's calculations on rows of numbers, each asked of the core: softmax of one row (the
// side panel's), what ÷√d_k does to a row, dividing by the largest instead, two rows of weights
// compared, how the variance of q·k grows with d_k, the cross-entropy gradient, and sampled dot
// products. core.js spreads them into the API object; like every file of web/lib/, it computes
// nothing itself.
import { checkFlag, checkIndex, checkNumbers, describe, fail, freezeRow, unwrap } from './checks.js';

/** The API's row calculators over an instantiated Emscripten module (core). */
export function rowMaths(core) {
  return {
    /** One row of given scores through softmax (SOFTMAX_ROW in checks.js), divided
     *  first by √dK · temperature (both 1 unless given: no division). */
    softmaxRow(scores, { dK = 1, temperature = 1, jacobian = false } = {}) {
      checkNumbers(scores);
      checkIndex('dK', dK);
      if (typeof temperature !== 'number') fail(`temperature must be a number, got ${describe(temperature)}`, 'invalid_argument');
      checkFlag('jacobian', jacobian);
      return freezeRow(unwrap(core.softmaxRow(scores, dK, temperature, jacobian)));
    },

    /** What ÷√d_k does to a row (cpp/include/attention/softmax_row.hpp, scaling_effect): { unscaled, scaled (the
     *  largest probability at d_k = 1 and at dK), shape: 'peaked' (higher without ÷√d_k), 'flatter' or 'same'
     *  (within 0.01); unscaledJacobian, scaledJacobian (the largest |∂p_i/∂s_j|), jacobian; and with a target,
     *  unscaledGradient, scaledGradient (the largest |p − one-hot(target)|), gradient: each 'smaller', 'larger' or
     *  'same' (within 10 %) without ÷√d_k against with it; gradient is '' without a target }. */
    scalingEffect(scores, { dK = 1, target } = {}) {
      checkNumbers(scores);
      checkIndex('dK', dK);
      if (target !== undefined) {
        checkIndex('target', target);
        if (target < 0) fail(`target must be an index (an integer from 0), got ${target}`, 'invalid_argument');
      }
      return Object.freeze(unwrap(core.scalingEffect(scores, dK, target ?? -1)));
    },
    /** The article's "why not divide by the maximum?": scores ÷ their largest. { values (Float32Array), sum,
     *  negatives, kind: 'distribution' (none negative, sum 1), 'not', or 'undefined' (the largest is 0 or below) }. */
    divideByMax(scores) {
      checkNumbers(scores);
      return Object.freeze(unwrap(core.divideByMax(scores)));
    },
    /** Two rows of weights over the same keys (the article's 喜 row beside a head's): { topA, topB, sameTop,
     *  selfA, selfB (each row's weight on token `self`), self: 'smaller', 'larger' or 'same' (b's against a's) }. */
    compareRows(a, b, self) {
      checkNumbers(a);
      checkNumbers(b);
      checkIndex('self', self);
      return Object.freeze(unwrap(core.compareRows(a, b, self)));
    },
    /** The variance of q·k for N(0, 1) entries at two widths: { fromVariance, toVariance, ratio,
     *  growth: 'same', 'doubles' or 'quadruples' (the nearest on a log scale) }. */
    varianceGrowth(fromDK, toDK, { count = 2000, seed = 42 } = {}) {
      for (const [name, v] of Object.entries({ fromDK, toDK, count, seed })) checkIndex(name, v);
      return Object.freeze(unwrap(core.varianceGrowth(fromDK, toDK, count, seed)));
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
      for (const [name, v] of Object.entries({ dK, count, bins, seed })) checkIndex(name, v);
      return Object.freeze(unwrap(core.sampleDotProducts(dK, count, bins, seed)));
    },
  };
}

// Types of the API's row calculators (web/lib/row-maths.js), part of every Core: the article's
// calculations on rows of scores, each computed by the C++ core.
import type { SoftmaxRow } from './attention-lab.js';

export interface DotProductSample {
  readonly variance: number;
  readonly scaledVariance: number;
  readonly halfVectorDot: number;
  readonly histogram: Uint32Array;
  readonly scaledHistogram: Uint32Array;
  readonly range: number;
  readonly scaledRange: number;
}

export interface RowMaths {
  /** One row of given scores through softmax, divided first by √dK · temperature (both 1 unless given). */
  softmaxRow(scores: ArrayLike<number>, options?: { dK?: number; temperature?: number; jacobian?: boolean }): SoftmaxRow;
  /** what ÷√d_k does to a row's largest weight: its max probability without and with it, and the row's shape
   *  without it ('peaked': that weight more than 0.01 higher; 'flatter': lower; else 'same') */
  scalingEffect(scores: ArrayLike<number>, options?: { dK?: number; target?: number }): {
    readonly unscaled: number; readonly scaled: number; readonly shape: 'peaked' | 'flatter' | 'same';
    /** The Jacobian's largest entry with respect to softmax's input, without and with ÷√d_k; back at q·k the
     *  scaled one carries 1/√d_k too (scaledJacobianQk), and the verdict compares there. */
    readonly unscaledJacobian: number; readonly scaledJacobian: number; readonly scaledJacobianQk: number;
    readonly jacobian: 'zero' | 'vanishes' | 'smaller' | 'larger' | 'same';
    /** How many times smaller the unscaled Jacobian's largest entry is than scaledJacobianQk ("about 1/N"): 0 unless both are above 0. */
    readonly jacobianTimes: number;
    readonly unscaledGradient: number; readonly scaledGradient: number; readonly gradient: 'smaller' | 'larger' | 'same' | '';
    /** The target is where the unscaled row's largest weight is (false without a target). */
    readonly targetOnPeak: boolean;
    /** 'saturates': even with ÷√d_k one key gets at least 0.9 of the row's weight */
    readonly scaledSaturation: 'saturates' | 'spread';
  };
  /** The article's "why not divide by the maximum?": scores ÷ their largest, and whether that is a distribution. */
  divideByMax(scores: ArrayLike<number>): { readonly values: Float32Array; readonly sum: number; readonly negatives: number; readonly kind: 'distribution' | 'not' | 'undefined' };
  /** Two rows of weights over the same keys: each one's largest, and their weights on token `self`. */
  compareRows(a: ArrayLike<number>, b: ArrayLike<number>, self: number): {
    readonly topA: number; readonly topB: number; readonly sameTop: boolean; readonly selfA: number; readonly selfB: number;
    readonly self: 'smaller' | 'larger' | 'same';
  };
  /** The variance of q·k for N(0, 1) entries at two widths, and what its ratio says. */
  varianceGrowth(fromDK: number, toDK: number, options?: { count?: number; seed?: number }): {
    readonly fromVariance: number; readonly toVariance: number; readonly ratio: number; readonly growth: 'same' | 'doubles' | 'quadruples';
  };
  crossEntropyGradient(probs: ArrayLike<number>, target: number): Float32Array;
  sampleDotProducts(dK: number, options?: { count?: number; bins?: number; seed?: number }): DotProductSample;
}

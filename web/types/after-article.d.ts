// Types of what the lab computes after the article (loaded by core.loadAfterArticle():
// trace.tiledRow, tiledAttention, wordAttention, rollout, rolloutRow, keyPlane; core.whatIf, randomKeys):
// re-exported by attention-lab.d.ts.
import type { Guess, Matrix } from './attention-lab.js';

/** One block of keys of a query row computed block by block (FlashAttention's online softmax). */
export interface TileBlock {
  /** the block's keys, [begin, end) */
  readonly begin: number;
  readonly end: number;
  /** their scaled scores (−Infinity where masked) */
  readonly scores: Float32Array;
  readonly blockMax: number;
  /** the running maximum m before and after the block */
  readonly maxBefore: number;
  readonly maxAfter: number;
  /** e^(maxBefore − maxAfter): what ℓ and the accumulator are multiplied by (0 on the first block, 1 while every key so far is masked) */
  readonly rescale: number;
  /** e^(s − maxAfter) for the block's keys */
  readonly exps: Float32Array;
  /** the running sum ℓ before and after */
  readonly sumBefore: number;
  readonly sumAfter: number;
  /** the accumulator Σ e^(s − m)·v (dK) before and after */
  readonly accBefore: Float32Array;
  readonly accAfter: Float32Array;
}

/** A query row computed block by block, and the same row computed whole. */
export interface TiledRow {
  readonly row: number;
  readonly block: number;
  readonly blocks: readonly TileBlock[];
  /** the last accAfter ÷ sumAfter */
  readonly output: Float32Array;
  /** the row as the whole computation gives it (the head's output row) */
  readonly full: Float32Array;
  /** max |output − full| */
  readonly maxDifference: number;
  /** maxDifference ÷ max |full| */
  readonly relativeDifference: number;
}

/** Every row block by block. */
export interface TiledAttention {
  readonly block: number;
  readonly output: Matrix;
  readonly maxDifference: number;
  readonly relativeDifference: number;
  /** n × n: the weights the whole computation holds at once */
  readonly fullScores: number;
  /** n × block: one block of weights for every query */
  readonly tiledScores: number;
}

/** A word: tokens from … to, both included. */
export interface WordSpan {
  readonly from: number;
  readonly to: number;
}

/** Attention rollout through every layer (Abnar & Zuidema, 2020). */
export interface Rollout {
  /** n × n: row i, output i's share of each input token */
  readonly rollout: Matrix;
  /** n × n: the last layer's attention averaged over its heads */
  readonly last: Matrix;
  /** per layer, the heads in its average (knocked-out heads are left out) */
  readonly averaged: Int32Array;
}

/** Row i of a rollout beside the same row of the last layer's average. */
export interface RolloutRow {
  readonly row: number;
  readonly rollout: Float32Array;
  readonly last: Float32Array;
  /** the other token (not row) with the largest share */
  readonly rolloutTop: number;
  readonly lastTop: number;
  /** the share on the token itself */
  readonly rolloutSelf: number;
  readonly lastSelf: number;
  /** the token's own share is at least the top other token's (else that token gets strictly more) */
  readonly rolloutSelfFirst: boolean;
  readonly lastSelfFirst: boolean;
  /** rolloutTop is not lastTop */
  readonly topsDiffer: boolean;
}

/** How far a head's scores Q·Kᵀ are from symmetric on a sentence, and its weight on itself. */
export interface QkSymmetry {
  /** ‖(C + Cᵀ)/2‖² ÷ ‖C‖² of the double-centred scores: 1 with one matrix for queries and keys */
  readonly symmetricShare: number;
  /** 1 − symmetricShare: the antisymmetric part's share */
  readonly antisymmetricShare: number;
  /** the weight a token keeps on itself, averaged over the real tokens as queries (headReport's shares.self) */
  readonly selfShare: number;
  /** 'next' or 'previous' when the head's report labels it so and yet symmetricShare is above 0.75; else null */
  readonly oneWay: 'next' | 'previous' | null;
  /** that direction's share in the head's report (0 when oneWay is null) */
  readonly oneWayShare: number;
}

/** How far a vector moved: |before|, |after|, |after − before|, that over |before|, and whether it moved at all. */
export interface Moved { readonly before: number; readonly after: number; readonly distance: number; readonly relative: number; readonly moved: boolean }

/** Query i and every key in a plane: x along q (x · |q| is the score), y the keys' largest spread square to q. */
export interface KeyPlane {
  readonly queryNorm: number; readonly keyX: Float32Array; readonly keyY: Float32Array; readonly queryX: Float32Array; readonly queryY: Float32Array;
  readonly scores: Float32Array; readonly kept: number; readonly secondAxis: boolean;
}

/** One query and random N(0, 1) keys in dK dimensions, and their plane. */
export interface RandomKeys {
  readonly queryNorm: number; readonly keyNorms: Float32Array; readonly scores: Float32Array; readonly scaled: Float32Array;
  readonly scoreSd: number; readonly scaledSd: number; readonly rootDk: number; readonly plane: KeyPlane;
}

/** What if one head's row had other weights: the rows, what moved, each [MASK]'s guesses. */
export interface WhatIf {
  readonly tokens: ReadonlyArray<string>; readonly layer: number; readonly head: number; readonly row: number; readonly renormalise: boolean;
  readonly weights: { readonly before: Float32Array; readonly after: Float32Array; readonly sum: number };
  readonly stages: ReadonlyArray<{ readonly id: 'output' | 'projected' | 'layerOutput'; readonly layer: number } & Moved>;
  readonly masks: ReadonlyArray<{ readonly index: number; readonly before: ReadonlyArray<Guess>; readonly after: ReadonlyArray<Guess>; readonly moved: Moved;
    readonly shift: { readonly firstBefore: string; readonly firstAfter: string; readonly sameFirst: boolean; readonly before: number; readonly after: number;
      readonly direction: 'up' | 'down' | 'same' | 'gone' } }>;
}

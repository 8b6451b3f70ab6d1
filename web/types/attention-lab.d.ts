// Types of Attention Lab's JavaScript API (web/lib/attention-lab.js), for
// TypeScript course code:  import { loadAttentionLab } from 'attention-lab';
// Every number comes from the C++ core; every array returned is a copy the
// caller owns. Only a Trace holds wasm memory: call trace.dispose().
import type { TileBlock, TiledRow, TiledAttention, WordSpan, Rollout, RolloutRow, QkSymmetry, KeyPlane, RandomKeys, WhatIf } from './after-article.js';
export type { TileBlock, TiledRow, TiledAttention, WordSpan, Rollout, RolloutRow, QkSymmetry, KeyPlane, RandomKeys, WhatIf, Moved } from './after-article.js';
import type { ExerciseName, Cell, Exercise, ExerciseResult } from './exercises.js';
export type { ExerciseName, MistakeId, Cell, Exercise, ExerciseResult } from './exercises.js';
import type { RowMaths } from './row-maths.js';
export type { RowMaths, DotProductSample } from './row-maths.js';

/** A stage id of one head: 'embeddings', 'positional', 'x', 'wq', 'wk', 'wv',
 *  'bq', 'bk', 'bv', 'q', 'k', 'v', 'scores', 'scaled', 'masked', 'weights',
 *  'output' (core.stageNames); or a trained model's layer stage (core.layerStageNames). */
export type StageId = string;

/** Stable error codes of AttentionLabError. */
export type ErrorCode =
  | 'invalid_text' | 'invalid_utf8' | 'empty_text' | 'too_many_tokens' | 'text_too_long'
  | 'invalid_config' | 'unknown_stage' | 'invalid_argument' | 'invalid_option' | 'invalid_model'
  | 'unknown_model' | 'disposed' | 'load_failed' | 'not_loaded' | 'out_of_memory' | 'internal'
  | 'text_too_short' | 'trainer_load_failed' | 'worker_failed' | 'aborted'
  | 'model_empty' | 'model_truncated' | 'model_bad_json' | 'model_not_bert' | 'model_heads'
  | 'model_shape' | 'model_missing_tensor' | 'model_dtype' | 'model_vocab' | 'model_values'
  | 'model_too_large' | 'not_available';

export class AttentionLabError extends Error {
  readonly name: 'AttentionLabError';
  readonly code: ErrorCode;
  /** The values the message quotes, by name, to say it in another language. */
  readonly params: Readonly<Record<string, string>>;
}

/** The id of the trained model shipped with the lab. */
export const TRAINED_MODEL: 'trained';

/** A head of a trained model, both counted from 0 (both 0 when absent). */
export interface Where {
  layer?: number;
  head?: number;
}

/** A row-major matrix: data[i * cols + j]; min and max over its finite entries. */
export interface Matrix {
  readonly rows: number;
  readonly cols: number;
  readonly data: Float32Array;
  readonly min: number;
  readonly max: number;
}

export interface RunOptions {
  /** 'trained' (the default), 'random' (the seeded head) or a loaded model's id. */
  model?: string;
  /** Heads whose output is zeroed (a trained model only). */
  knockOut?: ReadonlyArray<{ layer: number; head: number }>;
  /** One head's row of weights (one finite number ≥ 0 per token) in place of softmax's (a trained model only). */
  override?: { layer: number; head: number; row: number; weights: ArrayLike<number> };
  /** The seeded head's options (fixed by a trained model). */
  dModel?: number;
  dK?: number;
  seed?: number;
  scale?: boolean;
  causal?: boolean;
  positional?: boolean;
  layers?: number;
  heads?: number;
  vocabSize?: number;
  embedding?: number;
}

/** A run's configuration, every default filled in. */
export interface RunConfig {
  readonly model: string;
  readonly layers: number;
  readonly heads: number;
  readonly dModel: number;
  readonly dK: number;
  readonly vocabSize: number;
  /** A trained model's: the width of its token rows when its embedding is factorised (each row
   *  times one embedding × dModel matrix gives the embedding), 0 when it is not. */
  readonly embedding?: number;
  readonly scale: boolean;
  readonly causal: boolean;
  readonly positional: boolean;
  /** The random model's seed (absent for a trained model). */
  readonly seed?: number;
}

export interface ModelInfo {
  readonly id: string;
  readonly trained: boolean;
  readonly layers: number;
  readonly heads: number;
  readonly dModel: number;
  readonly dK: number;
  readonly vocabSize: number;
  /** The width of its token rows when its embedding is factorised, 0 when it is not. */
  readonly embedding: number;
  /** the options a run of this model may give only with these values (a trained model: its sizes
   *  and switches; the seeded one: its layers, heads and vocabulary) */
  readonly fixed: Readonly<Partial<Record<'layers' | 'heads' | 'vocabSize' | 'dModel' | 'dK' | 'embedding', number> & Record<'scale' | 'causal' | 'positional', boolean>>>;
  /** An imported checkpoint's (core.loadModel with a checkpoint's files): 'bert'. */
  readonly architecture?: 'bert';
  /** An imported checkpoint's name: config.json's _name_or_path, else its id. */
  readonly name?: string;
  /** An imported checkpoint's feed-forward width. */
  readonly dFf?: number;
  /** The most tokens an imported checkpoint reads ([CLS] and [SEP] included). */
  readonly maxTokens?: number;
}

/** A Hugging Face BERT checkpoint's files, each a Uint8Array, an ArrayBuffer or a Blob (a File,
 *  or Node's fs.openAsBlob()): a Blob is read a chunk at a time. */
export interface CheckpointFiles {
  readonly 'config.json': Uint8Array | ArrayBuffer | Blob;
  readonly 'vocab.txt': Uint8Array | ArrayBuffer | Blob;
  readonly 'model.safetensors': Uint8Array | ArrayBuffer | Blob;
  readonly 'tokenizer_config.json'?: Uint8Array | ArrayBuffer | Blob;
}

/** A model file npm run import-model (or core.saveModelFile) wrote from a checkpoint. */
export interface CheckpointModelFile {
  readonly 'model.almodel': Uint8Array | ArrayBuffer | Blob;
}

/** One row of scores through softmax, every intermediate (the article's table and the stable form). */
export interface SoftmaxRow {
  readonly scores: Float32Array;
  readonly divisor: number;
  readonly scaled: Float32Array;
  readonly masked: Float32Array;
  /** e^x with no shift, as the article prints them (Infinity once x passes ≈ 88.7). */
  readonly exps: Float32Array;
  readonly expSum: number;
  readonly expsMin: number;
  readonly expsMax: number;
  readonly shares: Float32Array;
  readonly overflowed: boolean;
  readonly max: number;
  readonly shiftedExps: Float32Array;
  readonly shiftedSum: number;
  /** The softmax (for a trace row: its weights row). */
  readonly probs: Float32Array;
  readonly probSum: number;
  readonly argmax: number;
  readonly maxProb: number;
  /** The keys by probability, largest first (ties: the earlier key). */
  readonly order: Int32Array;
  readonly entropy: number;
  readonly maxJacobian: number;
  readonly jacobian: Matrix | null;
}

export interface DotTerms {
  readonly a: Float32Array;
  readonly b: Float32Array;
  readonly products: Float32Array;
  readonly total: number;
  readonly productsMin: number;
  readonly productsMax: number;
}

export type HeadLabel = 'self' | 'previous' | 'next' | 'special' | 'same';

export interface HeadReport {
  readonly shares: Readonly<Record<HeadLabel, number>>;
  readonly label: HeadLabel | null;
  readonly knockedOut: boolean;
}

/**
 * The head a lab opens on for one token, by the rule the article's table illustrates: among the
 * heads whose row for the token gives its largest weight, after the token itself, to the token
 * just before or after it, a labelled head first, then a spread row (largest weight ≤ 0.9: a
 * softmax, not an argmax), then the token after (as 喜 → 欢 in the article's row), then the
 * largest weight on that neighbour, then the lower layer and head. `found` is false (layer 0, head 0) when no head looks at a neighbour first.
 */
export interface ArticleHead {
  readonly layer: number;
  readonly head: number;
  readonly found: boolean;
  /** The neighbour's token index, or null when not found. */
  readonly neighbour: number | null;
  readonly weight: number;
  readonly labelled: boolean;
  readonly spread: boolean;
  /** The neighbour is the token after it. */
  readonly next: boolean;
}

/**
 * How one token looks at another over every head of a trained model: the head that gives `to`
 * the largest weight in from's row (`first`: `to` is that row's largest weight but from's own,
 * [CLS] and [SEP] counted), and the head whose row for `from` puts the largest weight on one other real
 * token (`peakToken`).
 */
export interface TokenLink {
  readonly strongest: { readonly layer: number; readonly head: number };
  readonly weight: number;
  readonly first: boolean;
  readonly peak: { readonly layer: number; readonly head: number };
  readonly peakToken: number;
  readonly peakWeight: number;
}

export interface Guess {
  readonly token: string;
  readonly probability: number;
}

/** Where the text a [MASK] hid stands among the model's guesses for it (rankAnswers). */
export interface AnswerRank {
  readonly answer: string;
  /** The answer as the vocabulary's tokens: one when it can be a guess. */
  readonly pieces: ReadonlyArray<string>;
  /** One token among those the [MASK] is guessed among. */
  readonly guessable: boolean;
  /** 1 + how many of those the model puts before it, as predictMasked orders them (0: not guessable). */
  readonly rank: number;
  /** How many tokens the [MASK] is guessed among. */
  readonly candidates: number;
  /** Its probability, as the guesses' (0: not guessable). */
  readonly probability: number;
  /** Among the topK guesses predictMasked lists (rank 1 … topK). */
  readonly shown: boolean;
}

/** One run of the core. */
export interface Trace {
  /** Token texts as typed, [CLS] first and [SEP] last; forms: as the vocabulary holds them (歡 → 欢). */
  readonly tokens: readonly string[]; readonly forms: readonly string[];
  /** where each token's word stands in the sentence (UTF-16 units, string indices) and whether it
   *  can be hidden there behind [MASK]; null for [CLS] and [SEP] */
  readonly spans: ReadonlyArray<{ readonly begin: number; readonly end: number; readonly hideable: boolean } | null>;
  readonly ids: Int32Array;
  readonly config: RunConfig;
  readonly knockOut: ReadonlyArray<{ readonly layer: number; readonly head: number }>;
  /** √dK when scaling is on, else 1. */
  readonly divisor: number;
  readonly disposed: boolean;
  stage(id: StageId, where?: Where): Matrix;
  softmaxRow(i: number, options?: Where & { jacobian?: boolean }): SoftmaxRow;
  /** every row's plain e^x (no maximum subtracted, 0 where masked) and each row's total */
  expRows(where?: Where): { readonly exps: Matrix; readonly sums: Float32Array };
  /** query row i through softmax(QKᵀ/√d_k)·V a block of keys at a time */
  tiledRow(i: number, options: Where & { block: number }): TiledRow;
  /** every row block by block, against the whole computation */
  tiledAttention(options: Where & { block: number }): TiledAttention;
  /** how far a head's Q·Kᵀ is from symmetric (1: symmetric), its weight on itself over the real tokens, and whether it looks one way though mostly symmetric */
  qkSymmetry(where?: Where): QkSymmetry;
  /** a head's attention between words (to a word: the sum over its tokens; from a word: the mean) */
  wordAttention(words: ReadonlyArray<WordSpan>, where?: Where): { readonly groups: readonly WordSpan[]; readonly weights: Matrix };
  /** attention rollout through every layer, beside the last layer's head-averaged attention (between words, if given) */
  rollout(options?: { words?: ReadonlyArray<WordSpan> }): Rollout;
  rolloutRow(i: number): RolloutRow;
  /** query i and every key of head `where` in a plane (after loadAfterArticle()) */
  keyPlane(i: number, where?: { layer?: number; head?: number }): KeyPlane;
  dotTerms(id: 'scores' | 'output', i: number, j: number, where?: Where): DotTerms;
  weightedRows(i: number, where?: Where): Matrix;
  /** How much each token's value adds to output i: |p_ij · v_j|, and the longest term's token. */
  contributions(i: number, where?: Where): { readonly lengths: Float32Array; readonly strongest: number };
  /** What ÷√d_k did to a head's scores: their variance within rows (what softmax sees), averaged
   *  over the rows, before and after, and whether rows saturate (≥ saturatedAt). */
  scalingReport(where?: Where): {
    readonly scoreRowVariance: number; readonly scaledRowVariance: number; readonly variance: 'below' | 'unit' | 'above';
    readonly largestWeight: number; readonly saturatedRows: number; readonly rows: number; readonly saturatedAt: number;
    readonly saturation: 'saturates' | 'spread';
  };
  rowSums(id: StageId, where?: Where): Float32Array;
  headReport(where?: Where): HeadReport;
  /** The head to open on for token i (see ArticleHead). */
  articleHead(i: number): ArticleHead;
  /** Row i of a layer's attention, its heads together (after loadAfterArticle()): their mean
   *  (knocked-out heads left out), its keys by weight, and each head's largest weight for the row. */
  layerRow(i: number, where?: { layer?: number }): {
    readonly mean: Float32Array; readonly order: Int32Array; readonly headTop: Int32Array;
    readonly headWeight: Float32Array; readonly averaged: Uint8Array;
  };
  /** How token `from` looks at token `to` over every head of a trained model (see TokenLink). */
  tokenLink(from: number, to: number): TokenLink;
  cosine(idA: StageId, rowA: number, idB: StageId, rowB: number, where?: Where): number;
  cosineWith(other: Trace, idA: StageId, rowA: number, idB: StageId, rowB: number, where?: Where): number;
  exercise(name: ExerciseName, cell: Cell & Where): Exercise;
  pickCell(name: ExerciseName, options?: { row?: number; seed?: number } & Where): Cell;
  checkAnswer(name: ExerciseName, cell: Cell & Where, answer: number): ExerciseResult;
  /** Frees the wasm memory behind the trace; safe to call twice. */
  dispose(): void;
}

/** The core: the wasm core's API, one per page (loadAttentionLab()). */
export interface Core extends RowMaths {
  readonly stageNames: readonly string[];
  readonly layerStageNames: readonly string[];
  readonly defaults: Readonly<Required<Pick<RunOptions, 'dModel' | 'dK' | 'seed' | 'scale' | 'causal' | 'positional'>>>;
  readonly limits: { readonly maxTokens: number; readonly maxDModel: number; readonly maxSeed: number; readonly maxTextBytes: number };
  /** the exercises a set may name (?exercises=…, trace.exercise()), in the lab's order */
  readonly exerciseNames: readonly ExerciseName[];
  readonly models: readonly ModelInfo[];
  readonly modelError: AttentionLabError | null;
  loadModel(id: string, bytes: Uint8Array): ModelInfo;
  /** Opens a Hugging Face BERT checkpoint under id (docs/models.md); rejects with a model_* code
   *  for damaged files, and the models loaded before stay. onProgress follows model.safetensors. */
  loadModel(id: string, files: CheckpointFiles, options?: { onProgress?: (read: number, total: number) => void }): Promise<ModelInfo>;
  /** Opens a model file written from a checkpoint (npm run import-model), as its checkpoint. */
  loadModel(id: string, file: CheckpointModelFile): Promise<ModelInfo>;
  /** A checkpoint opened from its files as one model file (int8: its matrices as int8 rows). */
  saveModelFile(id: string, options?: { int8?: boolean }): Promise<Uint8Array>;
  /** Frees an imported checkpoint (its traces keep working until disposed). */
  unloadModel(id: string): void;
  run(sentence: string, options?: RunOptions): Trace;
  /**
   * For each [MASK] in the sentence, the trained model's topK guesses (default 5, at most 50),
   * most likely first: characters and words only (no punctuation or symbol, never a ##piece or a
   * special token) unless `wordsOnly: false`. Probabilities are the softmax's over the vocabulary.
   * Guesses are traditional for a sentence with a traditional character, or with `traditional: true`.
   * `depth`: where the prediction head reads each [MASK]'s row: 0 after the embeddings, d after layer d,
   * `layers` (the default) after the last layer, the model's guess; earlier, the "logit lens".
   */
  predictMasked(sentence: string, options?: { topK?: number; model?: string; knockOut?: RunOptions['knockOut']; wordsOnly?: boolean; traditional?: boolean; depth?: number; override?: RunOptions['override'] }): ReadonlyArray<ReadonlyArray<Guess>>;
  /** One answer for each [MASK] of the sentence, ranked among the guesses as predictMasked orders them. */
  rankAnswers(sentence: string, answers: ReadonlyArray<string>, options?: { topK?: number; model?: string; knockOut?: RunOptions['knockOut']; wordsOnly?: boolean; depth?: number }): ReadonlyArray<AnswerRank>;
  /**
   * What if head { layer, head }'s row `row` had other weights (after loadAfterArticle()): `edits` in order, each
   * key's weight 0 … 1; `renormalise` (default true) scales the keys not edited together so the row sums to 1,
   * otherwise they keep softmax's weights. The model runs with softmax's row and with the edited one: each vector
   * from the head on (its output row, projected, each layer's output) at `row`, and each [MASK]'s guesses.
   */
  whatIf(sentence: string, options: { layer: number; head: number; row: number; edits?: ReadonlyArray<{ key: number; weight: number }>;
    renormalise?: boolean; model?: string; knockOut?: RunOptions['knockOut']; topK?: number; traditional?: boolean }): WhatIf;

  memoryUsage(): {
    heapBytesInUse: number; wasmMemoryBytes: number; liveTraces: number; liveHandles: number;
    /** the same two counters of the module that runs imported checkpoints (0 before one is opened) */
    checkpointsHeapBytesInUse: number; checkpointsWasmMemoryBytes: number;
  };
  /** One query and `count` keys (default 24) with N(0, 1) entries in dK dimensions (seeded, default 1), and their plane. */
  randomKeys(dK: number, options?: { count?: number; seed?: number }): RandomKeys;

  /** loads the module that computes tiledRow, tiledAttention, rollout, rolloutRow, qkSymmetry, wordAttention, keyPlane, whatIf and randomKeys
   *  (they throw 'not_loaded' before); once, later calls return the same promise */
  loadAfterArticle(): Promise<void>;
  readonly afterArticleLoaded: boolean;
}

/** The older name of Core. @deprecated */
export type Lab = Core;

/** Loads and instantiates the wasm core once; later calls return the same core. */
export function loadAttentionLab(options?: {
  /** the trained model file's bytes, when the caller fetched them already (not kept once loaded) */
  model?: ArrayBuffer | Uint8Array | Promise<ArrayBuffer | Uint8Array | null> | null;
  /** the core's wasm compiled already (not kept once loaded) */
  wasm?: WebAssembly.Module | Promise<WebAssembly.Module | null> | null;
}): Promise<Core>;

// Types of attention-lab/training (web/lib/training.js): a small model trained
// from text in a Web Worker (browsers) or on the calling thread (Node).
import type { HeadReport } from './attention-lab.js';

export interface TrainingSettings {
  /** 1 … 4 */
  layers?: number;
  /** 1 … 8; dModel must be a multiple of it (d_k = dModel / heads) */
  heads?: number;
  /** 8 … 256 */
  dModel?: number;
  /** tokens a training window, [CLS] and [SEP] included: 8 … 128 */
  length?: number;
  /** windows a step: 1 … 64 */
  batch?: number;
  /** 1 … 100000 */
  steps?: number;
  /** the vocabulary learned from the text, special tokens included: 50 … 4000 */
  vocab?: number;
  /** AdamW's peak learning rate (linear warm-up over 5 % of the steps, then linear decay): 1e-5 … 0.1 */
  lr?: number;
  /** scores ÷ √d_k in every head (default true) */
  scaled?: boolean;
  /** queries and keys from one matrix in every head, W_k = W_q (default false) */
  sharedQk?: boolean;
  /** the weight matrices' initial standard deviation: 0.001 … 2 (BERT's 0.02) */
  initScale?: number;
  /** 0 … 2³² − 1 */
  seed?: number;
}

export interface TrainingOptions {
  /** A sentence whose heads come with the reports that carry the held-out loss. */
  sentence?: string | null;
  /** Every this many steps (and at the first and last) a report carries heldoutLoss and heads: 1 … 10000, default 10. */
  every?: number;
  /** Its abort ends the run (its worker), even before it is ready: the start then rejects with 'aborted'. */
  signal?: AbortSignal | null;
}

export interface TrainedHead {
  /** n × n attention weights, row-major */
  weights: Float32Array;
  /** each query's most attended key and its weight */
  argmax: Int32Array;
  maxProb: Float32Array;
  report: HeadReport;
  /** this head's Q·Kᵀ on the sentence: its symmetric part's share, and the mean weight on the diagonal */
  symmetricShare: number;
  selfShare: number;
}

export interface TrainedHeads {
  tokens: { texts: string[]; ids: Int32Array };
  /** layers[l][h] */
  layers: TrainedHead[][];
}

export interface TrainingReport {
  step: number;
  steps: number;
  /** the step's batch loss (mean cross-entropy over its masked tokens) */
  loss: number;
  lr: number;
  /** share of softmax rows (every layer's heads on the batch) whose largest weight is above 0.99 */
  oneHotShare: number;
  /** their mean entropy, in nats, and what uniform rows would give */
  entropy: number;
  maxEntropy: number;
  /** ‖∂loss/∂W_q‖ and ‖∂loss/∂W_k‖ (Frobenius, every layer) */
  gradWq: number;
  gradWk: number;
  /** how symmetric the batch's score matrices Q·Kᵀ are, ‖(S + Sᵀ)/2‖² ÷ ‖S‖² averaged (1 with one matrix), and their rows' mean weight on their own token */
  symmetricShare: number;
  selfShare: number;
  tokens: number;
  tokensPerSecond: number;
  elapsedMs: number;
  msLeft: number;
  /** on the first, every `every`-th and the last step */
  heldoutLoss?: number | null;
  heads?: TrainedHeads | null;
  /** the sentence `heads` are of (the start's, or the last one `follow()` gave) */
  sentence?: string;
  headsError?: { message: string; code: string; params: Record<string, string> };
}

export interface TrainingInfo {
  vocab: number;
  trainTokens: number;
  heldoutSentences: number;
  /** the settings in full, defaults filled in */
  settings: Required<TrainingSettings>;
}

export type TrainingState = 'running' | 'paused' | 'finished' | 'stopped' | 'failed';

export interface TrainingRun extends EventTarget, AsyncIterable<TrainingReport> {
  readonly info: TrainingInfo;
  readonly state: TrainingState;
  /** the step a paused run holds at, once its loop heard the pause; null while it runs */
  readonly heldAt: number | null;
  /** resolves when the run ends; rejects with its AttentionLabError */
  readonly done: Promise<{ reason: 'finished' | 'stopped'; step: number }>;
  pause(): void;
  resume(): void;
  stop(): void;
  /** the model file of the params as they are now (only for a run with ÷√d_k) */
  exportModel(): Promise<Uint8Array>;
  heads(sentence: string): Promise<TrainedHeads>;
  /** from the next report on, its heads are of this sentence (null: no heads) */
  follow(sentence: string | null): void;
  /** stops the run and returns its memory */
  dispose(): void;
}

/** Rejects with an AttentionLabError: invalid_option, invalid_argument, text_too_short,
 *  trainer_load_failed, worker_failed, aborted. */
export function startTraining(text: string, settings?: TrainingSettings, options?: TrainingOptions): Promise<TrainingRun>;

/** The trainer's own table of settings, and what follows from them (openTrainer). */
export interface Trainer {
  /** each setting's range, in the order the trainer checks them */
  readonly ranges: Readonly<Record<'layers' | 'heads' | 'dModel' | 'length' | 'batch' | 'steps' | 'vocab' | 'lr' | 'initScale' | 'seed',
    { readonly min: number; readonly max: number }>>;
  /** what a run starts with where its settings are silent */
  readonly defaults: Readonly<Required<TrainingSettings>>;
  /** the training lab's presets, from the smallest up */
  readonly presets: Readonly<Record<'tiny' | 'small' | 'larger', Readonly<TrainingSettings>>>;
  /** d_k of a run's heads: dModel ÷ heads, 0 when heads does not divide dModel */
  headSize(dModel: number, heads: number): Promise<number>;
  /** a two-run experiment's verdict: the variant's final held-out loss more than 3 % above the reference's
   *  is 'worse', that much below 'better', else 'same' */
  lossVerdict(reference: number, variant: number): Promise<'worse' | 'better' | 'same'>;
  /** lets go of the trainer (its worker ends) */
  dispose(): void;
}

/** signal: its abort lets go of the trainer, even while it opens. Rejects with an AttentionLabError:
 *  trainer_load_failed, worker_failed, aborted. */
export function openTrainer(options?: { signal?: AbortSignal | null }): Promise<Trainer>;

// Types of the <attention-lab> element (import 'attention-lab/element'): its
// attributes and the events it fires, each with its body as `detail`.
import type { ExerciseResult, ModelInfo } from './attention-lab.js';

/** A step of the page, in order. */
export type StepId = 'tokens' | 'embedding' | 'qkv' | 'scores' | 'scaled' | 'softmax' | 'weighted-sum' | 'output' | 'concat';

/** What the lab shows. */
export interface LabState {
  readonly sentence: string;
  readonly step: StepId;
  readonly selected: number;
  readonly tokens: readonly string[];
  readonly options: Readonly<Record<string, string | number | boolean>>;
  readonly layer: number;
  readonly head: number;
  readonly knockOut: ReadonlyArray<{ readonly layer: number; readonly head: number }>;
  /** The guided tour's card, while it is open. */
  readonly tour: { readonly tour: 'article'; readonly card: number } | null;
}

/** A move in the guided tour (or leaving it). */
export interface TourEventDetail {
  readonly tour: 'article';
  /** The card's id, such as 'scores'. */
  readonly card: string;
  readonly index: number;
  readonly count: number;
  /** The learner went through to the last card. */
  readonly finished: boolean;
}

/** An answer to "Your turn", as the element and a framed lab send it: the core's
 *  verdict (trace.checkAnswer), the head it was asked on, and the set so far. */
export interface ExerciseEventDetail extends ExerciseResult {
  readonly layer: number;
  readonly head: number;
  /** The learner had the answer shown before: it does not count as right. */
  readonly revealed: boolean;
  readonly set: { readonly index: number; readonly count: number; readonly answered: number; readonly right: number };
  /** The answer as an xAPI interaction definition (what the H5P and cmi5 packages report). */
  readonly interaction: {
    readonly type: 'http://adlnet.gov/expapi/activities/cmi.interaction';
    readonly name: { readonly 'en-US': string; readonly 'zh-CN': string; readonly 'zh-TW': string };
    readonly description: { readonly 'en-US': string; readonly 'zh-CN': string; readonly 'zh-TW': string };
    readonly interactionType: 'numeric';
    /** One range, "lo[:]hi": the answers the core accepts as right. */
    readonly correctResponsesPattern: readonly [string];
  };
}

export interface AttentionLabEventMap {
  ready: CustomEvent<{ readonly steps: readonly StepId[]; readonly models: readonly ModelInfo[]; readonly state: LabState }>;
  step: CustomEvent<{ readonly step: StepId; readonly index: number; readonly selected: number }>;
  select: CustomEvent<{ readonly selected: number; readonly token: string }>;
  exercise: CustomEvent<ExerciseEventDetail>;
  tour: CustomEvent<TourEventDetail>;
}

/** The attributes, as the link parameters they mirror (docs/embedding.md). */
export type AttentionLabAttribute =
  | 'sentence' | 'step' | 'token' | 'lang' | 'model' | 'head' | 'layer' | 'dk' | 'd-model' | 'seed'
  | 'scale' | 'causal' | 'positional' | 'experiment' | 'lab' | 'exercises' | 'embed' | 'tour';

export class AttentionLabElement extends HTMLElement {
  static readonly observedAttributes: readonly AttentionLabAttribute[];
  /** Resolves when the lab has drawn its first view. */
  readonly ready: Promise<void>;
  /** How many exercises its set has (the `exercises` attribute as the lab reads it); null until it is ready. */
  readonly exerciseCount: number | null;
  /** Where the learner is, as plain data a platform keeps between visits; null before the first view. */
  progress(): unknown;
  /** Back to a progress() of an earlier visit; what does not fit is left aside. */
  restore(saved: unknown): Promise<void>;
  /** Shows the solution of every exercise of the set. */
  showSolutions(): Promise<void>;
  addEventListener<K extends keyof AttentionLabEventMap>(type: K, listener: (this: AttentionLabElement, event: AttentionLabEventMap[K]) => unknown, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
  removeEventListener<K extends keyof AttentionLabEventMap>(type: K, listener: (this: AttentionLabElement, event: AttentionLabEventMap[K]) => unknown, options?: boolean | EventListenerOptions): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void;
}

/** The attributes' names, each mapped to the link parameter it stands for. */
export const ATTRIBUTES: Readonly<Record<AttentionLabAttribute, string>>;

declare global {
  interface HTMLElementTagNameMap {
    'attention-lab': AttentionLabElement;
  }
}

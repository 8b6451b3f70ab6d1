// Types of the "Your turn" exercises the core checks (trace.exercise, pickCell, checkAnswer):
// re-exported by attention-lab.d.ts.

/** "Your turn": the exercises the core checks. */
export type ExerciseName = 'dot' | 'scaled' | 'exp' | 'softmax' | 'output';

/** The usual mistakes a wrong answer is matched against: only those the exercise's givens allow
 *  (dot: already_scaled, partial_sum_left_out; scaled: no_scale, sqrt_d_model, no_sqrt; exp: none;
 *  softmax: not_normalised; output: unweighted). */
export type MistakeId =
  | 'no_scale' | 'sqrt_d_model' | 'no_sqrt' | 'already_scaled'
  | 'not_normalised' | 'unweighted' | 'partial_sum_left_out';

/** A cell: query row (a token, [CLS] = 0) and key column (a d_k column for 'output'). */
export interface Cell {
  readonly row: number;
  readonly col: number;
}

export interface Exercise {
  readonly exercise: ExerciseName;
  readonly cell: Cell;
  /** The inputs: the last byHand entries of q_i ('dot'), [score] ('scaled'), [scaled score]
   *  ('exp'), the row's e^(x − max) ('softmax', 0 where masked), the weights row ('output'). */
  readonly a: Float32Array;
  /** The same entries of k_j ('dot'), V's column ('output'); empty otherwise. */
  readonly b: Float32Array;
  /** 'dot': the sum of the other dK − byHand products, given (0 otherwise). */
  readonly partialSum: number;
  /** 'dot': how many products the learner multiplies by hand (at most 4; 0 otherwise). */
  readonly byHand: number;
  /** 'dot': how many products partialSum adds up (dK − byHand; 0 otherwise). */
  readonly summed: number;
  readonly dK: number;
  readonly dModel: number;
  readonly divisor: number;
  readonly expected: number;
  readonly tolerance: number;
  readonly mistakes: ReadonlyArray<{ readonly mistake: MistakeId; readonly value: number }>;
}

export interface ExerciseResult {
  readonly exercise: ExerciseName;
  readonly cell: Cell;
  readonly answer: number;
  readonly expected: number;
  readonly correct: boolean;
  readonly mistake: MistakeId | null;
  readonly tolerance: number;
}

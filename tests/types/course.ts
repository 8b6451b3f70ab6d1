// Typed course code, as a course author would write it against the installed
// package: tests/js/package.test.mjs compiles it with `tsc --strict` (and the
// lines marked @ts-expect-error must stay errors), then runs the JavaScript.
import { AttentionLabError, loadAttentionLab, TRAINED_MODEL } from 'attention-lab';
import type { Cell, Core, ExerciseResult, Lab, Matrix, Trace } from 'attention-lab';
import type { AttentionLabElement, ExerciseEventDetail, StepId } from 'attention-lab/element';
import { startTraining } from 'attention-lab/training';
import type { TrainingReport, TrainingRun } from 'attention-lab/training';

export async function lesson(trainingText: string): Promise<string> {
  const core: Core = await loadAttentionLab();
  const older: Lab = core; // the older name still compiles
  if (older !== core) throw new Error('Lab is Core');
  const trace: Trace = core.run('我喜欢人工智能', { model: TRAINED_MODEL });
  const cell: Cell = trace.pickCell('softmax', { row: 2, seed: 1, head: 1 });
  const exercise = trace.exercise('softmax', { ...cell, head: 1 });
  const right: ExerciseResult = trace.checkAnswer('softmax', { ...cell, head: 1 }, exercise.expected);
  const wrong = trace.checkAnswer('scaled', { row: 2, col: 3 }, trace.stage('scores').data[2 * trace.tokens.length + 3]);
  const weights: Matrix = trace.stage('weights', { layer: 0, head: 1 });
  const probs: Float32Array = trace.softmaxRow(2, { head: 1 }).probs;
  let code = '';
  try {
    core.run('');
  } catch (error) {
    if (error instanceof AttentionLabError) code = error.code;
  }
  // A few steps of training on the package's own text, then its model in the core.
  const run: TrainingRun = await startTraining(trainingText, { layers: 1, heads: 2, dModel: 16, steps: 3 });
  let last: TrainingReport | null = null;
  for await (const report of run) last = report;
  core.loadModel('mine', await run.exportModel());
  const mine = core.run('我喜欢人工智能', { model: 'mine' });
  run.dispose();
  const summary = JSON.stringify({ right: right.correct, wrong: wrong.mistake, rows: weights.rows, n: probs.length, code,
    trained: last?.step ?? 0, heads: mine.config.heads });
  mine.dispose();
  trace.dispose();
  return summary;
}

/** What an element's page does with its events. */
export function follow(element: AttentionLabElement, log: (line: string) => void): void {
  element.addEventListener('exercise', (event) => {
    const detail: ExerciseEventDetail = event.detail;
    log(`${detail.exercise} ${detail.correct ? 'right' : detail.mistake ?? 'wrong'} (${detail.set.right} of ${detail.set.count})`);
  });
  element.addEventListener('step', (event) => {
    const step: StepId = event.detail.step;
    log(step);
  });
  const again: AttentionLabElement | null = document.querySelector('attention-lab');
  again?.setAttribute('step', 'softmax');
}

// Never called: each line is a mistake the types must catch.
export function mistakes(trace: Trace, cell: Cell): void {
  // @ts-expect-error: there is no exercise "sum"
  trace.exercise('sum', cell);
  // @ts-expect-error: an answer is a number, not text
  trace.checkAnswer('dot', cell, '0.5');
  // @ts-expect-error: a stage's data is a Float32Array, not an array of strings
  const texts: string[] = trace.stage('q').data;
  void texts;
  // @ts-expect-error: there is no setting "depth"
  void startTraining('text', { depth: 2 });
}

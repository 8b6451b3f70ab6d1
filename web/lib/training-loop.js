// One training run driven a slice of steps at a time: in a Web Worker
// (training-worker.js) in browsers, on the calling thread in Node. It computes
// nothing itself: every number comes from the trainer's wasm
// (cpp/bindings/trainer_bindings.cpp); this only decides when to ask.
//
// emit(type, detail) hears: 'ready' {vocab, trainTokens, heldoutSentences, settings},
// 'progress' (a step's report; every `every` steps and at the last one with
// heldoutLoss and, for a sentence, heads with the sentence they are of), 'done' {reason: 'finished' | 'stopped', step},
// 'paused' {step} (the step it holds at, once the pause is heard),
// 'error' {message, code, params}. schedule(fn) runs fn soon, after pending messages.

import { failureOf as failure } from './checks.js';

// A slice's length: long enough that a step's overhead is small, short enough
// that pause and stop are heard at once.
const SLICE_MS = 40;

export function createTrainingLoop(trainer, { text, settings: given, sentence, every }, emit, schedule) {
  const settings = { ...trainer.defaultSettings(), ...given };
  const started = trainer.start(text, settings);
  const problem = failure(started);
  let state = problem ? 'failed' : 'running';
  const id = problem ? 0 : started.id;
  const steps = settings.steps;
  let step = 0;
  let busyMs = 0; // time spent stepping, for tokens per second and the time left
  const clock = () => globalThis.performance.now();
  let shown = sentence; // the sentence the reports' heads are of (follow() changes it)

  // The last report, the held-out loss and the heads, when it is time for them.
  function extras(report) {
    const last = report.step === steps;
    if (report.step % every !== 0 && !last && report.step !== 1) return report;
    const heldout = trainer.heldoutLoss(id);
    const out = { ...report, heldoutLoss: failure(heldout) ? null : heldout };
    if (shown) {
      const heads = trainer.heads(id, shown);
      out.sentence = shown;
      out.heads = failure(heads) ? null : heads;
      if (failure(heads)) out.headsError = failure(heads);
    }
    return out;
  }

  function slice() {
    if (state !== 'running') return;
    const begin = clock();
    while (state === 'running' && step < steps && clock() - begin < SLICE_MS) {
      const t0 = clock();
      const report = trainer.step(id);
      const error = failure(report);
      if (error) {
        state = 'failed';
        emit('error', error);
        return;
      }
      busyMs += clock() - t0;
      step = report.step;
      const perStep = busyMs / step;
      emit('progress', { ...extras(report), steps, elapsedMs: busyMs, tokensPerSecond: report.tokens / (busyMs / 1000),
        msLeft: perStep * (steps - step) });
    }
    if (step >= steps && state === 'running') {
      state = 'finished';
      emit('done', { reason: 'finished', step });
      return;
    }
    schedule(slice);
  }

  if (problem) emit('error', problem);
  else {
    emit('ready', { vocab: started.vocab, trainTokens: started.trainTokens, heldoutSentences: started.heldoutSentences, settings });
    schedule(slice);
  }

  return {
    get state() { return state; },
    pause() {
      if (state !== 'running') return;
      state = 'paused';
      emit('paused', { step });
    },
    resume() {
      if (state !== 'paused') return;
      state = 'running';
      schedule(slice);
    },
    stop() {
      if (state !== 'running' && state !== 'paused') return;
      state = 'stopped';
      emit('done', { reason: 'stopped', step });
    },
    /** The model file of the params as they are now: {bytes} or {error}. */
    modelFile() {
      if (!id) return { error: { message: 'the run never started', code: 'invalid_argument', params: {} } };
      const bytes = trainer.modelFile(id);
      return failure(bytes) ? { error: failure(bytes) } : { bytes };
    },
    /** From now on the reports' heads are of `text` (null: no heads). */
    follow(text) { shown = text; },
    /** The heads on another sentence: {heads} or {error}. */
    heads(text2) {
      if (!id) return { error: { message: 'the run never started', code: 'invalid_argument', params: {} } };
      const heads = trainer.heads(id, text2);
      return failure(heads) ? { error: failure(heads) } : { heads };
    },
    /** Frees the run's memory in the wasm; the loop is over. */
    dispose() {
      if (state === 'running' || state === 'paused') state = 'stopped';
      if (id) trainer.finish(id);
    },
  };
}

// Training a small model from text, for the training lab, course authors and tests:
//
//   import { startTraining } from 'attention-lab/training';
//   const run = await startTraining(text, { layers: 1, heads: 2, dModel: 32, steps: 300, scaled: true },
//                                   { sentence: '我喜欢人工智能', every: 10 });
//   for await (const report of run) console.log(report.step, report.loss, report.oneHotShare);
//   const bytes = await run.exportModel();   // a model file: core.loadModel('mine', bytes)
//   run.dispose();
//
//   const trainer = await openTrainer();  // the settings' ranges, defaults and presets, d_k, verdicts
//   await trainer.headSize(32, 2);        // 16
//   trainer.dispose();
//
// In a browser the run is in a Web Worker (the page stays responsive); in Node
// on the calling thread, a slice of steps at a time. Same text and settings
// (seed included) give the same numbers in both. Every number comes from the
// trainer's wasm, which only this module loads.
import { describe, fail } from './checks.js';
import { ABORTED, checkSignal, DISPOSED, Replies, toError, trainingWorker, whenAborted } from './trainer-settings.js';
import { createTrainingLoop } from './training-loop.js';

export { openTrainer } from './trainer-settings.js';

const SETTING_KINDS = Object.freeze({
  layers: 'number', heads: 'number', dModel: 'number', length: 'number', batch: 'number', steps: 'number',
  vocab: 'number', lr: 'number', initScale: 'number', seed: 'number', scaled: 'boolean', sharedQk: 'boolean',
});

function checkStart(text, settings, options) {
  if (typeof text !== 'string') fail(`text must be a string, got ${describe(text)}`, 'invalid_argument');
  if (settings === null || typeof settings !== 'object' || Array.isArray(settings)) {
    fail(`settings must be an object such as { heads: 2 }, got ${describe(settings)}`, 'invalid_option');
  }
  for (const [name, value] of Object.entries(settings)) {
    if (!(name in SETTING_KINDS)) {
      fail(`unknown setting "${name}"; the settings are ${Object.keys(SETTING_KINDS).join(', ')}`, 'invalid_option', { name, value: String(value) });
    }
    if (typeof value !== SETTING_KINDS[name]) {
      fail(`${name} must be a ${SETTING_KINDS[name]}, got ${describe(value)}`, 'invalid_option', { name, value: String(value) });
    }
  }
  const { sentence = null, every = 10, signal = null } = options ?? {};
  checkSignal(signal);
  if (sentence !== null && typeof sentence !== 'string') fail(`sentence must be a string, got ${describe(sentence)}`, 'invalid_argument');
  if (!Number.isInteger(every) || every < 1 || every > 10000) fail(`every must be a whole number from 1 to 10000, got ${describe(every)}`, 'invalid_argument');
  return { sentence, every, signal };
}


/** A run under way. Events (EventTarget): 'progress', 'done', 'error', each with `detail`.
 *  Iterate it (for await) for its progress reports, in order, until it is done. */
class TrainingRun extends EventTarget {
  #send;
  #dispose;
  #state = 'running';
  #reports = [];
  #wake = null;
  #end = null;
  #replies = new Replies();
  #disposed = false;
  #held = null;

  constructor(info, send, dispose) {
    super();
    /** { vocab, trainTokens, heldoutSentences, settings }: what the run learns from, and its settings in full. */
    this.info = Object.freeze(info);
    this.#send = send;
    this.#dispose = dispose;
    /** Resolves with { reason: 'finished' | 'stopped', step } when the run ends; rejects with its error. */
    this.done = new Promise((resolve, reject) => {
      this.addEventListener('done', (e) => resolve(e.detail));
      this.addEventListener('error', (e) => reject(e.detail));
    });
    this.done.catch(() => {}); // heard through the event or the iterator as well
  }

  /** 'running', 'paused', 'finished', 'stopped' or 'failed'. */
  get state() { return this.#state; }

  /** The step a paused run holds at, once the loop has heard the pause (reports sent before
   *  it heard it may still arrive); null while it runs. */
  get heldAt() { return this.#held; }

  /** Called with each message of the loop (a worker's or this thread's). */
  receive(type, detail) {
    if (type === 'reply') {
      this.#replies.receive(detail);
      return;
    }
    if (type === 'progress') this.#reports.push(detail);
    if (type === 'paused') this.#held = this.#state === 'paused' ? detail.step : null;
    if (type === 'done') {
      this.#state = detail.reason;
      this.#end = { done: true };
    }
    if (type === 'error') {
      this.#state = 'failed';
      this.#end = { error: toError(detail) };
    }
    this.dispatchEvent(new CustomEvent(type, { detail: type === 'error' ? toError(detail) : detail }));
    this.#wake?.();
  }

  pause() {
    if (this.#state !== 'running') return;
    this.#state = 'paused';
    this.#send({ type: 'pause' });
  }

  resume() {
    if (this.#state !== 'paused') return;
    this.#state = 'running';
    this.#held = null;
    this.#send({ type: 'resume' });
  }

  /** Ends the run where it is; its model can still be exported. */
  stop() {
    if (this.#state === 'running' || this.#state === 'paused') this.#send({ type: 'stop' });
  }

  #ask(message) {
    if (this.#disposed) return Promise.reject(toError(DISPOSED('training run')));
    return this.#replies.ask(this.#send, message);
  }

  /** The model file of the params as they are now (a run with ÷√d_k: a model file holds only those). */
  async exportModel() {
    return (await this.#ask({ type: 'model' })).bytes;
  }

  /** From the next report on, the reports' heads are of `sentence` (null: no heads): the
   *  sentence a learner now looks at. A report says which sentence its heads are of. */
  follow(sentence) {
    if (sentence !== null && typeof sentence !== 'string') fail(`sentence must be a string or null, got ${describe(sentence)}`, 'invalid_argument');
    if (!this.#disposed) this.#send({ type: 'follow', sentence });
  }

  /** Every head of the model as it is now on a sentence: { tokens, layers: [[{ weights, report }]] }. */
  async heads(sentence) {
    if (typeof sentence !== 'string') fail(`sentence must be a string, got ${describe(sentence)}`, 'invalid_argument');
    return (await this.#ask({ type: 'heads', sentence })).heads;
  }

  /** Stops the run and returns its memory (the worker ends). */
  dispose() {
    if (this.#disposed) return;
    this.#disposed = true;
    // A run disposed under way ends as stopped: its iterator and `done` hear it.
    if (!this.#end) this.receive('done', { reason: 'stopped', step: this.#reports.at(-1)?.step ?? 0 });
    this.#dispose();
    this.#replies.refuseAll(DISPOSED('training run'));
  }

  async* [Symbol.asyncIterator]() {
    let at = 0;
    for (;;) {
      while (at < this.#reports.length) yield this.#reports[at++];
      if (this.#end?.error) throw this.#end.error;
      if (this.#end) return;
      await new Promise((resolve) => { this.#wake = resolve; });
    }
  }
}

// A run in a Web Worker: the page's thread only hears its reports. signal: its abort ends the
// worker, before the run is ready (the start rejects: 'aborted') or after (the run is disposed).
function inWorker(start, signal) {
  return new Promise((resolve, reject) => {
    let run = null;
    const { send, end } = trainingWorker({
      signal,
      aborted: () => {
        if (run) run.dispose();
        else {
          end();
          reject(toError(ABORTED));
        }
      },
      heard: (data) => {
        const detail = data.type === 'reply' ? data : data.detail;
        if (run) run.receive(data.type, detail);
        else if (data.type === 'ready') {
          run = new TrainingRun(detail, send, end);
          resolve(run);
        } else if (data.type === 'error') {
          end();
          reject(toError(detail));
        }
      },
      broken: (error) => {
        if (run) run.receive('error', error);
        else reject(toError(error));
        end();
      },
    });
    send({ type: 'start', ...start });
  });
}

// A run on this thread (Node): a slice of steps, then whatever else is waiting.
async function inThisThread(start, signal) {
  const { loadTrainer } = await import('./trainer-wasm.js');
  const trainer = await loadTrainer();
  if (signal?.aborted) throw toError(ABORTED);
  let run = null;
  let early = null;
  const loop = createTrainingLoop(trainer, start, (type, detail) => {
    if (run) run.receive(type, detail);
    else early = { type, detail };
  }, (fn) => setImmediate(fn));
  if (early?.type === 'error') throw toError(early.detail);
  const letGo = whenAborted(signal, () => run.dispose());
  run = new TrainingRun(early.detail, (m) => {
    if (m.type === 'pause') loop.pause();
    else if (m.type === 'resume') loop.resume();
    else if (m.type === 'stop') loop.stop();
    else if (m.type === 'follow') loop.follow(m.sentence);
    else if (m.type === 'model') queueMicrotask(() => run.receive('reply', { id: m.id, ...loop.modelFile() }));
    else if (m.type === 'heads') queueMicrotask(() => run.receive('reply', { id: m.id, ...loop.heads(m.sentence) }));
  }, () => {
    loop.dispose();
    letGo();
  });
  return run;
}

/** Starts training a model on `text` (sentences one a line, or ending in 。！？.!?; every
 *  tenth held out). settings: { layers, heads, dModel, length, batch, steps, vocab, lr,
 *  scaled, sharedQk, initScale, seed } (the trainer's defaults for the rest: `info.settings`). options: { sentence, every, signal }:
 *  every `every` steps a report carries the held-out loss and, for a sentence, the heads on it;
 *  signal (an AbortSignal) ends the run when aborted, even before it is ready.
 *  Rejects with an AttentionLabError: invalid_option (naming the setting and its range),
 *  text_too_short, invalid_utf8, trainer_load_failed, worker_failed, aborted. */
export async function startTraining(text, settings = {}, options = {}) {
  const { sentence, every, signal } = checkStart(text, settings, options);
  if (signal?.aborted) throw toError(ABORTED);
  const start = { text, settings: { ...settings }, sentence, every };
  const browser = typeof Worker === 'function' && typeof window === 'object';
  return browser ? inWorker(start, signal) : inThisThread(start, signal);
}


// The trainer's own table of settings (their ranges, its defaults, the training
// lab's presets), the d_k a run's heads get and the verdict of the lab's two-run
// experiments, asked of the trainer's wasm (cpp/train/training_settings.hpp):
// openTrainer(), which web/lib/training.js exports. And how training.js and this
// ask a worker (or this thread) a question and match its reply.
import { AttentionLabError, describe, fail } from './checks.js';

export const toError = (e) => new AttentionLabError(e.message, e.code, e.params);

// Questions to a worker (or to this thread) and their replies, matched by id.
export class Replies {
  #next = 1;
  #waiting = new Map();

  ask(send, message) {
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, (reply) => (reply.error ? reject(toError(reply.error)) : resolve(reply)));
      send({ ...message, id });
    });
  }

  receive(reply) {
    this.#waiting.get(reply.id)?.(reply);
    this.#waiting.delete(reply.id);
  }

  /** Every question still waiting is refused with this error. */
  refuseAll(error) {
    for (const answer of this.#waiting.values()) answer({ error });
    this.#waiting.clear();
  }
}
export const DISPOSED = (what) => ({ message: `this ${what} was disposed`, code: 'disposed', params: {} });
export const ABORTED = Object.freeze({ message: 'aborted by its signal before it was ready', code: 'aborted', params: {} });

/** signal: null, or an AbortSignal (else invalid_argument). */
export function checkSignal(signal) {
  if (signal !== null && !(typeof signal === 'object' && typeof signal.addEventListener === 'function' && 'aborted' in signal)) {
    fail(`signal must be an AbortSignal, got ${describe(signal)}`, 'invalid_argument');
  }
}

/** Calls then() once when signal aborts; returns what lets go of the signal (called when done with it). */
export function whenAborted(signal, then) {
  if (!signal) return () => {};
  signal.addEventListener('abort', then, { once: true });
  return () => signal.removeEventListener('abort', then);
}

/** The training lab's Web Worker (training-worker.js), for a run (training.js) or a trainer (below):
 *  heard(data) hears each of its messages, broken(error) its failure ({ message, code: 'worker_failed',
 *  params }), aborted() signal's abort. Returns { send(message), end() }: end terminates it and lets
 *  go of the signal. */
export function trainingWorker({ heard, broken, signal, aborted }) {
  const worker = new Worker(new URL('../lib/training-worker.js', import.meta.url), { type: 'module' });
  const letGo = whenAborted(signal, aborted);
  const failed = (message) => broken({ message, code: 'worker_failed', params: {} });
  worker.onmessage = ({ data }) => heard(data);
  worker.onerror = (event) => {
    event.preventDefault?.();
    failed(`the training worker failed: ${event.message || 'it could not start'}`);
  };
  worker.onmessageerror = () => failed('the training worker sent a message that could not be read');
  return {
    send: (message) => worker.postMessage(message),
    end: () => {
      worker.terminate();
      letGo();
    },
  };
}

const freezeAll = (table) => Object.freeze(Object.fromEntries(Object.entries(table).map(([k, v]) => [k, Object.freeze({ ...v })])));

/** The trainer's own table of settings, and what follows from them, for a form that starts runs
 *  (the training lab's knobs): every figure from the trainer's wasm, which answers from a Web
 *  Worker of its own in a browser, on this thread in Node. */
class Trainer {
  #send;
  #end;
  #replies;
  #disposed = false;

  constructor(table, send, replies, end) {
    /** Each setting's { min, max }, in the order the trainer checks them. */
    this.ranges = freezeAll(table.ranges);
    /** What a run starts with where its settings are silent. */
    this.defaults = Object.freeze({ ...table.defaults });
    /** The training lab's presets, from the smallest up: { tiny, small, larger }, each the settings it sets. */
    this.presets = freezeAll(table.presets);
    this.#send = send;
    this.#replies = replies;
    this.#end = end;
  }

  async #value(message) {
    if (this.#disposed) throw toError(DISPOSED('trainer'));
    return (await this.#replies.ask(this.#send, message)).value;
  }

  /** d_k of a run's heads, dModel ÷ heads; 0 when those are not whole numbers and heads does not divide dModel. */
  async headSize(dModel, heads) {
    if (typeof dModel !== 'number' || typeof heads !== 'number') fail(`dModel and heads must be numbers, got ${describe(dModel)} and ${describe(heads)}`, 'invalid_argument');
    return this.#value({ type: 'headSize', dModel, heads });
  }

  /** The two-run experiments' verdict on two final held-out losses: 'worse' when the variant's is
   *  more than 3 % above the reference's, 'better' when that much below, else 'same'. */
  async lossVerdict(reference, variant) {
    if (typeof reference !== 'number' || typeof variant !== 'number') fail(`the losses must be numbers, got ${describe(reference)} and ${describe(variant)}`, 'invalid_argument');
    return this.#value({ type: 'verdict', reference, variant });
  }

  /** Lets go of the trainer (its worker ends); what was still asked is refused. */
  dispose() {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#end();
    this.#replies.refuseAll(DISPOSED('trainer'));
  }
}

/** The trainer's table of settings, its d_k and its verdicts (a Trainer). options: { signal }: an
 *  AbortSignal whose abort lets go of the trainer, even before it is open. Rejects with an
 *  AttentionLabError: trainer_load_failed, worker_failed, aborted. */
export async function openTrainer({ signal = null } = {}) {
  checkSignal(signal);
  if (signal?.aborted) throw toError(ABORTED);
  const replies = new Replies();
  if (!(typeof Worker === 'function' && typeof window === 'object')) {
    const { answerAbout, loadTrainer } = await import('./trainer-wasm.js');
    const trainer = await loadTrainer();
    const send = (m) => queueMicrotask(() => replies.receive({ id: m.id, ...answerAbout(trainer, m) }));
    const opened = new Trainer(await replies.ask(send, { type: 'settings' }), send, replies, () => letGo());
    const letGo = whenAborted(signal, () => opened.dispose());
    if (signal?.aborted) {
      opened.dispose();
      throw toError(ABORTED);
    }
    return opened;
  }
  let opened = null;
  const broken = (error) => {
    end();
    replies.refuseAll(error);
  };
  // Aborted while it opens: the worker ends and the questions waiting are refused ('aborted'); once open: disposed.
  const { send, end } = trainingWorker({ signal, broken, heard: (data) => { if (data.type === 'reply') replies.receive(data); },
    aborted: () => (opened ? opened.dispose() : broken(ABORTED)) });
  try {
    opened = new Trainer(await replies.ask(send, { type: 'settings' }), send, replies, end);
    return opened;
  } catch (error) {
    end();
    throw error;
  }
}

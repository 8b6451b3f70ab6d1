// The training lab's Web Worker: one run of the trainer's wasm off the page's
// thread (training.js starts it), or the trainer's answers about settings
// (training.js's openTrainer). Messages in: start {text, settings, sentence,
// every}, pause, resume, stop, follow {sentence}, model {id}, heads {id, sentence};
// settings {id}, headSize {id, dModel, heads}, verdict {id, reference, variant};
// out: the loop's events {type, detail}, and replies {type: 'reply', id, …}.
import { answerAbout, loadTrainer } from './trainer-wasm.js';
import { createTrainingLoop } from './training-loop.js';

let loop = null;
// The next slice runs after the messages already queued (pause, stop), without
// the 4 ms that nested timers wait.
const channel = new MessageChannel();
let queued = null;
channel.port1.onmessage = () => queued?.();
const schedule = (fn) => {
  queued = fn;
  channel.port2.postMessage(0);
};
const post = (type, detail) => self.postMessage({ type, detail });

let asked = null; // the trainer that answers about settings, once asked

self.onmessage = async ({ data }) => {
  if (['settings', 'headSize', 'verdict'].includes(data.type)) {
    try {
      asked ??= loadTrainer();
      self.postMessage({ type: 'reply', id: data.id, ...answerAbout(await asked, data) });
    } catch (error) {
      self.postMessage({ type: 'reply', id: data.id, error: { message: String(error?.message ?? error), code: 'trainer_load_failed', params: {} } });
    }
    return;
  }
  if (data.type === 'start') {
    try {
      loop = createTrainingLoop(await loadTrainer(), data, post, schedule);
    } catch (error) {
      post('error', { message: String(error?.message ?? error), code: 'trainer_load_failed', params: {} });
    }
    return;
  }
  if (!loop) return;
  if (data.type === 'pause') loop.pause();
  else if (data.type === 'resume') loop.resume();
  else if (data.type === 'stop') loop.stop();
  else if (data.type === 'follow') loop.follow(data.sentence);
  else if (data.type === 'model') {
    const result = loop.modelFile();
    self.postMessage({ type: 'reply', id: data.id, ...result }, result.bytes ? [result.bytes.buffer] : []);
  } else if (data.type === 'heads') {
    self.postMessage({ type: 'reply', id: data.id, ...loop.heads(data.sentence) });
  }
};

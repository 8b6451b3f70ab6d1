// The trainer's wasm (web/generated/attention-lab-trainer.*): fetched and
// compiled over http(s) in a browser or a Web Worker, read from disk in Node.
// Only the training lab loads it; the page's core does not include it.
import createAttentionTrainer from '../generated/attention-lab-trainer.js';
import { failureOf } from './checks.js';
import { compileWasm, instantiateWith } from './wasm-loader.js';

const WASM_URL = new URL('../generated/attention-lab-trainer.wasm', import.meta.url);

/** A fresh instance of the trainer's wasm (each run gets its own memory, returned when it ends). */
export async function loadTrainer() {
  return instantiateWith(createAttentionTrainer, await compileWasm(WASM_URL));
}

/** The trainer's answer to a question about settings (training.js's openTrainer asks them):
 *  { type: 'settings' } → { ranges, defaults, presets }; { type: 'headSize', dModel, heads } and
 *  { type: 'verdict', reference, variant } → { value } (or the trainer's { error, code, params }). */
export function answerAbout(trainer, question) {
  if (question.type === 'settings') return { ranges: trainer.settingRanges(), defaults: trainer.defaultSettings(), presets: trainer.presets() };
  const value = question.type === 'headSize' ? trainer.headSize(question.dModel, question.heads)
    : trainer.lossVerdict(question.reference, question.variant);
  const error = failureOf(value);
  return error ? { error } : { value };
}

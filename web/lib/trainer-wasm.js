// The trainer's wasm (web/generated/attention-lab-trainer.*): fetched and
// compiled over http(s) in a browser or a Web Worker, read from disk in Node.
// Only the training lab loads it; the page's core does not include it.
import createAttentionTrainer from '../generated/attention-lab-trainer.js';
import { compileWasm, instantiateWith } from './wasm-loader.js';

const WASM_URL = new URL('../generated/attention-lab-trainer.wasm', import.meta.url);

/** A fresh instance of the trainer's wasm (each run gets its own memory, returned when it ends). */
export async function loadTrainer() {
  return instantiateWith(createAttentionTrainer, await compileWasm(WASM_URL));
}

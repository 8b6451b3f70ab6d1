// The trainer's wasm (web/generated/attention-lab-trainer.*): fetched and
// compiled over http(s) in a browser or a Web Worker, read from disk in Node.
// Only the training lab loads it; the page's core does not include it.
import createAttentionTrainer from '../generated/attention-lab-trainer.js';

const WASM_URL = new URL('../generated/attention-lab-trainer.wasm', import.meta.url);

async function compileTrainer() {
  if (WASM_URL.protocol === 'file:') {
    const { readFile } = await import('node:fs/promises');
    return WebAssembly.compile(await readFile(WASM_URL));
  }
  const response = await fetch(WASM_URL, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`${WASM_URL} answered HTTP ${response.status}`);
  const type = response.headers.get('Content-Type') ?? '';
  if (typeof WebAssembly.compileStreaming === 'function' && type.startsWith('application/wasm')) {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}

/** A fresh instance of the trainer's wasm (each run gets its own memory, returned when it ends). */
export async function loadTrainer() {
  const module = await compileTrainer();
  let failed;
  const failure = new Promise((_, reject) => { failed = reject; });
  return Promise.race([failure, createAttentionTrainer({
    instantiateWasm(imports, receive) {
      WebAssembly.instantiate(module, imports).then((instance) => receive(instance, module), failed);
      return {};
    },
  })]);
}

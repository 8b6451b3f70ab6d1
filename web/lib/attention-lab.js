// Attention Lab's JavaScript API as an ES module, for browsers and Node ≥ 20:
//
//   import { loadAttentionLab } from 'attention-lab';
//   const core = await loadAttentionLab();
//   const trace = core.run('我喜欢人工智能');           // the trained model
//   trace.stage('weights', { layer: 0, head: 1 });  // { rows: 9, cols: 9, data: Float32Array }
//   trace.dispose();
//
// The wasm next to the glue in ../generated/ and the trained model in
// ../models/ are fetched over http(s) in a browser and read from disk in Node;
// no eval is used anywhere, so a page needs only `script-src 'self' 'wasm-unsafe-eval'`.
import createAttentionCore from '../generated/attention-lab-core.js';
import { AttentionLabError, TRAINED_MODEL, createCore, makeLoader } from './core.js';
import { compileWasm, instantiateWith } from './wasm-loader.js';

export { AttentionLabError, TRAINED_MODEL };

const WASM_URL = new URL('../generated/attention-lab-core.wasm', import.meta.url);
const MODEL_URL = new URL('../models/trained.almodel', import.meta.url);

// The trained model's bytes, or the Error that kept them away (the core then
// works on the random model and says why in core.modelError). given: bytes the
// caller already fetched (or a promise of them); null or a failure: read here.
async function readModel(given) {
  try {
    const early = await given;
    if (early) return new Uint8Array(early);
  } catch { /* read below, and any failure reported from there */ }
  try {
    if (MODEL_URL.protocol === 'file:') {
      const { readFile } = await import('node:fs/promises');
      return new Uint8Array(await readFile(MODEL_URL));
    }
    const response = await fetch(MODEL_URL, { credentials: 'same-origin' });
    if (!response.ok) throw new Error(`${MODEL_URL} answered HTTP ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

// given: a WebAssembly.Module of the core's wasm the caller compiled already (or a promise of one).
async function compileCore(given) {
  const module = await Promise.resolve(given).catch(() => null);
  return module instanceof WebAssembly.Module ? module : compileWasm(WASM_URL);
}

/** Loads and instantiates the wasm core once; later calls return the same core (its API object).
 *  options, read by the first call only: { model: the trained model file's bytes (an ArrayBuffer or
 *  Uint8Array, or a promise of one) when the caller fetched them already, wasm: a WebAssembly.Module
 *  of the core's wasm (or a promise of one) when it compiled it already }. Neither is kept once the
 *  core has loaded them; either missing (or null) is fetched here. */
export const loadAttentionLab = makeLoader(async ({ model: modelBytes = null, wasm = null } = {}) => {
  const model = readModel(modelBytes);  // read while the wasm compiles
  const module = await compileCore(wasm);
  const core = await instantiateWith(createAttentionCore, module);
  // What the lab shows after the article is a module of its own, loaded when asked for.
  return createCore(core, await model, () => import('./after-wasm.js').then(({ loadAfter }) => loadAfter(compileWasm, instantiateWith)),
    () => import('./models-wasm.js').then(({ loadModels }) => loadModels(compileWasm, instantiateWith)));
});

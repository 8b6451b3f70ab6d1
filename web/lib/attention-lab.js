// Attention Lab's JavaScript API as an ES module, for browsers and Node ≥ 20:
//
//   import { loadAttentionLab } from 'attention-lab';
//   const lab = await loadAttentionLab();
//   const trace = lab.run('我喜欢人工智能');
//   trace.stage('weights');  // { rows: 9, cols: 9, data: Float32Array }
//   trace.dispose();
//
// The wasm next to the glue in ../generated/ is fetched over http(s) in a
// browser and read from disk in Node; no eval is used anywhere, so a page needs
// only `script-src 'self' 'wasm-unsafe-eval'`.
import createAttentionCore from '../generated/attention-lab-core.js';
import { AttentionLabError, createLab, makeLoader } from './lab.js';

export { AttentionLabError };

const WASM_URL = new URL('../generated/attention-lab-core.wasm', import.meta.url);

async function wasmBytes() {
  if (WASM_URL.protocol === 'file:') {
    const { readFile } = await import('node:fs/promises');
    return readFile(WASM_URL);
  }
  const response = await fetch(WASM_URL, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`${WASM_URL} answered HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** Loads and instantiates the wasm core once; later calls return the same lab. */
export const loadAttentionLab = makeLoader(async () => {
  const core = await createAttentionCore({ wasmBinary: await wasmBytes() });
  return createLab(core);
});

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

// Compiled while it downloads where the browser can (WebAssembly.compileStreaming,
// off the main thread, and cached with the file by the browser); from bytes
// otherwise (Node, or a server that does not send application/wasm).
async function compileCore() {
  // The page may have started this already (web/app/start-core.js).
  const early = globalThis.attentionLabEarlyCompile;
  if (early?.url === WASM_URL.href) {
    const module = await early.compiled;
    if (module instanceof WebAssembly.Module) return module;
  }
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

/** Loads and instantiates the wasm core once; later calls return the same lab. */
export const loadAttentionLab = makeLoader(async () => {
  const module = await compileCore();
  let failed;
  const failure = new Promise((_, reject) => { failed = reject; });
  const core = await Promise.race([failure, createAttentionCore({
    // The glue's hook for a module compiled elsewhere: instantiate it with
    // the glue's imports and hand the instance back.
    instantiateWasm(imports, receive) {
      WebAssembly.instantiate(module, imports).then((instance) => receive(instance, module), failed);
      return {};
    },
  })]);
  return createLab(core);
});

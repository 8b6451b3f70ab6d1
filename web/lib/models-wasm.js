// The wasm that opens Hugging Face BERT checkpoints (web/generated/attention-lab-models.*: the
// core's bindings with bert_bindings.cpp), fetched and compiled over http(s) in a browser, read
// from disk in Node, when core.loadModel() is first given a checkpoint's files. The loader's
// helpers come in from attention-lab.js, as after-wasm.js's do.
import createAttentionModels from '../generated/attention-lab-models.js';
import { checkpointTexts, importCheckpoint, openModelFile } from './import-model.js';

const WASM_URL = new URL('../generated/attention-lab-models.wasm', import.meta.url);

/** The checkpoints' side of the API (core.js keeps it once loaded; compileWasm, instantiateWith:
 *  wasm-loader.js's): { module (the instantiated wasm), has(id), infos() (their entries of
 *  core.models), open(id, files, options, { checks, taken, freeze }) (import-model.js: a checkpoint's
 *  files, or { 'model.almodel' } a model file of one; resolves to the frozen entry), saveFile(id,
 *  { int8 }, checks) (a Uint8Array), unload(id, checks) (frees it; nothing when it is not here), memory() }. */
export async function loadModels(compileWasm, instantiateWith) {
  const module = await instantiateWith(createAttentionModels, await compileWasm(WASM_URL));
  const infos = new Map();
  const texts = new Map(); // a checkpoint's small files, for saveFile()
  return {
    module,
    has: (id) => infos.has(id),
    infos: () => [...infos.values()],
    async open(id, files, options, context) {
      const file = 'model.almodel' in files;
      const info = context.freeze(await (file ? openModelFile(module, id, files, context) : importCheckpoint(module, id, files, options, context)));
      infos.set(id, info);
      if (file) texts.delete(id);
      else texts.set(id, await checkpointTexts(files));
      return info;
    },
    /** Model id as a model file (ALMODEL4) when it was opened from a checkpoint's files. */
    saveFile(id, options, { describe, fail, unwrap }) {
      const { int8 = false } = options ?? {};
      if (typeof int8 !== 'boolean') fail(`int8 must be true or false, got ${describe(int8)}`, 'invalid_argument');
      const t = texts.get(id);
      if (!t) fail(`"${id}" was not opened from a checkpoint's files: only such a model is written as a model file`, 'invalid_argument', { id });
      return unwrap(module.saveBertModel(id, t.config, t.vocab, t.tokenizer, int8));
    },
    unload(id, { unwrap }) {
      texts.delete(id);
      if (infos.delete(id)) unwrap(module.unloadModel(id));
    },
    memory: () => ({ checkpointsHeapBytesInUse: module.heapBytesInUse(), checkpointsWasmMemoryBytes: module.HEAP8.buffer.byteLength }),
  };
}

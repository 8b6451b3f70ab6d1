// The tail of the offline single script (web/generated/attention-lab.single.js):
// scripts/bundle-single.mjs places it after the classic glue, web/lib/'s API
// files and the packed wasm and model (ATTENTION_LAB_WASM, ATTENTION_LAB_MODEL:
// gzip, basE91 text), all inside one function, and it publishes the API as
// window.AttentionLab.
/* global createAttentionCore, createCore, unpackGzip91, makeLoader, AFTER_JS, AttentionLabError, TRAINED_MODEL, ATTENTION_LAB_WASM, ATTENTION_LAB_MODEL */
globalThis.AttentionLab = Object.freeze({
  loadAttentionLab: makeLoader(async () => {
    const model = unpackGzip91(ATTENTION_LAB_MODEL).catch((error) => error);
    const core = await createAttentionCore({ wasmBinary: await unpackGzip91(ATTENTION_LAB_WASM) });
    return createCore(core, await model, async () => Object.assign(core, AFTER_JS)); // the classic core carries the after-the-article functions
  }),
  AttentionLabError,
  TRAINED_MODEL,
});

// The tail of the offline single script (web/generated/attention-lab.single.js):
// scripts/bundle-single.mjs places it after the classic glue, lab.js and the
// packed wasm (ATTENTION_LAB_WASM: gzip, base64), all inside one function, and
// it publishes the API as window.AttentionLab.
/* global createAttentionCore, createLab, inflateWasm, makeLoader, AttentionLabError, ATTENTION_LAB_WASM */
globalThis.AttentionLab = Object.freeze({
  loadAttentionLab: makeLoader(async () => createLab(
    await createAttentionCore({ wasmBinary: await inflateWasm(ATTENTION_LAB_WASM) }))),
  AttentionLabError,
});

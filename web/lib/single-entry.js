// The tail of the offline single script (web/generated/attention-lab.single.js):
// scripts/bundle-single.mjs places it after the inlined-wasm glue and lab.js,
// all inside one function, and it publishes the API as window.AttentionLab.
/* global createAttentionCore, createLab, makeLoader, AttentionLabError */
globalThis.AttentionLab = Object.freeze({
  loadAttentionLab: makeLoader(async () => createLab(await createAttentionCore())),
  AttentionLabError,
});

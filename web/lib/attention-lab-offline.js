// The API for the offline single-file page: the same loader as
// attention-lab.js, over the classic glue, with the wasm and the trained model
// carried inside the bundle (gzip, basE91 text: base91.js) instead of fetched.
// scripts/bundle-page.mjs puts it in place of attention-lab.js when it bundles
// the page into one HTML file, and supplies 'attention-lab-wasm' and
// 'attention-lab-model' (the packed bytes) and the glue.
import createAttentionCore from '../generated/attention-lab-core.classic.js';
import WASM_PACKED from 'attention-lab-wasm';
import MODEL_PACKED from 'attention-lab-model';
import { AttentionLabError, TRAINED_MODEL, createCore, makeLoader } from './core.js';
import { unpackGzip91 } from './base91.js';
import { AFTER_JS } from './trace-after.js';

export { AttentionLabError, TRAINED_MODEL };

export const loadAttentionLab = makeLoader(async () => {
  const model = unpackGzip91(MODEL_PACKED).catch((error) => error);
  const core = await createAttentionCore({ wasmBinary: await unpackGzip91(WASM_PACKED) });
  return createCore(core, await model, async () => Object.assign(core, AFTER_JS)); // the classic core carries the after-the-article functions
});

// The API for the offline single-file page: the same loader as
// attention-lab.js, over the classic glue, with the wasm and the trained model
// carried inside the bundle (gzip, base64) instead of fetched.
// scripts/bundle-page.mjs puts it in place of attention-lab.js when it bundles
// the page into one HTML file, and supplies 'attention-lab-wasm' and
// 'attention-lab-model' (the packed bytes) and the glue.
import createAttentionCore from '../generated/attention-lab-core.classic.js';
import WASM_GZIP_BASE64 from 'attention-lab-wasm';
import MODEL_GZIP_BASE64 from 'attention-lab-model';
import { AttentionLabError, TRAINED_MODEL, createCore, makeLoader, unpackGzipBase64 } from './core.js';

export { AttentionLabError, TRAINED_MODEL };

export const loadAttentionLab = makeLoader(async () => {
  const model = unpackGzipBase64(MODEL_GZIP_BASE64).catch((error) => error);
  const core = await createAttentionCore({ wasmBinary: await unpackGzipBase64(WASM_GZIP_BASE64) });
  return createCore(core, await model, async () => core); // the classic core carries the after-the-article functions
});

// The API for the offline single-file page: the same loader as
// attention-lab.js, over the classic glue, with the wasm carried inside the
// bundle (gzip, base64) instead of fetched. scripts/bundle-page.mjs puts it in
// place of attention-lab.js when it bundles the page into one HTML file, and
// supplies 'attention-lab-wasm' (the packed bytes) and the glue.
import createAttentionCore from '../generated/attention-lab-core.classic.js';
import WASM_GZIP_BASE64 from 'attention-lab-wasm';
import { AttentionLabError, createLab, inflateWasm, makeLoader } from './lab.js';

export { AttentionLabError };

export const loadAttentionLab = makeLoader(async () => createLab(
  await createAttentionCore({ wasmBinary: await inflateWasm(WASM_GZIP_BASE64) })));

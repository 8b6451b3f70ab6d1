// The API for the offline single-file page: the same loader as
// attention-lab.js, but over the SINGLE_FILE glue whose wasm is inlined, so
// nothing is fetched. scripts/bundle-page.mjs puts it in place of
// attention-lab.js when it bundles the page into one HTML file.
import createAttentionCore from '../generated/attention-lab-core.single.js';
import { AttentionLabError, createLab, makeLoader } from './lab.js';

export { AttentionLabError };

export const loadAttentionLab = makeLoader(async () => createLab(await createAttentionCore()));

// The wasm of what the lab shows after the article (web/generated/attention-lab-after.*:
// tile by tile, rollout, one matrix or two), fetched and compiled over http(s) in a
// browser, read from disk in Node, when core.loadAfterArticle() first asks for it.
// The one-file builds carry it in their core instead. The loader's helpers come in
// from attention-lab.js (imported here, they would make a chunk the first load fetches too).
import createAttentionAfter from '../generated/attention-lab-after.js';
import { AFTER_JS } from './trace-after.js';

const WASM_URL = new URL('../generated/attention-lab-after.wasm', import.meta.url);

/** The after-the-article module, instantiated (compileWasm, instantiateWith: wasm-loader.js's),
 *  with the JavaScript that drives it (trace-after.js's AFTER_JS). */
export async function loadAfter(compileWasm, instantiateWith) {
  return Object.assign(await instantiateWith(createAttentionAfter, await compileWasm(WASM_URL)), AFTER_JS);
}

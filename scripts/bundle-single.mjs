// Builds the offline single script: usage
//   node scripts/bundle-single.mjs <glue.js> <glue.wasm> <out.js>
// The output is one classic script (no modules, no fetch, the wasm inlined as
// base64 of its gzip, see packWasm) that works from file:// and defines only
// window.AttentionLab. lab.js is included as it is, minus its `export` words.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { packWasm } from './pack-wasm.mjs';

const [glueFile, wasmFile, outFile] = process.argv.slice(2);
if (!glueFile || !wasmFile || !outFile) {
  console.error('usage: node scripts/bundle-single.mjs <glue.js> <glue.wasm> <out.js>');
  process.exit(2);
}
const lib = (name) => readFileSync(fileURLToPath(new URL(`../web/lib/${name}`, import.meta.url)), 'utf8');
const stripExports = (source) => source.replace(/^export (?=(class|function|const|let|async) )/gm, '');

const lab = stripExports(lib('lab.js'));
if (/^\s*(export|import)\b/m.test(lab)) {
  throw new Error('lab.js must have no imports and only `export class|function|const` declarations');
}

const bundle = `/*! Attention Lab — offline single script. Exposes window.AttentionLab. */
(function () {
// Shadow module systems so the Emscripten glue registers nowhere (an LMS page
// may run RequireJS or CommonJS shims).
var exports, module, define;
${readFileSync(glueFile, 'utf8')}
${lab}
var ATTENTION_LAB_WASM = ${JSON.stringify(packWasm(wasmFile))};
${lib('single-entry.js')}
})();
`;
writeFileSync(outFile, bundle);

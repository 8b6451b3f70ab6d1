// Builds the offline single script: usage
//   node scripts/bundle-single.mjs <glue.js> <glue.wasm> <out.js>
// The output is one classic script (no modules, no fetch, the wasm inlined as
// and the trained model as basE91 text of their gzip, see packFile) that works from
// file:// and defines only window.AttentionLab. web/lib/'s API files are
// included as they are, minus their sibling imports and `export` words.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MODEL_FILE, packedLiteral } from './pack-file.mjs';

const [glueFile, wasmFile, outFile] = process.argv.slice(2);
if (!glueFile || !wasmFile || !outFile) {
  console.error('usage: node scripts/bundle-single.mjs <glue.js> <glue.wasm> <out.js>');
  process.exit(2);
}
const lib = (name) => readFileSync(fileURLToPath(new URL(`../web/lib/${name}`, import.meta.url)), 'utf8');
// One scope for all: sibling imports and re-exports go, `export` words go.
const strip = (source) => source
  .replace(/^import \{[^}\n]*\} from '\.\/[\w-]+\.js';\n/gm, '')
  .replace(/^export \{[^}\n]*\};\n/gm, '')
  .replace(/^export (?=(class|function|const|let|async) )/gm, '');
const api = ['base91.js', 'checks.js', 'what-if.js', 'trace-after.js', 'trace.js', 'row-maths.js', 'core.js'].map((name) => {
  const source = strip(lib(name));
  if (/^\s*(export|import)\b/m.test(source)) {
    throw new Error(`${name} must import only its siblings on one line each and export only declarations`);
  }
  return source;
}).join('\n');

const bundle = `/*! Attention Lab — offline single script. Exposes window.AttentionLab. */
(function () {
// Shadow module systems so the Emscripten glue registers nowhere (an LMS page
// may run RequireJS or CommonJS shims).
var exports, module, define;
${readFileSync(glueFile, 'utf8')}
${api}
var ATTENTION_LAB_WASM = ${packedLiteral(wasmFile)};
var ATTENTION_LAB_MODEL = ${packedLiteral(MODEL_FILE)};
${lib('single-entry.js')}
})();
`;
writeFileSync(outFile, bundle);

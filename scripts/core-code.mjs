// The core's reference C++ for each stage, taken from cpp/src/stages.cpp (and the softmax it calls,
// from cpp/include/attention/ops.hpp) at build time, so the page's Code switch
// (web/app/steps/code-view.js) shows the functions as they are, never a copy written by hand.
// Writes web/generated/code/stages.js (build output, not committed):
//   CORE_CODE = { <function>: { file, source } } for the functions below.
//   node scripts/core-code.mjs      writes it (as bundle-app.mjs does)
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const FUNCTIONS = Object.freeze({
  'cpp/src/stages.cpp': ['positional_encoding', 'project', 'attention_scores', 'scale_scores', 'causal_mask', 'softmax_rows', 'weighted_sum'],
  'cpp/include/attention/ops.hpp': ['softmax_rows_in_place'],
});

/** Each function of `names` in `text` (the file `file`): from its first line ("<type> <name>(" at the
 *  line's start, with a template line above it) to the brace that closes it at the line's start (or
 *  the one-line body's own). */
export function extractFunctions(text, names, file) {
  const lines = text.split('\n');
  const out = {};
  for (const name of names) {
    let begin = lines.findIndex((line) => new RegExp(`^\\w[\\w:<>]* ${name}\\(`).test(line));
    if (begin < 0) throw new Error(`${file} has no function ${name}`);
    if (begin > 0 && /^template\s*</.test(lines[begin - 1])) begin -= 1; // a template's own line
    let end = begin;
    if (!lines[begin].trimEnd().endsWith('}')) {
      end = lines.findIndex((line, k) => k > begin && line.startsWith('}'));
      if (end < 0) throw new Error(`${name} in ${file} has no closing brace at a line's start`);
    }
    out[name] = Object.freeze({ file, source: lines.slice(begin, end + 1).join('\n') });
  }
  return out;
}

export function writeCoreCode() {
  const root = new URL('../', import.meta.url);
  const code = Object.assign({}, ...Object.entries(FUNCTIONS).map(([file, names]) => extractFunctions(readFileSync(new URL(file, root), 'utf8'), names, file)));
  const dir = fileURLToPath(new URL('web/generated/code/', root));
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${dir}stages.js`, `// Made by scripts/core-code.mjs from ${Object.keys(FUNCTIONS).join(' and ')}: do not edit.\nexport const CORE_CODE = Object.freeze(${JSON.stringify(code, null, 2)});\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) writeCoreCode();

// Bundles the teaching page into ONE self-contained HTML file (styles, app,
// API, wasm and trained model inlined) that a teacher can e-mail or upload; it works from
// file:// with no network:
//   node scripts/bundle-page.mjs <classic glue.js> <glue.wasm> <out.html>
// The file carries its own Content-Security-Policy: scripts and styles only by
// the hashes of the inlined ones, WebAssembly allowed, no eval, no network.
import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { MODEL_FILE, packFile } from './pack-file.mjs';

const [glueFile, wasmFile, outFile] = process.argv.slice(2);
if (!glueFile || !wasmFile || !outFile) {
  console.error('usage: node scripts/bundle-page.mjs <attention-lab-core.classic.js> <glue.wasm> <out.html>');
  process.exit(2);
}
const web = (path) => fileURLToPath(new URL(`../web/${path}`, import.meta.url));

// The glue is referred to as ../generated/attention-lab-core.classic.js by the
// offline entry; give esbuild that file wherever CMake built it.
const scratch = mkdtempSync(join(tmpdir(), 'attention-lab-'));
copyFileSync(glueFile, join(scratch, 'glue.js'));

const swapApi = {
  name: 'offline-api',
  setup(b) {
    b.onResolve({ filter: /lib\/attention-lab\.js$/ }, () => ({ path: web('lib/attention-lab-offline.js') }));
    b.onResolve({ filter: /attention-lab-core\.classic\.js$/ }, () => ({ path: join(scratch, 'glue.js') }));
    b.onResolve({ filter: /^attention-lab-wasm$/ }, () => ({ path: 'wasm', namespace: 'packed' }));
    b.onResolve({ filter: /^attention-lab-model$/ }, () => ({ path: 'model', namespace: 'packed' }));
    // The training lab trains in a Web Worker, which a page opened from a file cannot start:
    // in the offline page it says so (docs/training.md).
    b.onResolve({ filter: /lib\/training\.js$/ }, () => ({ path: 'training', namespace: 'offline-training' }));
    b.onLoad({ filter: /.*/, namespace: 'offline-training' }, () => ({ loader: 'js', contents:
      'export async function startTraining() { throw Object.assign(new Error("training needs the served page: it runs in a Web Worker, which a page opened from a file cannot start"), { code: "worker_failed", params: {} }); }' }));
    b.onLoad({ filter: /.*/, namespace: 'packed' }, ({ path }) => ({
      contents: `export default ${JSON.stringify(packFile(path === 'wasm' ? wasmFile : MODEL_FILE))};`, loader: 'js' }));
  },
};
const result = await build({
  entryPoints: [web('app/shell/main.js')],
  bundle: true,
  format: 'iife',
  minify: true,
  target: 'es2020',
  write: false,
  plugins: [swapApi],
  // What the page finds beside itself (the training lab's text) is looked for beside the file.
  define: { 'import.meta.url': 'document.baseURI' },
  logLevel: 'warning',
  // The glue reads these only in Node; a browser never gets there.
  external: ['fs', 'path', 'crypto'],
});
const script = result.outputFiles[0].text;
const style = (await build({ entryPoints: [web('styles/app.css')], bundle: true, minify: true, write: false, logLevel: 'warning' }))
  .outputFiles[0].text;
const hash = (text) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const csp = [
  "default-src 'none'",
  `script-src ${hash(script)} 'wasm-unsafe-eval'`,
  `style-src ${hash(style)}`,
  "img-src 'self' data: blob:",
  // Nothing is fetched: the wasm is unpacked from the script itself.
  "connect-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

let html = readFileSync(web('index.html'), 'utf8');
const replaceOnce = (pattern, replacement) => {
  if (!pattern.test(html)) throw new Error(`index.html no longer has ${pattern}`);
  html = html.replace(pattern, () => replacement);
};
replaceOnce(/<link rel="stylesheet" href="generated\/app.css">/, `<style>${style}</style>`);
// At the end of the body: an inline classic script runs as soon as it is parsed.
replaceOnce(/\s*<script type="module" src="generated\/app.js"><\/script>/, '');
replaceOnce(/\s*<script src="app\/shell\/start-core.js"><\/script>/, '');
html = html.replace(/\s*<link rel="modulepreload"[^>]*>/g, '');
// No file beside it to fetch: the icon is an empty data: URL (its img-src allows data:).
replaceOnce(/<link rel="icon"[^>]*>/, '<link rel="icon" href="data:,">');
replaceOnce(/<\/body>/, `<script>${script}</script>\n</body>`);
replaceOnce(/\s*<script nomodule defer src="app\/shell\/no-modules.js"><\/script>/, '');
replaceOnce(/<meta charset="utf-8">/, `<meta charset="utf-8">\n  <meta http-equiv="Content-Security-Policy" content="${csp}">`);
writeFileSync(outFile, html);
console.log(`wrote ${outFile} (${(html.length / 1024).toFixed(0)} KB)`);

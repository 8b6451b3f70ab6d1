// Bundles the teaching page into ONE self-contained HTML file (styles, app,
// API, wasm and trained model inlined) that a teacher can e-mail or upload; it works from
// file:// with no network:
//   node scripts/bundle-page.mjs <classic glue.js> <glue.wasm> <out.html>
// The file carries its own Content-Security-Policy: scripts and styles only by
// the hashes of the inlined ones, WebAssembly allowed, no eval, no network.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';
import { offlineBuild, web } from './offline-api.mjs';
import { writeZhHant } from './zh-hant-words.mjs';
import { writeCoreCode } from './core-code.mjs';

const [glueFile, wasmFile, outFile] = process.argv.slice(2);
if (!glueFile || !wasmFile || !outFile) {
  console.error('usage: node scripts/bundle-page.mjs <attention-lab-core.classic.js> <glue.wasm> <out.html>');
  process.exit(2);
}

writeCoreCode(); // the core's C++ the Code switch shows
await writeZhHant(); // the traditional Chinese words the page imports
const result = await build(offlineBuild(web('app/shell/main.js'), glueFile, wasmFile));
const script = result.outputFiles[0].text;
// app.css and later.css together: one file carries everything (web/app/ui/later-styles.js links nothing then).
const style = (await Promise.all(['app', 'later'].map((name) => build({ entryPoints: [web(`styles/${name}.css`)], bundle: true, minify: true,
  write: false, logLevel: 'warning' })))).map((r) => r.outputFiles[0].text).join('');
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

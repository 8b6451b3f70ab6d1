// Bundles the page's script (web/app/shell/main.js and every module it imports,
// the JavaScript API and the Emscripten glue included) into ONE minified ES
// module, web/generated/app.js, which web/index.html loads. One request
// instead of ~40 chained imports: the browser learns of the wasm and of the
// last module without waiting for each level of imports in turn.
// It also bundles the stylesheet (web/styles/app.css and the files it
// @imports) into ONE file beside it, web/generated/app.css.
//   node scripts/bundle-app.mjs <out.js>
//   NO_MINIFY=1 node scripts/bundle-app.mjs <out.js>   readable names, for a profile
// The sources stay plain ES modules (readable, importable by tests); this is
// the form served. The public API (web/lib/attention-lab.js, with core.js and
// the Emscripten glue) is bundled in too, minified: the page is a lab of its
// own (a course page that wants to share one core with its own code uses the
// element below, which imports the API as a module). The wasm stays a separate
// file, fetched and compiled early by start-core.js.
// First it writes the traditional Chinese words the page imports
// (web/generated/words/, made from the simplified: zh-hant-words.mjs), and the core's C++ the Code
// switch shows (web/generated/code/: core-code.mjs).
import { readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';
import { elementParts, pageMarkup } from './page-markup.mjs';
import { fileURLToPath } from 'node:url';
import { writeZhHant } from './zh-hant-words.mjs';
import { writeCoreCode } from './core-code.mjs';

const [outFile] = process.argv.slice(2);
if (!outFile) {
  console.error('usage: node scripts/bundle-app.mjs <out.js>');
  process.exit(2);
}
await writeZhHant();
writeCoreCode(); // the core's C++ that the Code switch shows (web/generated/code/)
// What loads only when it is used (the guided tour, the SCORM adapter) goes into
// chunk-*.js files beside the bundle; those of an earlier build go first.
const outDir = dirname(outFile);
for (const name of readdirSync(outDir)) if (/^chunk-.*\.js(\.map)?$/.test(name)) rmSync(join(outDir, name));
// Module scripts are always read as UTF-8: Chinese words go as themselves (3 bytes a character), not as \u escapes (6).
const split = { outdir: outDir, splitting: true, chunkNames: 'chunk-[name]-[hash]', charset: 'utf8' };
// The training API (web/lib/training.js) stays a module served from web/lib/,
// as its Web Worker is: the training lab imports it when it opens. generated/
// sits one folder below web/, as web/lib/ does, so '../lib/' reaches it.
const trainingStaysAModule = {
  name: 'training-stays-a-module',
  setup(b) {
    b.onResolve({ filter: /\/lib\/training\.js$/ }, () => ({ path: '../lib/training.js', external: true }));
  },
};
await build({
  entryPoints: { [outFile.replace(/^.*\//, '').replace(/\.js$/, '')]: fileURLToPath(new URL('../web/app/shell/main.js', import.meta.url)) },
  ...split,
  bundle: true,
  format: 'esm',
  minify: process.env.NO_MINIFY !== "1",
  // Chromium's explicit compile hint (first line of the file): compile every
  // function while the file streams in, on a background thread, instead of
  // each one on the main thread the first time it is called. Without it a
  // first walk through the stages compiled ≈ 150 functions as each stage was
  // first shown (≈ 19 ms traced, in the frames that start its animation);
  // with it ≈ 20. Other browsers read it as a comment.
  banner: { js: '//# allFunctionsCalledOnLoad' },
  sourcemap: 'linked',
  target: 'es2022', // as web/lib/ is written (class private fields): no helper chunk shared with the lazy parts
  external: ['node:*'], // the API reads files in Node only (a branch the page never takes)
  logLevel: 'warning',
  plugins: [trainingStaysAModule],
});
// The <attention-lab> element (web/app/shell/element.js): the same lab in a shadow
// root, with the page's markup (web/index.html's <body>, without its scripts)
// built in, and the public API external as above, so every element on a page
// and any other user of the API share one core.
const markup = pageMarkup();
await build({
  entryPoints: { 'attention-lab-element': fileURLToPath(new URL('../web/app/shell/element.js', import.meta.url)) },
  ...split,
  bundle: true,
  format: 'esm',
  minify: process.env.NO_MINIFY !== "1",
  sourcemap: 'linked',
  target: 'es2022', // class private fields as they are: no helper chunk shared with the lazy parts
  
  logLevel: 'warning',
  plugins: [{
    name: 'markup-and-public-api',
    setup(b) {
      b.onResolve({ filter: /\/lib\/attention-lab\.js$/ }, () => ({ path: '../lib/attention-lab.js', external: true }));
      trainingStaysAModule.setup(b);
      // The stylesheet is generated/app.css beside the element's script (the H5P build inlines it).
      elementParts(markup, null).setup(b);
    },
  }],
});
// app.css, which the first paint waits for, and later.css, linked when what it styles first opens.
for (const name of ['app', 'later']) {
  await build({
    entryPoints: [fileURLToPath(new URL(`../web/styles/${name}.css`, import.meta.url))],
    outfile: join(outDir, `${name}.css`),
    bundle: true,
    minify: process.env.NO_MINIFY !== "1",
    logLevel: 'warning',
  });
}
console.log(`wrote ${outFile}, the <attention-lab> element beside it, and their stylesheet`);

// The esbuild plugin of the builds that carry the core inside one script (the
// offline page, the H5P package): the public API swapped for its offline form
// (web/lib/attention-lab-offline.js, over the classic glue), the wasm and the
// trained model packed into the script, the Chinese words packed (offline-words.mjs), and the training lab (its API and its
// controls) replaced by what says training needs the served page (its Web Worker
// and the trainer's wasm are files these builds do not carry).
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MODEL_FILE, packedLiteral } from './pack-file.mjs';
import { packedWords } from './offline-words.mjs';

export const web = (path) => fileURLToPath(new URL(`../web/${path}`, import.meta.url));

/** esbuild's options for one classic script of an entry with the core inside (glueFile, wasmFile:
 *  the classic glue and its wasm, wherever CMake built them); plugins: the entry's others. */
export function offlineBuild(entry, glueFile, wasmFile, plugins = []) {
  return {
    entryPoints: [entry],
    bundle: true,
    format: 'iife',
    minify: true,
    charset: 'utf8', // Chinese words as themselves (3 bytes a character), not as \u escapes (6)
    target: 'es2020',
    write: false,
    plugins: [offlineApi(glueFile, wasmFile), packedWords(), ...plugins],
    // What the lab finds beside itself (the training lab's text) is looked for beside the page.
    define: { 'import.meta.url': 'document.baseURI' },
    logLevel: 'warning',
    // The glue reads these only in Node; a browser never gets there.
    external: ['fs', 'path', 'crypto'],
  };
}

/** glueFile, wasmFile: the classic glue and its wasm, wherever CMake built them. */
export function offlineApi(glueFile, wasmFile) {
  // The glue is referred to as ../generated/attention-lab-core.classic.js by the
  // offline entry; give esbuild that file wherever CMake built it.
  const scratch = mkdtempSync(join(tmpdir(), 'attention-lab-'));
  copyFileSync(glueFile, join(scratch, 'glue.js'));
  return {
    name: 'offline-api',
    setup(b) {
      b.onResolve({ filter: /lib\/attention-lab\.js$/ }, () => ({ path: web('lib/attention-lab-offline.js') }));
      b.onResolve({ filter: /attention-lab-core\.classic\.js$/ }, () => ({ path: join(scratch, 'glue.js') }));
      b.onResolve({ filter: /^attention-lab-wasm$/ }, () => ({ path: 'wasm', namespace: 'packed' }));
      b.onResolve({ filter: /^attention-lab-model$/ }, () => ({ path: 'model', namespace: 'packed' }));
      b.onResolve({ filter: /lib\/training\.js$/ }, () => ({ path: 'training', namespace: 'offline-training' }));
      b.onLoad({ filter: /.*/, namespace: 'offline-training' }, () => ({ loader: 'js', contents:
        'const needsThePage = () => Object.assign(new Error("training needs the served page: it runs in a Web Worker with the trainer\'s own wasm, which this one-file build does not carry"), { code: "worker_failed", params: {} });\n' +
        'export async function startTraining() { throw needsThePage(); }\nexport async function openTrainer() { throw needsThePage(); }' }));
      // The training lab's controls and charts could train nothing here: in their place, what it needs.
      b.onResolve({ filter: /training\/training-lab\.js$/ }, () => ({ path: 'training-lab', namespace: 'offline-training-lab' }));
      // Its words, in each language, are the training lab's 'train.offline' (the bundlers have written web/generated/words/).
      b.onLoad({ filter: /.*/, namespace: 'offline-training-lab' }, async () => {
        const { TRAINING_WORDS } = await import(pathToFileURL(web('generated/words/training.js')).href);
        const words = Object.fromEntries(Object.entries(TRAINING_WORDS).map(([lang, table]) => [lang, table['train.offline']]));
        return { loader: 'js', contents: `
        export function createTrainingLab(root, { h }) {
          root.classList.add('training-lab');
          const note = h('p', { class: 'message notice train-status' });
          root.replaceChildren(note);
          const words = ${JSON.stringify(words)};
          return { update(ctx) { note.textContent = words[ctx.lang] ?? words.en; }, dispose() {} };
        }` };
      });
      b.onLoad({ filter: /.*/, namespace: 'packed' }, ({ path }) => ({
        contents: `export default ${packedLiteral(path === 'wasm' ? wasmFile : MODEL_FILE)};`, loader: 'js' }));
    },
  };
}

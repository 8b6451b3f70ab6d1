// The one-file builds' Chinese words, packed: the esbuild plugin of the offline
// page and the H5P script. The page's words in simplified and traditional Chinese
// are ≈ 170 KB as text (three bytes a character) and ≈ 60 KB deflated and
// written in basE91; the one file keeps under its 2 MB that way. Every table a
// module exports as NAME_ZH or NAME_ZH_HANT (web/app/strings/*.js and the
// generated web/generated/words/*.js) becomes `zhTable('NAME_ZH')`, read on its
// first use from one packed blob that a small synchronous inflate (tiny-inflate)
// unpacks: the tables stay plain objects a module exports, and English is as it was.
import { readFileSync, readdirSync } from 'node:fs';
import { deflateRawSync } from 'node:zlib';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { encode91 } from '../web/lib/base91.js';

const TABLE = /^(\w+_ZH(?:_HANT)?)$/;
const MODULES = /web\/(app\/strings|generated\/words)\/[\w-]+\.js$/;
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FOLDERS = ['web/app/strings', 'web/generated/words'];

// The tables of one module written out in its source (not made from others, as words-zh.js's is):
// [name, value, the declaration's pattern], as Node imports them.
async function tablesOf(path) {
  const source = readFileSync(path, 'utf8');
  const module = await import(pathToFileURL(path).href);
  return Object.entries(module)
    .filter(([name, value]) => TABLE.test(name) && value && typeof value === 'object' && !Array.isArray(value))
    .map(([name, value]) => [name, value, new RegExp(`^export const ${name} = (?:Object\\.freeze\\()?\\{[\\s\\S]*?^\\}\\)?;`, 'm')])
    .filter(([, , declaration]) => declaration.test(source));
}

/** The plugin: the strings modules with their Chinese tables read from the packed blob. */
export function packedWords() {
  let blob = null; // { packed, length } of every module's tables, made before the build starts
  return {
    name: 'packed-words',
    setup(b) {
      b.onStart(async () => {
        const tables = {};
        for (const folder of FOLDERS) {
          for (const file of readdirSync(`${ROOT}${folder}`).filter((f) => f.endsWith('.js')).sort()) {
            for (const [name, value] of await tablesOf(`${ROOT}${folder}/${file}`)) tables[name] = [value, Object.isFrozen(value) ? 1 : 0];
          }
        }
        const bytes = Buffer.from(JSON.stringify(tables), 'utf8');
        blob = { packed: encode91(deflateRawSync(bytes, { level: 9 })), length: bytes.length };
      });
      b.onLoad({ filter: MODULES }, async ({ path }) => {
        const found = await tablesOf(path);
        if (!found.length) return undefined;
        let source = readFileSync(path, 'utf8');
        for (const [name, , declaration] of found) source = source.replace(declaration, `export const ${name} = zhTable(${JSON.stringify(name)});`);
        return { contents: `import { zhTable } from 'attention-lab-zh-words';\n${source}`, loader: 'js', resolveDir: path.replace(/\/[^/]+$/, '') };
      });
      b.onResolve({ filter: /^attention-lab-zh-words$/ }, () => ({ path: 'zh-words', namespace: 'packed-words' }));
      b.onLoad({ filter: /.*/, namespace: 'packed-words' }, () => ({ loader: 'js', resolveDir: ROOT, contents: `
import inflate from 'tiny-inflate';
import { decode91 } from './web/lib/base91.js';
const PACKED = ${JSON.stringify(blob.packed).replace(/<\//g, '<\\/')};
let tables = null;
/** A Chinese table of the page's words, unpacked with all the others on the first call. */
export function zhTable(name) {
  if (!tables) tables = JSON.parse(new TextDecoder().decode(inflate(decode91(PACKED), new Uint8Array(${blob.length}))));
  const [table, frozen] = tables[name];
  return frozen ? Object.freeze(table) : table;
}` }));
    },
  };
}

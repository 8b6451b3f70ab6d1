// The <attention-lab> element as ONE classic script for the H5P content type
// (h5p/): the lab's markup and stylesheet, the API, the classic glue, the wasm
// and the trained model all inside it, because an H5P package may hold only
// files of H5P's kinds (no .wasm, no model file) and loads its scripts as
// classic scripts:
//   node scripts/bundle-h5p.mjs <classic glue.js> <glue.wasm> <out.js>
import { writeFileSync } from 'node:fs';
import { build } from 'esbuild';
import { offlineBuild, web } from './offline-api.mjs';
import { elementParts, pageMarkup } from './page-markup.mjs';
import { writeZhHant } from './zh-hant-words.mjs';
import { writeCoreCode } from './core-code.mjs';

const [glueFile, wasmFile, outFile] = process.argv.slice(2);
if (!glueFile || !wasmFile || !outFile) {
  console.error('usage: node scripts/bundle-h5p.mjs <attention-lab-core.classic.js> <glue.wasm> <out.js>');
  process.exit(2);
}
writeCoreCode(); // the core's C++ the Code switch shows
await writeZhHant(); // the traditional Chinese words the element imports
// app.css and later.css together: one file carries everything (web/app/ui/later-styles.js links nothing then).
const style = (await Promise.all(['app', 'later'].map((name) => build({ entryPoints: [web(`styles/${name}.css`)], bundle: true, minify: true,
  write: false, logLevel: 'warning' })))).map((r) => r.outputFiles[0].text).join('');
const result = await build(offlineBuild(web('app/shell/element.js'), glueFile, wasmFile, [elementParts(pageMarkup(), style)]));
writeFileSync(outFile, result.outputFiles[0].text);
console.log(`wrote ${outFile} (${Math.round(result.outputFiles[0].text.length / 1024)} KB)`);

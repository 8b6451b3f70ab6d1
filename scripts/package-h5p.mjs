// npm run package:h5p: the lab as an H5P package (.h5p) that a course author
// uploads to Moodle, WordPress (H5P plugin), Drupal or h5p.com as it is: the
// content type H5P.AttentionLab (h5p/: library.json, semantics.json, its class
// and its words) with the element and its core inside one classic script
// (web/generated/attention-lab-h5p.js: H5P packages hold no .wasm), and one
// content with the author's settings, which the H5P editor can change later. The
// editor's words in traditional Chinese (language/zh-hant.json) are made from the
// simplified ones here, as the page's are (zh-hant-words.mjs).
//   node scripts/package-h5p.mjs [--sentence=…] [--lang=en|zh|zh-Hant] [--step=softmax]
//        [--exercises=softmax,scaled:2:3] [--tour] [--mastery=80] [--title=…] [--out=dist/attention-lab.h5p]
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { checkLesson } from './lesson-package.mjs';
import { writeZip } from './zip.mjs';
import { toTaiwan } from './zh-hant-words.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const read = (path) => readFileSync(resolve(root, path));
const library = JSON.parse(read('h5p/library.json'));
export const LIBRARY_FOLDER = `${library.machineName}-${library.majorVersion}.${library.minorVersion}`;
// The content's language as H5P names it.
const H5P_LANGUAGE = Object.freeze({ en: 'en', zh: 'zh-hans', 'zh-Hant': 'zh-hant' });

/** The author's settings as the content's params (semantics.json); throws an Error naming a bad one. */
export function contentParams({ sentence, lang = 'en', step = 'softmax', exercises = '', tour = false, mastery = '80' }) {
  const masteryScore = checkLesson({ exercises, lang, mastery, sentence, step });
  return { sentence: sentence ?? '我喜欢人工智能', language: lang, step, exercises, tour, masteryScore };
}

/** The package's files, [{ name, data }]: the content's h5p.json and content.json, and the library. */
export function h5pEntries(params, title = 'Attention Lab: softmax(QKᵀ/√d_k)·V') {
  let script;
  try {
    script = read('web/generated/attention-lab-h5p.js');
  } catch {
    throw new Error('web/generated/attention-lab-h5p.js is not built: run `bash scripts/build.sh web` (npm run package:h5p does)');
  }
  const h5p = { title, language: H5P_LANGUAGE[params.language] ?? 'en', mainLibrary: library.machineName, embedTypes: library.embedTypes,
    license: 'U', preloadedDependencies: [{ machineName: library.machineName, majorVersion: library.majorVersion, minorVersion: library.minorVersion }] };
  const inLibrary = (name, data) => ({ name: `${LIBRARY_FOLDER}/${name}`, data });
  return [
    { name: 'h5p.json', data: JSON.stringify(h5p, null, 2) },
    { name: 'content/content.json', data: JSON.stringify(params, null, 2) },
    inLibrary('library.json', read('h5p/library.json')),
    inLibrary('semantics.json', read('h5p/semantics.json')),
    inLibrary('language/.en.json', read('h5p/language/.en.json')),
    inLibrary('language/zh-hans.json', read('h5p/language/zh-hans.json')),
    inLibrary('language/zh-hant.json', JSON.stringify(JSON.parse(read('h5p/language/zh-hans.json'), (key, value) => (typeof value === 'string' ? toTaiwan(value) : value)), null, 2)),
    inLibrary('attention-lab-h5p.js', read('h5p/attention-lab-h5p.js')),
    inLibrary('dist/attention-lab-h5p.js', script),
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      sentence: { type: 'string' }, lang: { type: 'string', default: 'en' }, step: { type: 'string', default: 'softmax' },
      exercises: { type: 'string', default: '' }, tour: { type: 'boolean', default: false }, mastery: { type: 'string', default: '80' },
      title: { type: 'string', default: 'Attention Lab: softmax(QKᵀ/√d_k)·V' }, out: { type: 'string', default: 'dist/attention-lab.h5p' },
    },
  });
  try {
    const entries = h5pEntries(contentParams(values), values.title);
    const out = resolve(process.cwd(), values.out);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, writeZip(entries));
    console.log(`wrote ${out} (H5P: ${library.machineName} ${library.majorVersion}.${library.minorVersion} and one content, ${entries.length} files)`);
  } catch (error) {
    console.error(`package:h5p: ${error.message}`);
    process.exit(2);
  }
}

// The training corpus, from Debian packages: `apt-get download` (no install),
// `dpkg-deb -x`, plain text out of fortune files, man pages and HTML help
// (scripts/corpus-text.mjs), cleaned, deduplicated, split into training and
// held-out lines. Writes build/corpus/{zh,en}.{train,heldout}.txt and
// manifest.json (each package's version, licence, size and what it gave).
//
//   node scripts/corpus.mjs [--out DIR]
//
// Part of `npm run train`, never of `npm start` or `npm test`.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanAndSplit, fortuneToText, hanCount, htmlToText, readText, troffToText } from './corpus-text.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** What each package gives: its language, and which files, read how. */
export const PACKAGES = [
  { name: 'fortunes-zh', language: 'zh', files: /games\/fortunes\/(chinese|tang300|song100)$/, read: fortuneToText },
  { name: 'manpages-zh', language: 'zh', files: /man\/zh_CN\/.*\.gz$/, read: troffToText },
  { name: 'debian-reference-zh-cn', language: 'zh', files: /debian-reference\/.*\.zh-cn\.html$/, read: htmlToText },
  { name: 'gimp-help-zh-cn', language: 'zh', files: /help\/zh_CN\/.*\.html$/, read: htmlToText, copyright: 'gimp-help-common' },
  { name: 'libreoffice-help-zh-cn', language: 'zh', files: /help\/zh-CN\/text\/.*\.html$/, read: htmlToText },
  // Its copyright file has no License: field; it grants the GNU-manual-style verbatim copying permission.
  { name: 'debian-faq-zh-cn', language: 'zh', files: /FAQ\/zh-cn\/.*\.html$/, read: htmlToText, licence: 'verbatim and modified copies permitted (the Debian FAQ notice; no License: field)' },
  { name: 'debian-edu-doc-zh-cn', language: 'zh', files: /debian-edu-doc-zh-cn\/.*\.html$/, read: htmlToText },
  { name: 'maint-guide-zh-cn', language: 'zh', files: /maint-guide-zh-cn\/html\/.*\.html$/, read: htmlToText },
  { name: 'kicad-doc-zh', language: 'zh', files: /help\/zh\/.*\.html$/, read: htmlToText },
  // Its copyright file: "This program falls under the BSD copyright", no License: field.
  { name: 'fortunes', language: 'en', files: /games\/fortunes\/[a-z-]+$/, read: fortuneToText, licence: 'BSD (4.4BSD fortune)' },
  { name: 'debian-reference-en', language: 'en', files: /debian-reference\/.*\.en\.html$/, read: htmlToText },
  { name: 'manpages', language: 'en', files: /man\/man\d\/.*\.gz$/, read: troffToText },
];

function run(command, args, options = {}) {
  return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options });
}

function walk(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(path));
    else if (entry.isFile()) out.push(path); // links (fortune .u8 names, doc links) are skipped
  }
  return out;
}

/** The licences a Debian copyright file names (its License: fields), or its first line about a licence. */
export function licencesOf(copyright) {
  const fields = [...new Set([...copyright.matchAll(/^License:\s*(\S.*)$/gm)].map((m) => m[1].trim()))];
  if (fields.length) return fields.join(', ');
  return copyright.split('\n').find((line) => /licen[cs]e|public domain|BSD|GPL/i.test(line))?.trim() ?? 'see the package copyright';
}

/** Downloads (once) and unpacks a package; returns { deb, dir, version, bytes }. */
function fetchPackage(name, work) {
  const debs = join(work, 'debs');
  mkdirSync(debs, { recursive: true });
  let deb = readdirSync(debs).find((f) => f.startsWith(`${name}_`) && f.endsWith('.deb'));
  if (!deb) {
    run('apt-get', ['download', name], { cwd: debs });
    deb = readdirSync(debs).find((f) => f.startsWith(`${name}_`) && f.endsWith('.deb'));
  }
  const path = join(debs, deb);
  const dir = join(work, 'packages', name);
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true });
    run('dpkg-deb', ['-x', path, dir]);
  }
  return { deb: path, dir, version: run('dpkg-deb', ['-f', path, 'Version']).trim(), bytes: statSync(path).size };
}

/** Every line of text one unpacked package gives, with the files read. */
export function packageLines(pkg, dir) {
  const files = walk(dir).filter((f) => pkg.files.test(relative(dir, f)));
  const lines = [];
  for (const file of files) for (const line of pkg.read(readText(readFileSync(file), file)).split("\n")) lines.push(line);
  return { files: files.length, lines };
}

async function main() {
  const at = process.argv.indexOf('--out');
  const out = at > 0 ? process.argv[at + 1] : join(ROOT, 'build/corpus');
  mkdirSync(out, { recursive: true });
  const manifest = { made: 'node scripts/corpus.mjs', heldOut: '1 line in 50, by FNV-1a hash of the cleaned line', packages: [], languages: {} };
  const byLanguage = { zh: [], en: [] };
  for (const pkg of PACKAGES) {
    const got = fetchPackage(pkg.name, out);
    let copyright = join(got.dir, 'usr/share/doc', pkg.name, 'copyright');
    if (pkg.copyright) copyright = join(fetchPackage(pkg.copyright, out).dir, 'usr/share/doc', pkg.copyright, 'copyright');
    const { files, lines } = packageLines(pkg, got.dir);
    const kept = cleanAndSplit(lines, pkg.language, 50);
    for (const line of lines) byLanguage[pkg.language].push(line);
    manifest.packages.push({
      name: pkg.name, version: got.version, language: pkg.language, licence: pkg.licence ?? licencesOf(readFileSync(copyright, 'utf8')),
      downloadBytes: got.bytes, files, lines: kept.train.length + kept.heldout.length,
      hanCharacters: [...kept.train, ...kept.heldout].reduce((n, line) => n + hanCount(line), 0),
    });
    console.log(`${pkg.name} ${got.version}: ${files} files, ${kept.train.length + kept.heldout.length} lines kept`);
  }
  for (const [language, lines] of Object.entries(byLanguage)) {
    const split = cleanAndSplit(lines, language, 50); // across packages: a line two packages share counts once
    writeFileSync(join(out, `${language}.train.txt`), `${split.train.join('\n')}\n`);
    writeFileSync(join(out, `${language}.heldout.txt`), `${split.heldout.join('\n')}\n`);
    const all = [...split.train, ...split.heldout];
    manifest.languages[language] = {
      trainLines: split.train.length, heldoutLines: split.heldout.length, duplicates: split.duplicates, dropped: split.dropped,
      characters: all.reduce((n, line) => n + [...line].length, 0), hanCharacters: all.reduce((n, line) => n + hanCount(line), 0),
    };
  }
  writeFileSync(join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(JSON.stringify(manifest.languages, null, 2));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();

// The training corpus, from Debian packages: `apt-get download` (no install),
// `dpkg-deb -x`, plain text out of fortune files, man pages and HTML help
// (scripts/corpus-text.mjs), cleaned, deduplicated, split into training and
// held-out lines. Writes build/corpus/{zh,en}.{train,heldout}.txt and
// manifest.json (each package's version, licence, size and what it gave).
//
//   node scripts/corpus.mjs [--out DIR] [--without SOURCE,…] [--lexicon-in-sentences]
//
// Part of `npm run train`, never of `npm start` or `npm test`.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanAndSplit, fnv1a, hanCount, keepEveryday, keptOnce, normalise, readText, splitSentences } from './corpus-text.mjs';
import { ALIAS_CONVERTERS, EVERYDAY, LEXICON, lexiconUnits, PACKAGES, traditionalAliases } from './corpus-sources.mjs';
import { wordnetLemmas } from './usage-text.mjs';
import { carrierSlots, lexiconInContext, readWordTags } from './lexicon-context.mjs';
import {
  commonWords, contentSet, evalSet, FUNCTION_COUNT, learnerSet, lexiconFor, readWordCounts, wordInsideSet,
} from './eval-sets.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

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

/** Downloads (once) and unpacks a package (only the files matching `extract`
 *  when given, and its copyright); returns { deb, dir, version, bytes }. */
function fetchPackage(name, work, extract) {
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
    if (extract) {
      run('bash', ['-c', 'dpkg-deb --fsys-tarfile "$1" | tar -x -C "$2" --wildcards "$3" "*/doc/*/copyright"', '-', path, dir, extract]);
    } else {
      run('dpkg-deb', ['-x', path, dir]);
    }
  }
  return { deb: path, dir, version: run('dpkg-deb', ['-f', path, 'Version']).trim(), bytes: statSync(path).size };
}

/** Downloads (once) and unpacks an npm package; returns { dir, version, bytes, licence }. */
function fetchNpm(name, version, work) {
  const dir = join(work, 'npm');
  const tgz = join(dir, `${name}-${version}.tgz`);
  mkdirSync(dir, { recursive: true });
  if (!existsSync(tgz)) run('npm', ['pack', `${name}@${version}`, '--silent'], { cwd: dir });
  const into = join(dir, `${name}-${version}`);
  if (!existsSync(into)) {
    mkdirSync(into, { recursive: true });
    run('tar', ['-xzf', tgz, '-C', into]);
  }
  const meta = JSON.parse(readFileSync(join(into, 'package/package.json'), 'utf8'));
  return { dir: into, version, bytes: statSync(tgz).size, licence: meta.license };
}

/** Every line of text one unpacked package gives, with the files read. */
export function packageLines(pkg, dir) {
  const files = walk(dir).filter((f) => pkg.files.test(relative(dir, f)));
  const lines = [];
  for (const file of files) for (const line of pkg.read(readText(readFileSync(file), file)).split("\n")) lines.push(line);
  return { files: files.length, lines };
}

/** Every paragraph an everyday source gives, by language: { files, zh, en }. */
export function everydayParagraphs(source, dir) {
  const files = walk(dir).filter((f) => source.files.test(relative(dir, f)));
  const out = { files: files.length, zh: [], en: [] };
  for (const file of files) {
    const got = source.read(readFileSync(file), file);
    for (const language of ['zh', 'en']) for (const p of got[language] ?? []) out[language].push(p);
  }
  return out;
}

/**
 * Everyday paragraphs of one language (in source order) → training and
 * held-out sentences. Paragraphs are cleaned, kept by keepEveryday(),
 * deduplicated, and held out whole when their FNV-1a hash is divisible by
 * `every` (`learnerEvery` for the learner-register sources, whose held-out
 * sentences must give a set of their own); each is then split into its sentences, one a line, with an empty
 * line after each paragraph (a paragraph's sentences stay together).
 * `sentences`: the held-out ones of sources that are not phrases (the
 * everyday sets' candidates); `learnerSentences` and `learnerTrain`: the
 * held-out and training sentences of the learner-register sources (the
 * learner set's candidates, and the text its common words are counted on).
 * A paragraph is a string or { text, phrases, learner }.
 */
export function everydaySplit(paragraphs, language, every = 25, learnerEvery = 10) {
  const out = {
    train: [], heldout: [], usageTrain: [], usageHeldout: [], sentences: [], learnerSentences: [], learnerTrain: [], paragraphs: 0, dropped: 0,
    duplicates: 0,
  };
  for (const [p, item] of keptOnce(paragraphs, (line) => keepEveryday(line, language), out, true)) {
    out.paragraphs += 1;
    const heldout = fnv1a(p) % (item.learner ? learnerEvery : every) === 0;
    const sentences = splitSentences(p, language);
    // The usage sources (lab: false) apart: the trainer reads them as units and running text, not for the vocabulary.
    if (item.lab === false) (heldout ? out.usageHeldout : out.usageTrain).push(...sentences, '');
    else (heldout ? out.heldout : out.train).push(...sentences, '');
    if (item.learner && heldout) out.learnerSentences.push(...sentences);
    else if (item.learner) out.learnerTrain.push(...sentences, '');
    else if (heldout && !item.phrases && item.lab !== false) out.sentences.push(...sentences); // the everyday sets keep to their first sources
  }
  return out;
}

async function main() {
  const at = process.argv.indexOf('--out');
  const out = at > 0 ? process.argv[at + 1] : join(ROOT, 'build/corpus');
  // --without a,b: everyday sources left out (to measure what each adds); the
  // packages are still read from build/corpus's downloads.
  const w = process.argv.indexOf('--without');
  const without = new Set(w > 0 ? process.argv[w + 1].split(',') : []);
  // --lexicon-in-sentences: the word list's units set into training sentences (scripts/lexicon-context.mjs).
  const inSentences = process.argv.includes('--lexicon-in-sentences');
  const cache = w > 0 || inSentences ? join(ROOT, 'build/corpus') : out;
  mkdirSync(out, { recursive: true });
  const manifest = { made: 'node scripts/corpus.mjs', heldOut: '1 line in 50, by FNV-1a hash of the cleaned line', packages: [], languages: {} };
  const byLanguage = { zh: [], en: [] };
  for (const pkg of PACKAGES) {
    const got = fetchPackage(pkg.name, cache);
    let copyright = join(got.dir, 'usr/share/doc', pkg.name, 'copyright');
    if (pkg.copyright) copyright = join(fetchPackage(pkg.copyright, cache).dir, 'usr/share/doc', pkg.copyright, 'copyright');
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
  // The everyday sources, then the evaluation sets from their held-out sentences.
  const everyday = { zh: [], en: [] };
  const lab = { zh: [], en: [] };
  const opencc = JSON.parse(readFileSync(join(ROOT, 'node_modules/opencc-js/package.json'), 'utf8'));
  manifest.tools = [{
    name: 'opencc-js (npm)', version: opencc.version, licence: opencc.license,
    use: 'Taiwan Chinese to mainland simplified (gcompris-qt-data); the traditional characters the model file aliases (zh-hant.aliases.txt)',
  }];
  const aliases = traditionalAliases(ALIAS_CONVERTERS);
  writeFileSync(join(out, 'zh-hant.aliases.txt'), `${aliases.join('\n')}\n`);
  manifest.aliases = aliases.length;
  for (const source of EVERYDAY.filter((s) => !without.has(s.npm ?? s.name))) {
    const got = source.npm ? fetchNpm(source.npm, source.version, cache) : fetchPackage(source.name, cache, source.extract);
    const licence = source.licence ?? got.licence ?? licencesOf(readFileSync(join(got.dir, 'usr/share/doc', source.name, 'copyright'), 'utf8'));
    const { files, zh, en } = everydayParagraphs(source, got.dir);
    const item = (text) => ({ text, phrases: source.phrases, learner: source.learner, lab: source.lab, source: source.npm ?? source.name });
    for (const p of zh) everyday.zh.push(item(p));
    for (const p of en) everyday.en.push(item(p));
    // The training lab's text keeps to the sources it was made from (scripts/training-text.mjs).
    if (!source.learner && source.lab !== false) for (const p of zh) lab.zh.push(item(p));
    if (!source.learner && !source.phrases && source.lab !== false) for (const p of en) lab.en.push(item(p));
    const kept = { zh: zh.map(normalise).filter((p) => keepEveryday(p, 'zh')), en: en.map(normalise).filter((p) => keepEveryday(p, 'en')) };
    manifest.everyday ??= [];
    manifest.everyday.push({
      name: source.npm ? `${source.npm} (npm)` : source.part ? `${source.name} (${source.part})` : source.name, version: got.version ?? source.version, licence,
      downloadBytes: got.bytes, files, zhParagraphs: kept.zh.length, enParagraphs: kept.en.length,
      hanCharacters: kept.zh.reduce((n, p) => n + hanCount(p), 0), enWords: kept.en.reduce((n, p) => n + p.split(' ').length, 0),
    });
    console.log(`${source.npm ?? source.name} ${got.version ?? source.version}: ${files} files, ${kept.zh.length} zh and ${kept.en.length} en paragraphs`);
  }
  // The lexicon: training units, and the word counts the word-inside set and the lexicon baseline read.
  const jieba = fetchPackage(LEXICON.name, cache, LEXICON.extract);
  const [dictFile] = walk(jieba.dir).filter((f) => LEXICON.files.test(f));
  const dict = readFileSync(dictFile, 'utf8');
  const lexicon = lexiconUnits(readWordCounts(dict));
  if (!inSentences) writeFileSync(join(out, 'zh.lexicon.train.txt'), `${lexicon.units.join('\n')}\n`);
  writeFileSync(join(out, 'zh.words.tsv'), [...lexicon.words].map(([w, c]) => `${w}\t${c}\n`).join(''));
  manifest.lexicon = {
    name: LEXICON.name, version: jieba.version, licence: licencesOf(readFileSync(join(jieba.dir, 'usr/share/doc', LEXICON.name, 'copyright'), 'utf8')),
    downloadBytes: jieba.bytes, hanWords: lexicon.words.size, units: lexicon.units.length / 2,
  };
  // English: WordNet's lemmas (single words and collocations) with their counts, for the lexicon baseline.
  const wordnet = fetchPackage('wordnet-base', cache);
  const lemmas = new Map();
  for (const part of ['noun', 'verb', 'adj', 'adv']) {
    for (const [lemma, count] of wordnetLemmas(readFileSync(join(wordnet.dir, `usr/share/wordnet/index.${part}`), 'utf8'))) {
      lemmas.set(lemma, (lemmas.get(lemma) ?? 0) + count);
    }
  }
  writeFileSync(join(out, 'en.words.tsv'), [...lemmas].map(([w, c]) => `${w}\t${c}\n`).join(''));
  manifest.lexicon.english = { name: 'wordnet-base', lemmas: lemmas.size, use: 'the lexicon baseline (index files: lemmas and sense-tagged counts)' };
  manifest.everydayHeldOut = '1 paragraph in 25 (1 in 10 of the learner-register sources), by FNV-1a hash of the cleaned paragraph';
  manifest.evaluation = {};
  for (const language of ['zh', 'en']) {
    const split = everydaySplit(everyday[language], language, 25, 10);
    writeFileSync(join(out, `${language}.everyday.train.txt`), `${split.train.join('\n')}\n`);
    writeFileSync(join(out, `${language}.everyday.heldout.txt`), `${split.heldout.join('\n')}\n`);
    writeFileSync(join(out, `${language}.learner.train.txt`), `${split.learnerTrain.join('\n')}\n`);
    writeFileSync(join(out, `${language}.usage.train.txt`), `${split.usageTrain.join('\n')}\n`);
    writeFileSync(join(out, `${language}.usage.heldout.txt`), `${split.usageHeldout.join('\n')}\n`); // also in everyday.train: the trainer may weight it
    writeFileSync(join(out, `${language}.lab.train.txt`), `${everydaySplit(lab[language], language, 25).train.join('\n')}\n`);
    const set = evalSet(split.sentences, language);
    writeFileSync(join(out, `${language}.eval.tsv`), set.map((e) => `${e.masked}\t${e.answer}\n`).join(''));
    if (language === 'en') {
      const common = commonWords(split.learnerTrain);
      const learner = learnerSet(split.learnerSentences, common);
      writeFileSync(join(out, 'en.learner.eval.tsv'), learner.map((e) => `${e.masked}\t${e.answer}\n`).join(''));
      writeFileSync(join(out, 'en.learner.common.txt'), `${common.join('\n')}\n`);
      manifest.evaluation['en.learner'] = learner.length;
      manifest.evaluation['en.learner.candidates'] = split.learnerSentences.length;
      const frequent = commonWords([...split.train, ...split.usageTrain], FUNCTION_COUNT);
      const content = contentSet(split.learnerSentences, frequent);
      writeFileSync(join(out, 'en.content.frequent.txt'), `${frequent.join('\n')}\n`);
      writeFileSync(join(out, 'en.content.eval.tsv'), content.map((e) => `${e.masked}\t${e.answer}\n`).join(''));
      manifest.evaluation['en.content'] = content.length;
    } else {
      if (inSentences) { // a lever (docs/model.md): each lexicon unit set into a training sentence
        const tags = readWordTags(dict);
        const placed = lexiconInContext(lexicon.units, tags, carrierSlots(split.train, lexicon.words, tags));
        writeFileSync(join(out, 'zh.lexicon.train.txt'), `${placed.units.join('\n')}\n`);
        Object.assign(manifest.lexicon, { inSentences: placed.placed, alone: placed.alone });
      }
      const inside = wordInsideSet([...split.sentences, ...split.learnerSentences], lexicon.words);
      writeFileSync(join(out, 'zh.words.eval.tsv'), inside.map((e) => `${e.masked}\t${e.answer}\n`).join(''));
      // The dictionary entries that segment the set's sentences, for the test that rebuilds it.
      const used = lexiconFor(inside.map((e) => e.sentence), lexicon.words);
      writeFileSync(join(out, 'zh.words.lexicon.tsv'), `#total\t${used.total}\n${[...used.counts].map(([w, c]) => `${w}\t${c}\n`).join('')}`);
      manifest.evaluation['zh.words'] = inside.length;
    }
    const sentences = (lines) => lines.filter(Boolean);
    manifest.languages[`${language}.everyday`] = {
      paragraphs: split.paragraphs, duplicates: split.duplicates, dropped: split.dropped,
      trainSentences: sentences(split.train).length, heldoutSentences: sentences(split.heldout).length,
      characters: sentences([...split.train, ...split.heldout]).reduce((n, line) => n + [...line].length, 0),
      hanCharacters: sentences([...split.train, ...split.heldout]).reduce((n, line) => n + hanCount(line), 0),
    };
    manifest.evaluation[language] = set.length;
  }
  writeFileSync(join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(JSON.stringify(manifest.languages, null, 2));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();

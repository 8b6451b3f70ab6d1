// Writes web/models/training-text.txt, the text the training lab learns from
// by default, from the corpus `npm run train` builds (build/corpus/, everyday
// Chinese and English from Debian packages: docs/model.md). The rule: the
// non-empty lines of zh.lab.train.txt and en.lab.train.txt (the everyday
// training sentences of the sources the lab's text was first made from: not
// the learner-register ones, nor LibreOffice's English phrases) of at most
// 120 characters, every ZH_EVERY-th and EN_EVERY-th of them, alternated (zh, en, …)
// until both run out. None is picked by what a model does with it.
//   node scripts/training-text.mjs [corpus dir] [out file]
import { readFileSync, writeFileSync } from 'node:fs';

const ZH_EVERY = 30;
const EN_EVERY = 45;
const [corpus = 'build/corpus', out = 'web/models/training-text.txt'] = process.argv.slice(2);
const pick = (lang, every) => readFileSync(`${corpus}/${lang}.lab.train.txt`, 'utf8').split('\n')
  .map((line) => line.trim()).filter((line) => line && [...line].length <= 120)
  .filter((_, k) => k % every === 0);
const zh = pick('zh', ZH_EVERY);
const en = pick('en', EN_EVERY);
const lines = [];
for (let k = 0; k < Math.max(zh.length, en.length); k += 1) {
  if (k < zh.length) lines.push(zh[k]);
  if (k < en.length) lines.push(en[k]);
}
writeFileSync(out, `${lines.join('\n')}\n`);
console.log(`${out}: ${lines.length} lines (${zh.length} Chinese, ${en.length} English), ${(Buffer.byteLength(lines.join('\n')) / 1024).toFixed(1)} KB`);

// Two model files on one evaluation set, item by item: which sentences each gets
// in its top five, and McNemar's exact test on the sentences only one of them gets
// (docs/model.md gives what it printed for the shipped model). Through the API, as a
// learner's page runs the model.
//   node scripts/compare-models.mjs SET.tsv A.almodel B.almodel
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** McNemar's exact two-sided p for b sentences only one model gets and c only the other:
 *  under "no difference" each of the b + c falls either way with probability ½. */
export function mcnemarExact(b, c) {
  const n = b + c;
  if (n === 0) return 1;
  let tail = 0;
  let term = 2 ** -n; // C(n, 0) / 2^n
  for (let k = 0; k <= Math.min(b, c); k += 1) {
    tail += term;
    term *= (n - k) / (k + 1);
  }
  return Math.min(1, 2 * tail);
}

/** hitsA, hitsB: one boolean an item each. */
export function pairedCounts(hitsA, hitsB) {
  const counts = { both: 0, onlyA: 0, onlyB: 0, neither: 0 };
  hitsA.forEach((a, k) => {
    const b = hitsB[k];
    counts[a && b ? 'both' : a ? 'onlyA' : b ? 'onlyB' : 'neither'] += 1;
  });
  return { ...counts, p: mcnemarExact(counts.onlyA, counts.onlyB) };
}

async function main([set, fileA, fileB]) {
  if (!set || !fileA || !fileB) {
    console.error('usage: node scripts/compare-models.mjs SET.tsv A.almodel B.almodel');
    process.exit(2);
  }
  const { loadAttentionLab } = await import('attention-lab');
  const core = await loadAttentionLab();
  core.loadModel('a', readFileSync(fileA));
  core.loadModel('b', readFileSync(fileB));
  const items = readFileSync(set, 'utf8').split('\n').filter(Boolean).map((line) => line.split('\t'));
  // shown: the answer is among the five guesses the page lists (the core's rankAnswers says so).
  const hits = (model) => items.map(([sentence, answer]) => core.rankAnswers(sentence, [answer], { model })[0].shown);
  const r = pairedCounts(hits('a'), hits('b'));
  const top5 = (n) => `${((100 * n) / items.length).toFixed(1)} %`;
  console.log(`${set}: ${items.length} items; top-5 A ${top5(r.both + r.onlyA)}, B ${top5(r.both + r.onlyB)}`);
  console.log(`both ${r.both}, only A ${r.onlyA}, only B ${r.onlyB}, neither ${r.neither}; McNemar's exact p = ${r.p.toFixed(3)}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main(process.argv.slice(2));

// One forward of the random model through the public API, this checkout against
// another one's build, interleaved in one process (run by run, so both see the
// same machine), at each of the kernel section's shapes:
//   node bench/compare.mjs <other checkout, built with `bash scripts/build.sh web`>
// Prints each build's median and their ratio (this / other: below 1 is faster here).
import { median, ROOT, sentenceOf } from './common.mjs';
import { SHAPES } from './kernel.mjs';

const [other] = process.argv.slice(2);
if (!other) {
  console.error('usage: node bench/compare.mjs <other checkout>');
  process.exit(2);
}
const load = async (root) => (await import(`${new URL(`${root.replace(/\/?$/, '/')}web/lib/attention-lab.js`, `file://${process.cwd()}/`)}`)).loadAttentionLab();
const builds = [['this', await load(ROOT)], ['other', await load(other)]];

const once = (core, sentence, options) => {
  const t0 = performance.now();
  core.run(sentence, options).dispose();
  return performance.now() - t0;
};

console.log('| n, d_model, d_k | this (ms) | other (ms) | this / other |');
console.log('|---|---|---|---|');
for (const [n, dModel, dK] of SHAPES) {
  const sentence = sentenceOf(n);
  const options = { model: 'random', dModel, dK };
  // Both warmed up to V8's optimising tier (see kernel.mjs), then alternated run by run.
  const until = performance.now() + 2000;
  for (let w = 0; w < 300 || performance.now() < until; w += 1) for (const [, core] of builds) once(core, sentence, options);
  const times = { this: [], other: [] };
  const reps = n >= 512 ? 60 : 300;
  for (let r = 0; r < reps; r += 1) {
    const order = r % 2 ? builds : [...builds].reverse();
    for (const [name, core] of order) times[name].push(once(core, sentence, options));
  }
  const [a, b] = [median(times.this), median(times.other)];
  console.log(`| ${n}, ${dModel}, ${dK} | ${a.toFixed(3)} | ${b.toFixed(3)} | ${(a / b).toFixed(3)} |`);
}

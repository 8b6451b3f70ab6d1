// The trained-model section: the whole forward through the public API (every
// head, the feed-forward block, and with predictMasked the prediction head for
// the hidden tokens) against the f32x4 ceiling sampled between the runs; the
// model file's load time; training steps per second (bench/train_bench.cpp).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { median, ROOT } from './common.mjs';

export const MODEL_SIZES = [9, 64, 128];
const MODEL_FILE = `${ROOT}web/models/trained.almodel`;

// n tokens of the trained model's text: [CLS], n − 2 characters, [SEP]; with
// `masked`, every 7th character is [MASK] (the prediction head's rows).
const textOf = (n, masked) => Array.from({ length: n - 2 }, (_, k) => (masked && k % 7 === 3 ? '[MASK]' : '我喜欢人工智能'[k % 7])).join('');

// Floating-point operations of one forward of n tokens (multiply-adds as 2).
export function modelFlops({ layers, heads, dModel: d, dK, vocabSize, dFf = 4 * d }, n, masks = 0) {
  const layer = 3 * 2 * n * d * d + heads * 2 * (2 * n * n * dK) + 2 * n * d * d + 2 * 2 * n * d * dFf;
  return layers * layer + masks * 2 * d * vocabSize;
}

export async function modelSection(core, ceiling) {
  const info = core.models.find((m) => m.trained);
  const rows = [];
  for (const n of MODEL_SIZES) {
    for (const [what, call, masks] of [
      ['run (encoder)', () => core.run(textOf(n, false)).dispose(), 0],
      ['predictMasked (+ prediction head)', () => core.predictMasked(textOf(n, true), { topK: 5 }), (textOf(n, true).match(/\[MASK\]/g) ?? []).length],
    ]) {
      const until = performance.now() + 500;
      for (let w = 0; w < 100 || performance.now() < until; w += 1) call();
      const ms = [];
      const top = [];
      for (let r = 0; r < 100; r += 1) {
        const t0 = performance.now();
        call();
        ms.push(performance.now() - t0);
        top.push(ceiling.sample());
      }
      const flops = modelFlops(info, n, masks);
      rows.push({ n, what, ms: median(ms), ceiling: median(top), flops, masks });
    }
  }
  const bytes = new Uint8Array(readFileSync(MODEL_FILE));
  const loads = [];
  for (let k = 0; k < 15; k += 1) {
    const t0 = performance.now();
    core.loadModel('bench', bytes);
    loads.push(performance.now() - t0);
  }
  const training = JSON.parse(execFileSync(`${ROOT}build/native/bench_train`, { encoding: 'utf8' }).trim());
  return { info, rows, load: { ms: median(loads), bytes: bytes.length, gzip: gzipSync(bytes).length }, training };
}

export function modelTable({ rows }) {
  return [
    '| n | call | masks | ms | GFLOP/s | ceiling meanwhile | % of ceiling |',
    '|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.n} | ${r.what} | ${r.masks} | ${r.ms.toFixed(3)} | ${(r.flops / r.ms / 1e6).toFixed(2)} | ${r.ceiling.toFixed(2)} | ${(100 * r.flops / r.ms / 1e6 / r.ceiling).toFixed(1)} % |`),
  ];
}

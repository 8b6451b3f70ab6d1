// The kernel section: one full forward through the public JS API in Node, the
// same C++ natively (-O3 -march=native), and the wasm f32x4 mul+add ceiling
// sampled between the runs; and the wasm heap after 10,000 recomputes.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { median, ROOT, sentenceOf } from './common.mjs';

export const SHAPES = [[9, 768, 64], [64, 768, 64], [128, 768, 64], [512, 768, 64]];
export const flops = ([n, d, k]) => 2 * n * d * k * 3 + 2 * n * n * k * 2;

// The f32x4 mul+add probe (bench/simd_ceiling.cpp), in this process: called
// from JavaScript like the kernel, so V8 optimises it the same way.
export async function loadCeiling() {
  const { default: create } = await import(`${ROOT}build/wasm/bench_simd_ceiling.mjs`);
  const probe = await create({ wasmBinary: readFileSync(`${ROOT}build/wasm/bench_simd_ceiling.wasm`) });
  const sample = (chains, steps = 50_000) => probe._probe(chains, steps, 0.999999, 1e-7);
  const sweep = {};
  for (const chains of [4, 6, 8, 10, 12, 14, 16]) {
    const xs = [];
    for (let r = 0; r < 40; r += 1) xs.push(sample(chains));
    sweep[chains] = median(xs.slice(10));
  }
  const chains = Number(Object.entries(sweep).sort((a, b) => b[1] - a[1])[0][0]);
  return { chains, sweep, sample: () => sample(chains) };
}

export function native() {
  const out = execFileSync(`${ROOT}build/native/bench_native`, { encoding: 'utf8' });
  return out.trim().split('\n').map((line) => JSON.parse(line));
}

// Each kernel run is followed by a ceiling sample, so every shape's figure is
// a ratio of two medians taken over the same few seconds.
export async function kernel(core, ceiling) {
  const rows = [];
  for (const shape of SHAPES) {
    const [n, dModel, dK] = shape;
    const sentence = sentenceOf(n);
    const options = { model: 'random', dModel, dK };
    // Params drawn and cached, and the code warmed up to V8's optimising
    // tier. V8 moves a wasm or JS function to optimised code once it has run
    // a budget of instructions, compiled in the background meanwhile, so a
    // fixed count of runs is not enough for short runs: at n = 9 (0.1 ms a
    // run) the path is fully optimised only after ≈ 150–200 runs. The first
    // 100 runs are kept apart (`early`): reported for the first shape, whose
    // code starts cold.
    const early = [];
    const until = performance.now() + 1000;
    for (let w = 0; w < 300 || performance.now() < until; w += 1) {
      const t0 = performance.now();
      const trace = core.run(sentence, options);
      if (w < 100) early.push(performance.now() - t0);
      trace.dispose();
    }
    const reps = n >= 512 ? 40 : 200;
    const ms = [];
    const top = [];
    for (let r = 0; r < reps; r += 1) {
      const t0 = performance.now();
      const trace = core.run(sentence, options);
      ms.push(performance.now() - t0);
      trace.dispose();
      top.push(ceiling.sample());
    }
    rows.push({ shape, ms: median(ms), ceiling: median(top), early: median(early.slice(10)) });
  }
  return rows;
}

export function heapFlat(core) {
  const sentence = sentenceOf(128);
  core.run(sentence, { model: 'random' }).dispose();
  const first = core.memoryUsage().wasmMemoryBytes;
  for (let k = 0; k < 10_000; k += 1) core.run(sentence, { model: 'random' }).dispose();
  return { first, after: core.memoryUsage().wasmMemoryBytes };
}

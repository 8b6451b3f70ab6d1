// The benchmark suite (npm run bench): kernel timings through the public JS API
// in Node, the native -O3 -march=native reference, the wasm f32x4 mul+add
// ceiling, page timings and weights in headless Chromium, and the heap after
// 10,000 recomputes. Medians of repeated runs; writes bench/RESULTS.md.
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { loadAttentionLab } from 'attention-lab';
import { startServer } from '../scripts/serve.mjs';
import { launchChromium } from '../tests/browser/chromium.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SHAPES = [[9, 768, 64], [64, 768, 64], [128, 768, 64], [512, 768, 64]];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const flops = ([n, d, k]) => 2 * n * d * k * 3 + 2 * n * n * k * 2;
const sentenceOf = (n) => '字'.repeat(n - 2);
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

function ceiling() {
  const out = execFileSync('node', ['--no-experimental-fetch', `${ROOT}build/wasm/bench_simd_ceiling.js`], { encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').at(-1)).gflops;
}

function native() {
  const out = execFileSync(`${ROOT}build/native/bench_native`, { encoding: 'utf8' });
  return out.trim().split('\n').map((line) => JSON.parse(line));
}

async function kernel(lab) {
  const rows = [];
  for (const shape of SHAPES) {
    const [n, dModel, dK] = shape;
    const sentence = sentenceOf(n);
    const options = { dModel, dK };
    lab.run(sentence, options).dispose(); // weights drawn and cached once
    const reps = n >= 512 ? 15 : 60;
    const ms = [];
    for (let r = 0; r < reps; r += 1) {
      const t0 = performance.now();
      const trace = lab.run(sentence, options);
      ms.push(performance.now() - t0);
      trace.dispose();
    }
    rows.push({ shape, ms: median(ms) });
  }
  return rows;
}

function heapFlat(lab) {
  const sentence = sentenceOf(128);
  lab.run(sentence).dispose();
  const first = lab.memoryUsage().wasmMemoryBytes;
  for (let k = 0; k < 10_000; k += 1) lab.run(sentence).dispose();
  return { first, after: lab.memoryUsage().wasmMemoryBytes };
}

async function page() {
  const server = await startServer({ root: `${ROOT}web`, port: 0, host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${server.address().port}`;
  const browser = await launchChromium();
  const result = { firstRender: [], keystroke: {}, bytes: 0, gzip: 0 };
  try {
    for (let r = 0; r < 7; r += 1) {
      const context = await browser.newContext({ reducedMotion: 'reduce' });
      const p = await context.newPage();
      let bytes = 0;
      let gzip = 0;
      p.on('response', async (response) => {
        try {
          const body = await response.body();
          bytes += body.length;
          gzip += gzipSync(body).length;
        } catch { /* redirects have no body */ }
      });
      await p.goto(`${origin}/`);
      await p.waitForSelector('body[data-ready="true"]', { state: 'attached' });
      result.firstRender.push(await p.evaluate(() => performance.now()));
      if (r === 0) Object.assign(result, { bytes, gzip });
      await context.close();
    }
    const context = await browser.newContext({ reducedMotion: 'reduce' });
    const p = await context.newPage();
    await p.goto(`${origin}/?stage=softmax`);
    await p.waitForSelector('body[data-ready="true"]', { state: 'attached' });
    for (const n of [9, 128, 512]) {
      // Put the sentence of n tokens in place first (through the debounced input).
      await p.fill('#sentence', sentenceOf(n));
      await p.waitForFunction((count) => document.querySelectorAll('#token-chips .chip').length === count, n);
      const times = [];
      for (let r = 0; r < 7; r += 1) {
        // Recompute and repaint after an edit, without the typing debounce:
        // the causal switch takes the same path (core run, then one redraw).
        times.push(await p.evaluate(async (flip) => {
          const box = document.getElementById('opt-causal');
          box.checked = flip;
          const before = document.body.dataset.rendered;
          const t0 = performance.now();
          box.dispatchEvent(new Event('change'));
          await new Promise((resolve) => {
            const check = () => (document.body.dataset.rendered !== before ? resolve() : requestAnimationFrame(check));
            check();
          });
          await new Promise((resolve) => { requestAnimationFrame(() => resolve()); });
          return performance.now() - t0;
        }, r % 2 === 0));
      }
      result.keystroke[n] = median(times);
    }
    await context.close();
  } finally {
    await browser.close();
    server.close();
  }
  return result;
}

const lab = await loadAttentionLab();
const top = ceiling();
const nat = native();
const ker = await kernel(lab);
const heap = heapFlat(lab);
const pg = await page();
const single = statSync(`${ROOT}web/generated/attention-lab.html`).size;
const singleGz = gzipSync(readFileSync(`${ROOT}web/generated/attention-lab.html`)).length;

const lines = [
  '# Benchmark results',
  '',
  `Machine: ${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB; Node ${process.version}; `
    + `${execFileSync('emcc', ['--version'], { encoding: 'utf8' }).split('\n')[0]}. Re-run with \`npm run bench\`.`,
  '',
  `wasm f32x4 mul+add ceiling (same run): **${top.toFixed(2)} GFLOP/s**.`,
  '',
  '## Kernel: one full forward through the JS API (every stage kept), median',
  '',
  '| n, d_model, d_k | wasm (ms) | wasm GFLOP/s | % of ceiling | native -O3 -march=native (ms) | native GFLOP/s |',
  '|---|---|---|---|---|---|',
  ...ker.map(({ shape, ms }, k) => {
    const g = flops(shape) / ms / 1e6;
    const nms = nat[k].medianMs;
    return `| ${shape.join(', ')} | ${ms.toFixed(3)} | ${g.toFixed(2)} | ${((g / top) * 100).toFixed(1)} % | ${nms.toFixed(3)} | ${(flops(shape) / nms / 1e6).toFixed(2)} |`;
  }),
  '',
  '## Page (headless Chromium, local server), median',
  '',
  `| measure | value |`,
  '|---|---|',
  `| navigation → first complete render | ${median(pg.firstRender).toFixed(0)} ms |`,
  ...Object.entries(pg.keystroke).map(([n, ms]) => `| edit → updated paint, n = ${n} (debounce excluded) | ${ms.toFixed(1)} ms |`),
  `| everything the page loads | ${kb(pg.bytes)} (${kb(pg.gzip)} gzip) |`,
  `| offline single file | ${kb(single)} (${kb(singleGz)} gzip) |`,
  `| wasm memory after the first run / after 10,000 runs at n = 128 | ${kb(heap.first)} / ${kb(heap.after)} |`,
  '',
  'Not measured yet: frames dropped during the stage animation.',
  '',
];
writeFileSync(`${ROOT}bench/RESULTS.md`, lines.join('\n'));
console.log(lines.join('\n'));

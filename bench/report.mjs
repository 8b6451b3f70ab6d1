// bench/RESULTS.md from one run's figures: the machine, the kernel table, the
// page table, and the targets with whether this run met each one. Everything
// in it is computed here from the run; nothing is kept by hand.
import { execFileSync } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { bertTable, bertTargets } from './bert.mjs';
import { kb, median } from './common.mjs';
import { flops } from './kernel.mjs';
import { modelTable } from './model.mjs';
import { trainingReport } from './training.mjs';

const pct = (x) => `${(x * 100).toFixed(1)} %`;
const yes = (ok) => (ok ? 'yes' : 'no');

/** The kernel's rows: wasm against the ceiling sampled meanwhile, and native. */
export function kernelTable(ker, nat) {
  return [
    '| n, d_model, d_k | wasm (ms) | wasm GFLOP/s | ceiling meanwhile | % of ceiling | native -O3 -march=native (ms) | native GFLOP/s |',
    '|---|---|---|---|---|---|---|',
    ...ker.map(({ shape, ms, ceiling: top }, k) => {
      const g = flops(shape) / ms / 1e6;
      const nms = nat[k].medianMs;
      return `| ${shape.join(', ')} | ${ms.toFixed(3)} | ${g.toFixed(2)} | ${top.toFixed(2)} | ${pct(g / top)} | ${nms.toFixed(3)} | ${(flops(shape) / nms / 1e6).toFixed(2)} |`;
    }),
  ];
}

const share = (runs) => runs.reduce((s, r) => s + r.dropped, 0) / runs.reduce((s, r) => s + r.frames, 0);

function dropShare(runs, noun = 'walks') {
  const dropped = runs.reduce((s, r) => s + r.dropped, 0);
  const frames = runs.reduce((s, r) => s + r.frames, 0);
  const where = {};
  for (const r of runs) for (const [step, lost] of Object.entries(r.where)) where[step] = (where[step] ?? 0) + lost;
  const at = Object.entries(where).map(([step, lost]) => `${step} ${lost}`).join(', ');
  return `${dropped} of ${frames} frames (${((dropped / frames) * 100).toFixed(2)} %) over ${runs.length} ${noun} of ${runs[0].seconds.toFixed(1)} s; frame interval ${runs[0].interval.toFixed(1)} ms${at ? `; after the step to ${at}` : ''}`;
}

/** The targets of the performance work, each against this run's figure. */
function targets({ ker, model, pg, heap, single }) {
  const ofCeiling = (n) => {
    const k = ker.find((r) => r.shape[0] === n);
    return flops(k.shape) / k.ms / 1e6 / k.ceiling;
  };
  const first = median(pg.firstRender);
  const floor = median(pg.floorView);
  const control = share(pg.control);
  const paused9 = share(pg.frames[9].paused);
  const forward = model.rows.find((r) => r.n === 128 && r.masks === 0);
  const ofForward = forward.flops / forward.ms / 1e6 / forward.ceiling;
  const rows = [
    ['trained model\'s whole forward through the API ≥ 70 % of the f32x4 ceiling at n = 128', pct(ofForward), yes(ofForward >= 0.7)],
    ['trained model file ≤ 1.5 MB gzip', kb(model.load.gzip), yes(model.load.gzip <= 1500 * 1000)],
    ['kernel ≥ 80 % of the f32x4 ceiling at n = 128', pct(ofCeiling(128)), yes(ofCeiling(128) >= 0.8)],
    ['kernel ≥ 80 % of the f32x4 ceiling at n = 512', pct(ofCeiling(512)), yes(ofCeiling(512) >= 0.8)],
    ['kernel ≥ 50 % of the ceiling at n = 9', pct(ofCeiling(9)), yes(ofCeiling(9) >= 0.5)],
    ['first complete render ≤ 300 ms (fresh context)',
      `${first.toFixed(0)} ms: ${(first / floor).toFixed(2)} × the floor, the same view as static HTML with no script or wasm (${floor.toFixed(0)} ms)`,
      first <= 300 ? 'yes' : `no${floor > 300 ? ': the floor itself is above the target on this machine' : ''}`],
    ['trained model loaded and first render ≤ 1.8 × the floor (the same view as static HTML)', `${(first / floor).toFixed(2)} ×`, yes(first / floor <= 1.8)],
    ['repeat visit ≤ 300 ms', `${median(pg.warmRender).toFixed(0)} ms`, yes(median(pg.warmRender) <= 300)],
    ['edit → paint ≤ 16 ms at n = 9, trained model', `${pg.keystroke[9].toFixed(1)} ms: ${(pg.keystroke[9] / pg.editFloor).toFixed(2)} × the floor, one number changed in the same view as static HTML (${pg.editFloor.toFixed(1)} ms); seeded head ${pg.keystrokeRandom[9].toFixed(1)} ms`,
      pg.keystroke[9] <= 16 ? 'yes' : `no${pg.editFloor > 12 ? ': the floor takes most of the 16 ms on this machine' : ''}`],
    ['edit → paint ≤ 100 ms at n = 128, trained model', `${pg.keystroke[128].toFixed(1)} ms (seeded head: ${pg.keystrokeRandom[128].toFixed(1)} ms)`, yes(pg.keystroke[128] <= 100)],
    ['edit → paint ≤ 500 ms at n = 512, trained model', `${pg.keystroke[512].toFixed(1)} ms`, yes(pg.keystroke[512] <= 500)],
    ['no dropped frames while the steps animate at n = 9 (after a pause)',
      `${(paused9 * 100).toFixed(2)} %, against the control page's ${(control * 100).toFixed(2)} %`,
      paused9 === 0 ? 'yes' : `no${paused9 <= control ? ': no more than the control page, which only animates' : ''}`],
    ['≤ 5 % dropped frames at n = 64', `${(share(pg.frames[64].paused) * 100).toFixed(2)} % after a pause, ${(share(pg.frames[64].atOnce) * 100).toFixed(2)} % at once`,
      yes(Math.max(share(pg.frames[64].paused), share(pg.frames[64].atOnce)) <= 0.05)],
    ['everything the page loads but the model ≤ 150 KB gzip', kb(pg.gzip - model.load.gzip), yes(pg.gzip - model.load.gzip <= 150 * 1024)],
    ['offline single file, the model inside, ≤ 2 MB', kb(single), yes(single <= 2000 * 1000)],
    ['wasm heap after 10,000 recomputes at n = 128 no larger than after the first', `${kb(heap.first)} / ${kb(heap.after)}`, yes(heap.after <= heap.first)],
  ];
  return ['| target | this run | met? |', '|---|---|---|', ...rows.map((r) => `| ${r.join(' | ')} |`)];
}

/** The whole of RESULTS.md, as lines. */
export function report({ ceiling, topAll, ker, nat, model, heap, bert, pg, train, single, singleGz }) {
  const part = (key) => median(pg.firstParts.map((x) => x[key])).toFixed(0);
  const trainLab = trainingReport(train);
  return [
    '# Benchmark results',
    '',
    `Written by \`npm run bench\` (bench/run.mjs) on ${cpus()[0]?.model ?? 'an unknown CPU'}, ${cpus().length} cores, `
      + `${(totalmem() / 2 ** 30).toFixed(0)} GiB; Node ${process.version}; ${execFileSync('emcc', ['--version'], { encoding: 'utf8' }).split('\n')[0]}. `
      + 'How the figures are taken and why: docs/performance.md.',
    '',
    '## Targets',
    '',
    ...targets({ ker, model, pg, heap, single }),
    ...trainLab.targets.map((r) => `| ${r.join(' | ')} |`),
    ...bertTargets(bert).map((r) => `| ${r.join(' | ')} |`),
    '',
    `wasm f32x4 mul+add ceiling (same run): **${topAll.toFixed(2)} GFLOP/s** with ${ceiling.chains} independent chains, `
      + `the best count (median GFLOP/s by chain count: ${Object.entries(ceiling.sweep).map(([c, g]) => `${c}: ${g.toFixed(1)}`).join(', ')}). `
      + 'Each kernel figure below is divided by the ceiling sampled between its own runs.',
    '',
    '## Kernel: one full forward through the JS API (every stage kept), median',
    '',
    ...kernelTable(ker, nat),
    '',
    `The first shape runs in a fresh process: over its runs 11–100 (params drawn, V8 still optimising the path) a run took ${
      ker[0].early.toFixed(3)} ms at n = ${ker[0].shape[0]}, ${pct(flops(ker[0].shape) / ker[0].early / 1e6 / ker[0].ceiling)} of the ceiling.`,
    '',
    `## The trained model (${model.info.layers} layer of ${model.info.heads} heads, d_model ${model.info.dModel}, d_k ${model.info.dK}, vocabulary ${model.info.vocabSize}): the whole forward through the JS API, median`,
    '',
    ...modelTable(model),
    '',
    `FLOPs counted: the products of every layer (Q, K, V, every head's scores and ×V, W_O, the feed-forward block), and for predictMasked the prediction head's row for each [MASK]; LayerNorm, GELU and softmax are not counted. `
      + `Loading the model file (${kb(model.load.bytes)}, ${kb(model.load.gzip)} gzip) into the core: ${model.load.ms.toFixed(1)} ms. `
      + `Training, natively as npm run train builds it (${model.training.threads} threads, ${model.training.tokensPerStep} tokens a step): ${model.training.stepsPerSecond.toFixed(2)} steps/s, ${model.training.tokensPerSecond.toFixed(0)} tokens/s.`,
    '',
    `## A BERT checkpoint: BERT-base's shape (${bert.info.layers} layers of ${bert.info.heads} heads, d_model ${bert.info.dModel}, feed-forward ${bert.info.dFf}, vocabulary ${bert.info.vocabSize}, random weights), the encoder's whole forward, median`,
    '',
    'Ours: core.run with { model } (every stage kept), the models module\'s wasm, one thread. onnxruntime-web: its wasm backend (SIMD, one thread) on the same weights as ONNX (bench/bert_onnx.py), the two runs interleaved. '
      + 'The floor at n = 9: the weights\' bytes at this machine\'s copy bandwidth (a 256 MB copy between the runs); at n = 128: the FLOPs (as above, the feed-forward block at its own width) at the f32x4 ceiling sampled between the runs. The largest difference: the last layer\'s output, ours against onnxruntime-web\'s.',
    '',
    ...bertTable(bert),
    '',
    '## Page (headless Chromium, local server, 1280 × 800), median',
    '',
    '| measure | value |',
    '|---|---|',
    `| navigation → first complete render painted, fresh browser context (the frame's presentation, as the floor's: ${pg.firstBy.filter((by) => by === 'presentation').length} of ${pg.firstBy.length} visits by its largest-contentful-paint entry, the others by the main thread's end of that frame) | ${median(pg.firstRender).toFixed(0)} ms |`,
    `| the main thread's end of that frame (a task posted from its requestAnimationFrame: behind the warm-up's first drawing, which the page posts first) | ${median(pg.firstAfterPaint).toFixed(0)} ms |`,
    `| the first visit's parts (medians, ms after navigation): HTML received ${part('html')}, parsed ${part('parsed')}, the page's script starts ${part('script')}, wasm core ready ${part('core')}, its first run over ${part('run')}, first view in the page ${part('drawn')}, painted ${median(pg.firstRender).toFixed(0)} | core ready → first run over: ${median(pg.firstParts.map((x) => x.run - x.core)).toFixed(0)} ms |`,
    `| the floor on this machine, in fresh contexts alternated with those visits: the same first view as static HTML with the page's stylesheet (no script, no wasm), first contentful paint / an empty page's | ${median(pg.floorView).toFixed(0)} ms / ${median(pg.floorEmpty).toFixed(0)} ms |`,
    `| the same page again in that context, once the first visit has settled (a repeat visit: caches written) | ${median(pg.warmRender).toFixed(0)} ms |`,
    ...Object.entries(pg.keystroke).map(([n, ms]) => `| edit → updated paint at the softmax step, trained model (a head knocked out or back in), n = ${n} | ${ms.toFixed(1)} ms |`),
    ...Object.entries(pg.keystrokeRandom).map(([n, ms]) => `| edit → updated paint at the softmax step, seeded head (causal switch), n = ${n} | ${ms.toFixed(1)} ms |`),
    `| the floor under an edit: one number changed in the same first view as static HTML, measured the same way | ${pg.editFloor.toFixed(1)} ms |`,
    ...Object.entries(pg.frames).flatMap(([n, { atOnce, paused }]) => [
      `| frames dropped while the steps animate, n = ${n}, first walk started at once | ${dropShare(atOnce)} |`,
      `| the same, first walk started after a 2 s pause (steps drawn out of sight meanwhile) | ${dropShare(paused)} |`,
      ...(n === '9' ? [`| the machine's own dropped frames, alternated with those walks: a control page (nine strips sliding and fading without end, a CSS animation the compositor runs; no script) | ${dropShare(pg.control, 'runs')} |`] : []),
      `| the first click's wait in the walks started at once (click → its step's drawing starts: up to a frame, plus the end of a warm-up drawing under way), median / longest | ${
        median(atOnce.map((w) => w.firstWait)).toFixed(1)} / ${Math.max(...atOnce.map((w) => w.firstWait)).toFixed(1)} ms |`,
      `| a step's script in those paused walks, n = ${n} (from its start, right after the frame the click fell in, through the microtasks it queues; median by step, ms) | ${
        Object.keys(paused[0].script).map((id) => `${id} ${median(paused.map((w) => w.script[id])).toFixed(1)}`).join(', ')} |`,
    ]),
    `| everything the page loads | ${kb(pg.bytes)} (${kb(pg.gzip)} gzip) |`,
    `| offline single file | ${kb(single)} (${kb(singleGz)} gzip) |`,
    `| wasm memory after the first run / after 10,000 runs at n = 128 | ${kb(heap.first)} / ${kb(heap.after)} |`,
    '',
    '## The training lab (headless Chromium, a Web Worker; the tiny preset: 1 layer of 2 heads, d_model 32, the lab\'s text)',
    '',
    `Native, one thread (-O3 -march=native, Eigen's products): ${train.native.tokensPerSecond.toFixed(0)} tokens/s over ${train.native.steps} steps; `
      + `the floor, the lab's wasm's own code (the core's kernels) natively on one thread with 128-bit vectors and no FMA (-O3 -msse4.2 -mno-avx -mno-fma): ${train.floor.tokensPerSecond.toFixed(0)} tokens/s (each the middle of three, alternated). `
      + `wasm in the worker, three runs of the same: ${train.wasm.map((w) => w.tokensPerSecond.toFixed(0)).join(', ')} tokens/s. `
      + `From Start to the first head labelled previous or next: ${train.label.map((l) => (l ? `${l.seconds.toFixed(1)} s (step ${l.step})` : 'none')).join(', ')}. `
      + `Edit → paint at the softmax step (n = 9, median of 31): ${train.idleMs.toFixed(1)} ms idle, ${train.busyMs.toFixed(1)} ms while training.`,
    '',
    ...trainLab.table,
    '',
  ];
}

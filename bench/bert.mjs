// The BERT section (npm run bench -- --bert, and in the full run): BERT-base's whole encoder
// forward through the public API (core.run with { model }, one thread, the models module's wasm)
// interleaved with onnxruntime-web's wasm backend (SIMD, one thread) on the same weights exported
// to ONNX (bench/bert_onnx.py), at n = 9 and n = 128; each against its floor (n = 9: the weights'
// bytes at this machine's copy bandwidth, measured between the runs; n = 128: the f32x4 ceiling,
// sampled between the runs); the time to open the checkpoint (core.loadModel from Blobs, as a
// browser's File). The checkpoint is a random one of BERT-base's shape (tests/bert/reference.py
// make --preset base), written to build/bench-bert once.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, openAsBlob, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { median, ROOT } from './common.mjs';
import { modelFlops } from './model.mjs';

const PYTHON = '/usr/bin/python3';
const DIR = `${ROOT}build/bench-bert/base`;
const ONNX = `${ROOT}build/bench-bert/base.onnx`;
export const BERT_SIZES = [9, 128];
const ROUNDS = { 9: 21, 128: 7 };
const WARM_MS = 5000;

function checkpoint() {
  if (!existsSync(join(DIR, 'model.safetensors'))) {
    mkdirSync(DIR, { recursive: true });
    execFileSync(PYTHON, [`${ROOT}tests/bert/reference.py`, 'make', DIR, '--preset', 'base', '--seed', '1']);
  }
  if (!existsSync(ONNX)) execFileSync(PYTHON, [`${ROOT}bench/bert_onnx.py`, DIR, ONNX], { stdio: 'ignore' });
}

async function files() {
  const out = {};
  for (const name of ['config.json', 'vocab.txt', 'model.safetensors']) out[name] = await openAsBlob(join(DIR, name));
  return out;
}

// Bytes per second of copying a 256 MB buffer (what streaming the weights once costs at best): both
// buffers touched first, the best of three copies.
const COPY = { from: new Float32Array(64 << 20).fill(1), to: new Float32Array(64 << 20).fill(0) };
function copyBandwidth() {
  let best = Infinity;
  for (let k = 0; k < 3; k += 1) {
    const t0 = performance.now();
    COPY.to.set(COPY.from);
    best = Math.min(best, performance.now() - t0);
  }
  return COPY.from.byteLength / (best / 1e3);
}

export async function bertSection(core, ceiling) {
  checkpoint();
  const require = createRequire(`${ROOT}bench/onnx/package.json`);
  const ort = await import(require.resolve('onnxruntime-web'));
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.simd = true;
  const session = await ort.InferenceSession.create(readFileSync(ONNX), { executionProviders: ['wasm'], graphOptimizationLevel: 'all' });

  const loads = [];
  let info;
  for (let k = 0; k < 3; k += 1) {
    if (info) core.unloadModel('bench-bert');
    const t0 = performance.now();
    info = await core.loadModel('bench-bert', await files());
    loads.push(performance.now() - t0);
  }
  const weightBytes = statSync(join(DIR, 'model.safetensors')).size;
  const rows = [];
  for (const n of BERT_SIZES) {
    const sentence = '字'.repeat(n - 2);
    const ours = () => core.run(sentence, { model: 'bench-bert' });
    const probe = ours();
    if (probe.tokens.length !== n) throw new Error(`${n - 2} characters made ${probe.tokens.length} tokens`);
    const ids = new ort.Tensor('int64', BigInt64Array.from(probe.ids, BigInt), [1, n]);
    const theirs = () => session.run({ ids });
    // The two agree: the last layer's output rows, as both compute them.
    const hidden = (await theirs()).hidden.data;
    const last = probe.stage('layerOutput', { layer: info.layers - 1 }).data;
    let agreement = 0;
    for (let k = 0; k < last.length; k += 1) agreement = Math.max(agreement, Math.abs(last[k] - hidden[k]));
    probe.dispose();
    // Warm-up, both alternated for WARM_MS at least: V8 runs a wasm function from its baseline
    // compiler until it has been called often enough (the first dozen runs at n = 9 take 1.5 × as long).
    for (let r = 0, until = performance.now() + WARM_MS; r < 3 || performance.now() < until; r += 1) {
      ours().dispose();
      await theirs();
    }
    const [ms, ortMs, top, copy] = [[], [], [], []];
    for (let r = 0; r < ROUNDS[n]; r += 1) {
      let t0 = performance.now();
      ours().dispose();
      const a = performance.now() - t0;
      t0 = performance.now();
      await theirs();
      const b = performance.now() - t0;
      ms.push(a);
      ortMs.push(b);
      if (n === 128) top.push(ceiling.sample());
      else copy.push(copyBandwidth());
    }
    const flops = modelFlops(info, n);
    const row = { n, ms: median(ms), ortMs: median(ortMs), flops, agreement };
    if (n === 128) row.ceiling = median(top);
    else row.copy = median(copy);
    rows.push(row);
  }
  core.unloadModel('bench-bert');
  await session.release();
  return { info, rows, weightBytes, load: { ms: median(loads), bytes: weightBytes } };
}

const floorMs = (r, weightBytes) => (r.n === 128 ? r.flops / (r.ceiling * 1e9) * 1e3 : weightBytes / r.copy * 1e3);
const yes = (ok) => (ok ? 'yes' : '**no**');

/** The targets: speed against onnxruntime-web in the same run, the ceiling's share, the load. */
export function bertTargets({ rows, weightBytes, load }) {
  const at = (n) => rows.find((r) => r.n === n);
  const [short, long] = [at(9), at(128)];
  return [
    ['BERT-base forward, n = 9: ≥ 1.3 × onnxruntime-web\'s speed', `${(short.ortMs / short.ms).toFixed(2)} ×`, yes(short.ortMs / short.ms >= 1.3)],
    ['BERT-base forward, n = 128: ≥ 1.1 × onnxruntime-web\'s speed', `${(long.ortMs / long.ms).toFixed(2)} ×`, yes(long.ortMs / long.ms >= 1.1)],
    ['BERT-base forward, n = 128: ≥ 75 % of the f32x4 ceiling', `${(floorMs(long, weightBytes) / long.ms * 100).toFixed(1)} %`, yes(floorMs(long, weightBytes) / long.ms >= 0.75)],
    [`opening the ${(weightBytes / 1e6).toFixed(0)} MB checkpoint ≤ 3 s`, `${(load.ms / 1e3).toFixed(2)} s`, yes(load.ms <= 3000)],
  ];
}

export function bertTable({ rows, weightBytes, load }) {
  const out = [
    '| n | ours ms | onnxruntime-web ms | speed vs ort | floor | ours vs floor | ort vs floor | largest difference |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    const floor = r.n === 128 ? `${floorMs(r, weightBytes).toFixed(0)} ms (${(r.flops / 1e9).toFixed(1)} GFLOP at ${r.ceiling.toFixed(1)} GFLOP/s)`
      : `${floorMs(r, weightBytes).toFixed(0)} ms (${(weightBytes / 1e6).toFixed(0)} MB at ${(r.copy / 1e9).toFixed(1)} GB/s)`;
    const f = floorMs(r, weightBytes);
    out.push(`| ${r.n} | ${r.ms.toFixed(1)} | ${r.ortMs.toFixed(1)} | ${(r.ortMs / r.ms).toFixed(2)} × | ${floor} | ${(f / r.ms * 100).toFixed(1)} % | ${(f / r.ortMs * 100).toFixed(1)} % | ${r.agreement.toExponential(1)} |`);
  }
  out.push('', `Opening the checkpoint (${(load.bytes / 1e6).toFixed(0)} MB, core.loadModel from Blobs): ${(load.ms / 1e3).toFixed(2)} s.`);
  return out;
}

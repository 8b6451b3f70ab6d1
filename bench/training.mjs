// npm run bench: the training lab. Throughput of the trainer's wasm in
// Chromium's worker against the native trainer on one thread (the tiny
// preset's shape, the lab's text), and against its floor; how long the tiny preset takes, from the
// click, to give a head its previous / next label; edit → paint in the main
// lab while a run trains, against the same edit idle; and what the lab loads
// when it opens (none of it on the page's first load).
import { execFileSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { launchChromium } from '../tests/browser/chromium.mjs';
import { median, ROOT } from './common.mjs';
import { openPage, serve } from './page.mjs';
import { editToPaint } from './page-probes.mjs';

const STEPS = 1200;
const TINY = { layers: 1, heads: 2, dModel: 32, lr: 0.01 };

export async function training() {
  // The native trainer, and the floor (its own code with the wasm's means), alternated: three runs each.
  const session = (name) => JSON.parse(execFileSync(`${ROOT}build/native/${name}`, [`${ROOT}web/models/training-text.txt`, String(STEPS)], { encoding: 'utf8' }));
  const runs = { native: [], floor: [] };
  for (let r = 0; r < 3; r += 1) for (const [kind, name] of [['native', 'bench_session'], ['floor', 'bench_session_sse']]) runs[kind].push(session(name));
  const [native, floor] = ['native', 'floor'].map((kind) => ({ steps: STEPS, tokensPerSecond: median(runs[kind].map((r) => r.tokensPerSecond)) }));
  const server = await serve();
  const browser = await launchChromium();
  const result = { native, floor, wasm: [], label: [], idle: [], busy: [], loads: {} };
  try {
    // Throughput: the API in the page, its run in a worker, three runs.
    for (let r = 0; r < 3; r += 1) {
      const { context, p } = await openPage(browser, `${server.origin}/`);
      result.wasm.push(await p.evaluate(async ([settings]) => {
        const { startTraining } = await import('/lib/training.js');
        const text = await (await fetch('/models/training-text.txt')).text();
        const run = await startTraining(text, settings, { every: 10000 });
        let last = null;
        for await (const report of run) last = report;
        run.dispose();
        return { tokensPerSecond: last.tokensPerSecond, loss: last.loss };
      }, [{ ...TINY, steps: STEPS }]));
      await context.close();
    }
    // The tiny preset from the lab's Start button to the first head labelled previous or next.
    for (let r = 0; r < 3; r += 1) {
      const { context, p } = await openPage(browser, `${server.origin}/?experiment=train`);
      await p.waitForSelector('#train-start');
      const t0 = await p.evaluate(() => performance.now());
      await p.click('#train-start');
      const labelled = await p.waitForFunction(() => {
        const thumb = document.querySelector('.train-heads .head-thumb[data-label="previous"], .train-heads .head-thumb[data-label="next"]');
        return thumb ? { at: performance.now(), step: Number(thumb.closest('.train-heads').dataset.step), label: thumb.dataset.label } : null;
      }, null, { timeout: 180_000, polling: 100 }).then((h) => h.jsonValue()).catch(() => null);
      result.label.push(labelled ? { seconds: (labelled.at - t0) / 1000, step: labelled.step, label: labelled.label } : null);
      await context.close();
    }
    // Edit → paint at the softmax step (a head knocked out and back in), idle and while training.
    const selector = '.head-card[data-head="1"] input[role="switch"]';
    const { context, p } = await openPage(browser, `${server.origin}/?step=softmax&experiment=train`);
    await p.waitForSelector('#train-start');
    await p.waitForTimeout(500);
    for (let r = 0; r < 41; r += 1) result.idle.push(await p.evaluate(editToPaint, [r % 2 === 0, selector]));
    await p.fill('#train-steps', '100000');
    await p.dispatchEvent('#train-steps', 'change');
    await p.click('#train-start');
    await p.waitForFunction(() => Number(document.querySelector('.train-run-status')?.dataset.step) > 200, null, { timeout: 60_000 });
    for (let r = 0; r < 41; r += 1) result.busy.push(await p.evaluate(editToPaint, [r % 2 === 0, selector]));
    await p.click('#train-stop');
    await context.close();
    // What opening the lab and starting a run loads, beyond the first load.
    const ctx2 = await browser.newContext();
    const page2 = await ctx2.newPage();
    const seen = new Map();
    const first = [];
    let recording = false;
    page2.on('response', async (response) => {
      if (!recording) {
        first.push(response.url());
        return;
      }
      if (/favicon/.test(response.url())) return;
      try {
        const body = await response.body();
        seen.set(response.url().replace(server.origin, ''), { bytes: body.length, gzip: gzipSync(body).length });
      } catch { /* no body */ }
    });
    await page2.goto(`${server.origin}/`);
    await page2.waitForSelector('body[data-ready="true"]', { state: 'attached' });
    await page2.waitForLoadState('networkidle');
    recording = true;
    await page2.click('#experiment-tabs button[data-experiment="train"]');
    await page2.waitForSelector('#train-start');
    await page2.fill('#train-steps', '20');
    await page2.dispatchEvent('#train-steps', 'change');
    await page2.click('#train-start');
    await page2.waitForSelector('.train-run-status[data-state="finished"]', { timeout: 60_000 });
    await page2.waitForLoadState('networkidle');
    result.loads = Object.fromEntries(seen);
    result.firstLoadHasTraining = first.some((url) => /trainer|training/.test(url));
    await ctx2.close();
  } finally {
    await browser.close();
    server.close();
  }
  result.idleMs = median(result.idle.slice(10));
  result.busyMs = median(result.busy.slice(10));
  result.wasmTokensPerSecond = median(result.wasm.map((w) => w.tokensPerSecond));
  return result;
}

/** The training lab's rows of the targets, and its table. */
export function trainingReport(t) {
  const ratio = t.wasmTokensPerSecond / t.native.tokensPerSecond;
  const labels = t.label.filter(Boolean);
  const labelSeconds = labels.length ? median(labels.map((l) => l.seconds)) : Number.NaN;
  const loadGz = Object.values(t.loads).reduce((s, x) => s + x.gzip, 0);
  const loadBytes = Object.values(t.loads).reduce((s, x) => s + x.bytes, 0);
  const targets = [
    ['training throughput, wasm in Chromium (a worker) ≥ 50 % of the native trainer on one thread, the tiny preset\'s shape',
      `${(ratio * 100).toFixed(1)} % (${t.wasmTokensPerSecond.toFixed(0)} against ${t.native.tokensPerSecond.toFixed(0)} tokens/s); `
        + `${((100 * t.wasmTokensPerSecond) / t.floor.tokensPerSecond).toFixed(1)} % of its floor, the lab's own code natively with the wasm's means (${t.floor.tokensPerSecond.toFixed(0)} tokens/s)`,
      ratio >= 0.5 ? 'yes' : 'no'],
    ['the tiny preset gives a head the previous or next label within 60 s',
      labels.length ? `${labelSeconds.toFixed(1)} s from the click (step ${labels[0].step}, ${labels[0].label}; ${labels.length} of ${t.label.length} runs)` : `no label in ${t.label.length} runs`,
      labelSeconds <= 60 && labels.length === t.label.length ? 'yes' : 'no'],
    ['while training, edit → paint in the main lab ≤ 2 × its idle figure',
      `${t.busyMs.toFixed(1)} ms against ${t.idleMs.toFixed(1)} ms idle (${(t.busyMs / t.idleMs).toFixed(2)} ×)`, t.busyMs <= 2 * t.idleMs ? 'yes' : 'no'],
    ['the lab\'s wasm and text load only when it opens; nothing on the first load but its view code',
      `${(loadGz / 1024).toFixed(1)} KB gzip (${(loadBytes / 1024).toFixed(1)} KB) loaded when the lab opens and starts${t.firstLoadHasTraining ? '; some of it on the first load' : ', none of it before'}`,
      t.firstLoadHasTraining ? 'no' : 'yes'],
  ];
  const table = [
    '| loaded when the training lab opens and starts a run | bytes | gzip |',
    '|---|---|---|',
    ...Object.entries(t.loads).map(([url, x]) => `| ${url} | ${(x.bytes / 1024).toFixed(1)} KB | ${(x.gzip / 1024).toFixed(1)} KB |`),
  ];
  return { targets, table };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const t = await training();
  const { targets, table } = trainingReport(t);
  console.log(JSON.stringify({ native: t.native, wasm: t.wasm, label: t.label, idleMs: t.idleMs, busyMs: t.busyMs }, null, 1));
  console.log(['| target | this run | met? |', '|---|---|---|', ...targets.map((r) => `| ${r.join(' | ')} |`), '', ...table].join('\n'));
}

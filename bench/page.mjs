// The page section, in headless Chromium against scripts/serve.mjs: first and
// repeat visits with the floor under them on this machine, edit → paint, frames
// dropped while the steps animate (and a control page's), and the bytes loaded.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import { launchChromium } from '../tests/browser/chromium.mjs';
import { startServer } from '../scripts/serve.mjs';
import { median, ROOT, sentenceOf } from './common.mjs';
import { animationFrames, CONTROL_PAGE, controlFrames, editToPaint, markFirstPaint } from './page-probes.mjs';

// A page in a fresh context, as a learner's browser would load it: playwright
// turns on the devtools protocol's network domain, which keeps a copy of every
// response's body for the inspector, on the page's main thread as it arrives
// (≈ 40 ms of the model's 1.7 MB on this machine, traced); its buffers are set
// to nothing, so nothing is kept. Bodies are never read here.
export async function freshPage(browser, options = {}) {
  const context = await browser.newContext({ reducedMotion: 'reduce', viewport: { width: 1280, height: 800 }, ...options });
  const p = await context.newPage();
  const cdp = await context.newCDPSession(p);
  await cdp.send('Network.enable', { maxTotalBufferSize: 0, maxResourceBufferSize: 0 });
  return { context, p };
}

export async function openPage(browser, url, { reducedMotion = 'reduce' } = {}) {
  const { context, p } = await freshPage(browser, { reducedMotion });
  await context.addInitScript(markFirstPaint);
  await p.goto(url);
  await p.waitForFunction(() => window.__firstPaint);
  return { context, p };
}

// The page's server in a process of its own (as `npm start` runs it), so
// serving does not wait on this process's Chromium traffic.
export async function serve() {
  const child = spawn(process.execPath, [`${ROOT}scripts/serve.mjs`], { env: { ...process.env, PORT: '0', HOST: '127.0.0.1' } });
  const port = await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      const match = /localhost:(\d+)/.exec(String(chunk));
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`the server stopped (${code})`)));
  });
  return { origin: `http://127.0.0.1:${port}`, close: () => child.kill() };
}

// The floor under a first render on this machine: the page's first view as
// it stands once drawn, saved as static HTML with the page's stylesheet (no
// script, no wasm), and an empty page. Served from a folder of their own
// (inline styles allowed: the drawn view carries some), opened in fresh
// contexts alternated with the page's own first visits; their first
// contentful paint is their complete render.
export async function staticFloor(browser, origin) {
  const context = await browser.newContext({ reducedMotion: 'reduce', viewport: { width: 1280, height: 800 } });
  const p = await context.newPage();
  await p.goto(`${origin}/`);
  await p.waitForSelector('body[data-warm-up="done"], body[data-warm-up="stopped"]', { state: 'attached', timeout: 20000 });
  const html = await p.evaluate(() => {
    document.querySelectorAll('script, link[rel="modulepreload"], .warm-up').forEach((el) => el.remove());
    return `<!doctype html>\n${document.documentElement.outerHTML}`;
  });
  await context.close();
  const root = mkdtempSync(`${tmpdir()}/attention-lab-floor-`);
  mkdirSync(`${root}/generated`);
  copyFileSync(`${ROOT}web/generated/app.css`, `${root}/generated/app.css`);
  writeFileSync(`${root}/index.html`, html);
  writeFileSync(`${root}/empty.html`, '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>empty</title></head><body><p>empty</p></body></html>');
  writeFileSync(`${root}/control.html`, CONTROL_PAGE);
  const server = await startServer({ root, port: 0, host: '127.0.0.1', csp: "default-src 'self'; style-src 'self' 'unsafe-inline'" });
  const contentful = async (path) => {
    const { context: fresh, p: q } = await freshPage(browser);
    await q.goto(`http://127.0.0.1:${server.address().port}/${path}`);
    const ms = await q.waitForFunction(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime).then((h) => h.jsonValue());
    await fresh.close();
    return ms;
  };
  // The control for dropped frames: rAF stamps over a walk's length on a page
  // whose only work is a CSS animation the compositor runs.
  const control = async (seconds) => {
    const fresh = await browser.newContext({ reducedMotion: 'no-preference', viewport: { width: 1280, height: 800 } });
    const q = await fresh.newPage();
    await q.goto(`http://127.0.0.1:${server.address().port}/control.html`);
    const frames = countFrames(await q.evaluate(controlFrames, seconds));
    await fresh.close();
    return frames;
  };
  // The floor under edit → paint: the same view as static HTML, where an edit
  // changes one number and nothing else (a listener the bench adds), measured
  // as the page's edits are.
  const editFloor = async () => {
    const fresh = await browser.newContext({ reducedMotion: 'reduce', viewport: { width: 1280, height: 800 } });
    const q = await fresh.newPage();
    await q.goto(`http://127.0.0.1:${server.address().port}/index.html`);
    await q.evaluate(() => {
      const cell = document.querySelector('#detail-body td[data-col="probs"]') ?? document.body;
      document.getElementById('opt-causal').addEventListener('change', (event) => {
        cell.firstChild.data = event.target.checked ? '0.50' : '0.25';
        document.body.dataset.rendered = String(Number(document.body.dataset.rendered ?? 0) + 1);
      });
    });
    const times = [];
    for (let r = 0; r < 41; r += 1) times.push(await q.evaluate(editToPaint, [r % 2 === 0, '#opt-causal']));
    await fresh.close();
    return median(times.slice(10));
  };
  return {
    control,
    editFloor,
    view: () => contentful('index.html'),
    empty: () => contentful('empty.html'),
    close: () => { server.close(); rmSync(root, { recursive: true, force: true }); },
  };
}

/** Frames from rAF stamps: a gap of k display intervals is k − 1 dropped
 *  frames, each counted for the step clicked last before it. */
export function countFrames({ stamps, steps, ...rest }) {
  const gaps = stamps.slice(1).map((t, i) => t - stamps[i]);
  const interval = median(gaps); // the display's
  const where = {};
  let dropped = 0;
  gaps.forEach((g, i) => {
    const lost = Math.max(0, Math.round(g / interval) - 1);
    dropped += lost;
    const step = steps.findLast(([at]) => at <= stamps[i]);
    if (lost && step) where[step[1]] = (where[step[1]] ?? 0) + lost;
  });
  return { ...rest, frames: gaps.length + dropped, dropped, interval, seconds: (stamps.at(-1) - stamps[0]) / 1000, where };
}

export async function page() {
  const server = await serve();
  const { origin } = server;
  const browser = await launchChromium();
  const result = {
    firstRender: [], firstAfterPaint: [], firstBy: [], firstParts: [], warmRender: [],
    floorView: [], floorEmpty: [], control: [], keystroke: {}, keystrokeRandom: {}, frames: {},
    bytes: 0, gzip: 0,
  };
  const floor = await staticFloor(browser, origin);
  try {
    for (let r = 0; r < 9; r += 1) {
      result.floorView.push(await floor.view());
      result.floorEmpty.push(await floor.empty());
      const { context, p } = await openPage(browser, `${origin}/`);
      const first = await p.evaluate(() => ({ painted: window.__firstPaint, after: window.__afterPaint, by: window.__firstPaintBy }));
      result.firstRender.push(first.painted);
      result.firstAfterPaint.push(first.after);
      result.firstBy.push(first.by);
      // Where the first visit's time went: the page's own marks (web/app/shell/timeline.js).
      result.firstParts.push(await p.evaluate(() => {
        const at = (name) => performance.getEntriesByName(`attention-lab:${name}`)[0]?.startTime ?? NaN;
        const nav = performance.getEntriesByType('navigation')[0];
        return { html: nav.responseEnd, parsed: nav.domInteractive, script: at('script'), core: at('core-ready'), run: at('first-run'), drawn: at('drawn') };
      }));
      // A repeat visit: the same page again in the same browser context once
      // the first visit has settled (its warm-up over, and compiled code,
      // which the browser stores with a script or wasm file only some time
      // after it ran, in its cache): a reload at once after the first render would
      // measure a visit still busy with the first one.
      await p.waitForSelector('body[data-warm-up="done"], body[data-warm-up="stopped"]', { state: 'attached', timeout: 20000 });
      await p.waitForTimeout(1000);
      await p.reload();
      await p.waitForFunction(() => window.__firstPaint);
      result.warmRender.push(await p.evaluate(() => window.__firstPaint));
      await context.close();
    }
    {
      const context = await browser.newContext({ reducedMotion: 'reduce' });
      const p = await context.newPage();
      p.on('response', async (response) => {
        try {
          const body = await response.body();
          result.bytes += body.length;
          result.gzip += gzipSync(body).length;
        } catch { /* redirects have no body */ }
      });
      await p.goto(`${origin}/`);
      await p.waitForSelector('body[data-ready="true"]', { state: 'attached' });
      await p.waitForLoadState('networkidle');
      await context.close();
    }
    // Edit → paint at the softmax step: the trained model (the page's own: a
    // head knocked out and back in), and the seeded head (its causal switch).
    for (const [key, query, selector, sizes] of [
      ['keystroke', '', '.head-card[data-head="1"] input[role="switch"]', [9, 128, 512]],
      ['keystrokeRandom', '&model=random', '#opt-causal', [9, 128]],
    ]) {
      const { context, p } = await openPage(browser, `${origin}/?step=softmax${query}`);
      for (const n of sizes) {
        // Put the sentence of n tokens in place first (through the debounced input).
        await p.fill('#sentence', sentenceOf(n));
        await p.waitForFunction((count) => document.querySelectorAll('#token-chips .chip').length === count, n);
        await p.waitForTimeout(500); // the typed sentence's redraw and address-bar update are over
        const times = [];
        for (let r = 0; r < 41; r += 1) times.push(await p.evaluate(editToPaint, [r % 2 === 0, selector]));
        result[key][n] = median(times.slice(10)); // the first ten warm the code up
      }
      await context.close();
    }
    result.editFloor = await floor.editFloor();
    // Each walk in a fresh browser context: the first walk through the steps,
    // started at once after the first render, and started after a reader's
    // pause of 2 s (in which the page draws each step once out of sight).
    // A control page, twice after each pair of walks at n = 9, for as long as one.
    for (const n of [9, 64]) {
      result.frames[n] = { atOnce: [], paused: [] };
      for (let r = 0; r < 5; r += 1) {
        for (const [key, pause] of [['atOnce', 0], ['paused', 2000]]) {
          const { context, p } = await openPage(browser, `${origin}/?step=tokens&s=${encodeURIComponent(sentenceOf(n))}`,
            { reducedMotion: 'no-preference' });
          await p.waitForTimeout(pause);
          result.frames[n][key].push(countFrames(await p.evaluate(animationFrames)));
          await context.close();
        }
        if (n === 9) for (let c = 0; c < 2; c += 1) result.control.push(await floor.control(result.frames[n].paused.at(-1).seconds));
      }
    }
  } finally {
    floor.close();
    await browser.close();
    server.close();
  }
  return result;
}

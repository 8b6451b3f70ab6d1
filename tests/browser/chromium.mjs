// Launching Debian's Chromium through playwright-core, as this machine needs:
// no downloaded browser, no sandbox as root, no background network traffic, and
// none of the browser's own omnibox pages: Chromium 156 builds its address bar's
// popup (a WebUI app of ≈ 150 modules) in every new window, which each fresh
// context is, and on 2 cores that work ran beside a page's first visit.
import { after, before } from 'node:test';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function launchChromium() {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup'],
  });
}

/** Collects console errors, page errors and failed requests of a page. */
export function watchProblems(page) {
  const problems = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') problems.push(`console ${msg.type()}: ${msg.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (req) => problems.push(`request failed: ${req.url()} ${req.failure()?.errorText}`));
  return problems;
}

/** What a lab holds outside its elements, for a test that removes labs: the page's live Workers
 *  (a Set), counts() → the core's { liveTraces, liveHandles }, heap() → the JS heap in bytes
 *  after a collection, heapWithoutCode() → the same without the compiled code (from a heap
 *  snapshot: slower), held(name, withinMs) → which of window[name]'s WeakRefs' elements are
 *  not collected, and snapshot() → the heap snapshot's text. Call it before the page's first navigation. */
export async function watchLabMemory(context, page) {
  const workers = new Set();
  page.on('worker', (worker) => {
    workers.add(worker);
    worker.on('close', () => workers.delete(worker));
  });
  const cdp = await context.newCDPSession(page);
  const collect = async () => {
    for (let k = 0; k < 3; k += 1) await cdp.send('HeapProfiler.collectGarbage');
  };
  // The page's heap snapshot as the text DevTools saves (.heapsnapshot), after a collection.
  const snapshot = async () => {
    await collect();
    const chunks = [];
    const take = ({ chunk }) => chunks.push(chunk);
    cdp.on('HeapProfiler.addHeapSnapshotChunk', take);
    await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
    cdp.off('HeapProfiler.addHeapSnapshotChunk', take);
    return chunks.join('');
  };
  return {
    workers,
    counts: () => page.evaluate(async () => {
      const { liveTraces, liveHandles } = (await (await import('/lib/attention-lab.js')).loadAttentionLab()).memoryUsage();
      return { liveTraces, liveHandles };
    }),
    async heap() {
      await collect();
      return (await cdp.send('Runtime.getHeapUsage')).usedSize;
    },
    snapshot,
    // The indices of the elements in window[name] (an array of WeakRefs) still held after
    // collections within withinMs: what waits a moment (an animation's end) may hold one till then.
    async held(name, withinMs) {
      for (let waited = 0; ; waited += 1000) {
        await collect();
        const held = await page.evaluate((n) => window[n].flatMap((ref, i) => (ref.deref() ? [i] : [])), name);
        if (!held.length || waited >= withinMs) return held;
        await page.waitForTimeout(1000);
      }
    },
    // The JS heap's objects after a collection, without the compiled code: the code grows as
    // the page's functions get hot (0.7 MB over 100 labs mounted and removed), whatever they held.
    async heapWithoutCode() {
      const { snapshot: { meta }, nodes } = JSON.parse(await snapshot());
      const fields = meta.node_fields.length;
      const [type, size] = [meta.node_fields.indexOf('type'), meta.node_fields.indexOf('self_size')];
      const notJs = new Set(['code', 'native', 'synthetic', 'hidden'].map((t) => meta.node_types[0].indexOf(t)));
      let total = 0;
      for (let i = 0; i < nodes.length; i += fields) if (!notJs.has(nodes[i + type])) total += nodes[i + size];
      return total;
    },
  };
}

/**
 * For a test file: serves `root` (with the strict CSP) and launches Chromium
 * before its tests, and stops both after. The returned object gains
 * { server, origin, browser } once the tests start.
 */
export function useServedChromium(root) {
  const env = {};
  before(async () => {
    env.server = await startServer({ root, port: 0, host: '127.0.0.1' });
    env.origin = `http://127.0.0.1:${env.server.address().port}`;
    env.browser = await launchChromium();
  });
  after(async () => {
    await env.browser?.close();
    env.server?.close();
  });
  return env;
}

/** A fresh browser context and page at `path` (after the origin), its first view
 *  drawn; from then on the page's clock (its timers and animation frames)
 *  stands still but for the test's page.clock.runFor(). */
export async function openWithClockPaused(env, path) {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'no-preference' });
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.clock.install();
  await page.goto(`${env.origin}${path}`);
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
  await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1000));
  return { context, page, problems };
}

/** Next, with the clock paused: an animated step is drawn right after the
 *  next frame, so one of the page's (16 ms) frames is let pass. */
export async function clickNextThenAFrame(page) {
  await page.click('#next');
  await page.clock.runFor(20);
}

/** Waits until the address bar's query parameter `name` is `value` (the page
 *  writes the URL shortly after a change, not on every keystroke). */
export async function waitForParam(page, name, value) {
  await page.waitForFunction(([n, v]) => new URL(location.href).searchParams.get(n) === v, [name, value]);
}

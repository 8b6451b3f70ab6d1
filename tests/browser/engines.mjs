// The two engines learners use besides Chromium, driven as this machine can:
// Debian's Firefox ESR through puppeteer-core over WebDriver BiDi, and WebKitGTK
// (Safari's engine) through its WebKitWebDriver, which drives MiniBrowser in a
// virtual X display (Xvfb), over plain W3C WebDriver HTTP. Both give the same
// small driver: { name, version, goto(url), evaluate(source, ...args), screenshot(file),
// problems(), close() }. evaluate calls the function whose source it is given in the
// page with args (JSON), and returns its (awaited) JSON result: as the driver's own
// script, which the page's CSP does not govern; problems() is what the page reported as wrong: its errors,
// unhandled rejections and console errors and warnings.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import puppeteer from 'puppeteer-core';

export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
export const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER ?? '/usr/bin/WebKitWebDriver';
export const MINIBROWSER = process.env.MINIBROWSER ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

// WebKit's classic WebDriver has no console log and no hook before a page's own
// scripts: this goes into each page as soon as its navigation is over (what the
// page logged before that, its ready flag and drawn view still show).
function collectProblems() {
  if (window.engineProblems) return;
  const problems = [];
  window.engineProblems = problems;
  window.addEventListener('error', (e) => problems.push(`page error: ${e.message} (${e.filename}:${e.lineno})`));
  window.addEventListener('unhandledrejection', (e) => problems.push(`unhandled rejection: ${e.reason?.message ?? e.reason}`));
  for (const level of ['error', 'warn']) {
    const original = console[level].bind(console);
    console[level] = (...args) => {
      problems.push(`console ${level}: ${args.map(String).join(' ')}`);
      original(...args);
    };
  }
}
const readProblems = () => window.engineProblems ?? ['the problem collector was not installed'];

export async function openFirefox({ width = 1280, height = 900 } = {}) {
  const browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX_PATH, headless: true,
    defaultViewport: { width, height }, extraPrefsFirefox: { 'datareporting.policy.dataSubmissionEnabled': false } });
  const page = await browser.newPage();
  const seen = [];
  page.on('pageerror', (error) => seen.push(`page error: ${error.message}`));
  page.on('console', (msg) => { if (['error', 'warn', 'warning'].includes(msg.type())) seen.push(`console ${msg.type()}: ${msg.text()}`); });
  return {
    name: 'firefox',
    version: await browser.version(),
    async goto(url) { await page.goto(url, { waitUntil: 'load' }); },
    evaluate: (source, ...args) => page.evaluate(`(${source})(...${JSON.stringify(args)})`),
    async screenshot(file) { await page.screenshot({ path: file }); },
    async problems() { return [...seen]; },
    async close() { await browser.close(); },
  };
}

const freePort = () => new Promise((resolve, reject) => {
  const server = createServer();
  server.once('error', reject);
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address();
    server.close(() => resolve(port));
  });
});

// Xvfb picks a free display and writes its number on the descriptor given.
function startXvfb() {
  const xvfb = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], { stdio: ['ignore', 'ignore', 'ignore', 'pipe'] });
  return new Promise((resolve, reject) => {
    let text = '';
    xvfb.once('error', reject);
    xvfb.once('exit', (code) => reject(new Error(`Xvfb exited (${code}) before it gave a display`)));
    xvfb.stdio[3].on('data', (chunk) => {
      text += chunk;
      if (text.includes('\n')) resolve({ process: xvfb, display: `:${text.trim()}` });
    });
  });
}

export async function openWebKit({ width = 1280, height = 900 } = {}) {
  const xvfb = await startXvfb();
  const port = await freePort();
  const driver = spawn(WEBKIT_DRIVER, [`--port=${port}`, '--host=127.0.0.1'], { env: { ...process.env, DISPLAY: xvfb.display }, stdio: 'ignore' });
  const base = `http://127.0.0.1:${port}`;
  const end = () => { driver.kill(); xvfb.process.kill(); };
  const call = async (method, path, body) => {
    const response = await fetch(`${base}${path}`, { method, headers: { 'content-type': 'application/json' }, body: body && JSON.stringify(body) });
    const answer = await response.json();
    if (!response.ok) throw new Error(`WebDriver ${method} ${path}: ${answer.value?.error}: ${answer.value?.message}`);
    return answer.value;
  };
  try {
    for (let k = 0; ; k += 1) { // the driver listens a moment after it starts
      try {
        if ((await call('GET', '/status')).ready) break;
      } catch (error) {
        if (k > 100) throw error;
      }
      await new Promise((resolve) => { setTimeout(resolve, 50); });
    }
    const session = await call('POST', '/session', { capabilities: { alwaysMatch: {
      'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] } } } });
    const at = (path) => `/session/${session.sessionId}${path}`;
    await call('POST', at('/timeouts'), { script: 180_000, pageLoad: 60_000 });
    await call('POST', at('/window/rect'), { width, height });
    return {
      name: 'webkit',
      version: session.capabilities.browserVersion,
      async goto(url) {
        await call('POST', at('/url'), { url });
        await call('POST', at('/execute/sync'), { script: `(${collectProblems})()`, args: [] });
      },
      async evaluate(fn, ...args) {
        const script = `const done = arguments[arguments.length - 1];
          Promise.resolve().then(() => (${fn})(...arguments[0])).then((value) => done({ value }), (e) => done({ error: String(e?.stack ?? e) }));`;
        const result = await call('POST', at('/execute/async'), { script, args: [args] });
        if (result.error) throw new Error(`in WebKit: ${result.error}`);
        return result.value;
      },
      async screenshot(file) { writeFileSync(file, Buffer.from(await call('GET', at('/screenshot')), 'base64')); },
      problems: async () => (await call('POST', at('/execute/sync'), { script: `return (${readProblems})()`, args: [] })),
      async close() {
        await call('DELETE', at('')).catch(() => {});
        end();
      },
    };
  } catch (error) {
    end();
    throw error;
  }
}

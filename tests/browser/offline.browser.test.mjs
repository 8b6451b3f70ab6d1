// The whole page as one offline HTML file: from file://, with the network
// blocked, under its own strict policy, showing the same numbers as the core.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadAttentionLab } from 'attention-lab';
import { launchChromium, watchProblems } from './chromium.mjs';
import { shownHead } from './page-helpers.mjs';

const FILE = fileURLToPath(new URL('../../web/generated/attention-lab.html', import.meta.url));
const core = await loadAttentionLab();
let browser;

before(async () => { browser = await launchChromium(); });
after(async () => { await browser?.close(); });

test('the single HTML file carries everything and a strict policy of its own', () => {
  const html = readFileSync(FILE, 'utf8');
  const csp = html.match(/<meta http-equiv="Content-Security-Policy" content="([^"]+)">/)?.[1];
  assert.ok(csp, 'a CSP meta tag');
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /script-src 'sha256-[^']+' 'wasm-unsafe-eval'/);
  assert.doesNotMatch(csp, /unsafe-inline|'unsafe-eval'/);
  assert.doesNotMatch(html, /<script[^>]+src=|<link[^>]+stylesheet/, 'no external script or stylesheet');
  assert.ok(statSync(FILE).size <= 2000 * 1000, `${statSync(FILE).size} bytes: the offline file, trained model included, must stay within 2 MB`);
});

test('it works from file:// with the network blocked', async () => {
  const trace = core.run('我喜欢人工智能'); // the trained model, carried inside the file
  const context = await browser.newContext({ reducedMotion: 'reduce' });
  const requests = [];
  await context.route(/^(https?|wss?):/, (route) => { requests.push(route.request().url()); return route.abort(); });
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(`${pathToFileURL(FILE).href}?step=softmax`);
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached', timeout: 20_000 });
  const chips = await page.$$eval('#token-chips .chip .text', (els) => els.map((e) => e.textContent));
  assert.deepEqual(chips, [...trace.tokens]);
  assert.equal(await page.getAttribute('body', 'data-models'), 'trained random', 'the core loaded the trained model carried inside the file');
  const cells = await page.$$eval('figure.stage-weights td[data-j]', (tds) => tds.map((td) => Number(td.dataset.value)));
  const shown = await shownHead(page);
  assert.deepEqual(shown, (({ layer, head }) => ({ layer, head }))(trace.articleHead(2)), 'the core\'s article head for 喜');
  assert.deepEqual(cells, Array.from(trace.stage('weights', shown).data));
  // Another head, and the model's guesses for a hidden character.
  const other = { layer: shown.layer, head: (shown.head + 1) % trace.config.heads };
  await page.click(`.head-thumb[data-head="${other.head}"]`);
  await page.waitForSelector(`.head-thumb[data-head="${other.head}"][aria-pressed="true"]`);
  const third = await page.$$eval('figure.stage-weights td[data-j]', (tds) => tds.map((td) => Number(td.dataset.value)));
  assert.deepEqual(third, Array.from(trace.stage('weights', other).data));
  await page.fill('#sentence', '猫坐在[MASK]子上');
  await page.waitForSelector('section.guess[data-mask="0"] figure.guesses li');
  const guessed = await page.$$eval('section.guess figure.guesses li', (lis) => lis.map((li) => li.dataset.token));
  assert.deepEqual(guessed, core.predictMasked('猫坐在[MASK]子上')[0].map((g) => g.token));
  await page.fill('#sentence', '猫坐在垫子上');
  await page.waitForFunction(() => document.querySelectorAll('#token-chips .chip').length === 8);
  await page.click('#next');
  await page.waitForSelector('body[data-step="weighted-sum"]', { state: 'attached' });
  assert.deepEqual(requests, []);
  assert.deepEqual(problems, []);
  trace.dispose();
  await context.close();
});

test('a browser that cannot unpack the built-in wasm is told why, not left loading', async () => {
  const context = await browser.newContext();
  await context.addInitScript(() => { delete globalThis.DecompressionStream; });
  const page = await context.newPage();
  await page.goto(pathToFileURL(FILE).href);
  await page.waitForSelector('#loading.error', { timeout: 20_000 });
  assert.match(await page.textContent('#loading'), /too old to unpack the built-in files \(it has no DecompressionStream\)/);
  await context.close();
});

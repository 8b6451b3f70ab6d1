// After the article, in Chromium: the experiments a learner meets once the
// article is done, each opened from its link and from its step's Why? button,
// every number the core's, in English and Chinese.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { loadAttentionLab } from 'attention-lab';
import { fmt } from '../../web/app/ui/format.js';
import { blockSizes } from '../../web/app/experiments/tiles-view.js';
import { useServedChromium, waitForParam, watchProblems } from './chromium.mjs';
import { axeViolations, shownHead } from './page-helpers.mjs';

const env = useServedChromium(fileURLToPath(new URL('../../web/', import.meta.url)));
const core = await loadAttentionLab();
const EXPERIMENTS = ['tiles'];

async function open(query) {
  const context = await env.browser.newContext({ reducedMotion: 'reduce' });
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(`${env.origin}/${query}`);
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
  return { page, context, problems };
}

test('tile by tile: from ×V\'s Why?, block by block to the core\'s output row; every block size over the matrix', { timeout: 60_000 }, async () => {
  const { page, context, problems } = await open('?step=weighted-sum');
  await page.click('#step-explain .why-link[data-experiment="tiles"]');
  await page.waitForSelector('.tiles-row');
  await waitForParam(page, 'experiment', 'tiles');
  const trace = core.run('我喜欢人工智能');
  const head = await shownHead(page);
  const row = trace.tiledRow(2, { block: 2, ...head });
  assert.equal(await page.getAttribute('.tiles-at', 'data-n'), String(row.blocks.length));
  assert.equal(await page.$$eval('.tiles-row td[data-state="current"]', (tds) => tds.length), 2, 'the first block: two keys');
  for (let k = 2; k <= row.blocks.length; k += 1) {
    await page.click('.tiles-next');
    await page.waitForSelector(`.tiles-at[data-k="${k}"]`);
  }
  assert.equal(await page.isDisabled('.tiles-next'), true);
  const history = await page.$$eval('.tiles-history tbody tr', (trs) => trs.map((tr) => [tr.cells[3].textContent, tr.cells[4].textContent, tr.cells[5].textContent]));
  assert.deepEqual(history, row.blocks.map((b) => [fmt(b.maxAfter, 4), fmt(b.rescale, 4), fmt(b.sumAfter, 4)]));
  const difference = await page.$eval('.tiles-difference', (p) => ({ max: Number(p.dataset.max), relative: Number(p.dataset.relative) }));
  assert.deepEqual(difference, { max: row.maxDifference, relative: row.relativeDifference });
  assert.ok(difference.relative <= 1e-6, 'the tiles give the full computation\'s row');
  assert.deepEqual(await page.$$eval('.tiles-compare tr:first-child td', (tds) => tds.map((td) => td.textContent)),
    Array.from(row.output.slice(0, 6), (x) => fmt(x, 4)));
  assert.match(await page.textContent('.tiles-memory'), /n × n = 81 .* n × B = 18/);
  const matrix = await page.$$eval('.tiles-matrix tbody tr', (trs) => trs.map((tr) => [Number(tr.dataset.block), Number(tr.dataset.relative)]));
  assert.deepEqual(matrix.map(([b]) => b), blockSizes(9));
  for (const [block, relative] of matrix) {
    assert.equal(relative, trace.tiledAttention({ block, ...head }).relativeDifference);
    assert.ok(relative <= 1e-6, `B = ${block}`);
  }
  // Another block size starts again; Play goes through the blocks by itself.
  await page.selectOption('#tiles-block', '4');
  await page.waitForSelector('.tiles-at[data-k="1"][data-n="3"]');
  await page.click('.tiles-play');
  assert.equal(await page.getAttribute('.tiles-play', 'aria-pressed'), 'true');
  await page.waitForSelector('.tiles-at[data-k="3"]', { timeout: 10_000 });
  await page.waitForSelector('.tiles-play[aria-pressed="false"]');
  // Another token: its own row.
  await page.click('#token-chips .chip >> nth=3');
  await page.waitForFunction(() => /欢/.test(document.querySelector('.experiment-tiles h3').textContent));
  assert.deepEqual(problems, []);
  trace.dispose();
  await context.close();
});

test('tile by tile in Chinese, from its link', async () => {
  const { page, context, problems } = await open('?experiment=tiles&lang=zh');
  await page.waitForSelector('.tiles-row');
  assert.match(await page.textContent('.experiment-tiles h3'), /第 喜 行，每次 2 个键/);
  assert.match(await page.textContent('.experiment-tiles'), /在线 softmax/);
  assert.equal(await page.textContent('#experiment-tabs [data-experiment="tiles"]'), '分块计算');
  assert.deepEqual(problems, []);
  await context.close();
});

test('axe-core finds no serious or critical violation in these experiments, light or dark', { timeout: 60_000 }, async () => {
  for (const colorScheme of ['light', 'dark']) {
    // bypassCSP only so the test can inject axe-core as an inline script.
    const context = await env.browser.newContext({ colorScheme, reducedMotion: 'reduce', bypassCSP: true });
    const page = await context.newPage();
    for (const id of EXPERIMENTS) {
      await page.goto(`${env.origin}/?experiment=${id}`);
      await page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
      await page.waitForSelector(`.experiment-${id} h3`);
      assert.deepEqual(await axeViolations(page, `.experiment-${id}`), [], `${colorScheme} ${id}`);
    }
    await context.close();
  }
});

// The dot-product inspector under Q·Kᵀ, in real Chromium: pointing at a cell
// shows that cell's q row, k row and their products as strips, and the sum.
// The strips' colours are the page's scales of the core's numbers (from
// trace.dotTerms), checked in what Chromium paints, not only in the style.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { loadAttentionLab } from 'attention-lab';
import { makeScale } from '../../web/app/matrix/colors.js';
import { fmt } from '../../web/app/ui/format.js';
import { useServedChromium, watchProblems } from './chromium.mjs';
import { paintedAt } from './pixels.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SENTENCE = '我喜欢人工智能';
const core = await loadAttentionLab();
const env = useServedChromium(`${ROOT}web`);

/** The painted colours a fifth of the way into each of `columns` of each inspector strip and four fifths of the way
 *  (an element screenshot, decoded in the page): both the column's own colour when the strip has hard stops. */
async function paintedColumns(page, columns) {
  const out = [];
  for (const strip of await page.$$('#step-body .inspector .heat-strip')) {
    const box = await strip.boundingBox();
    const inner = box.width - 2; // inside the 1px border
    const x = (k) => Math.floor(1 + (k / 64) * inner);
    const colours = await paintedAt(page, strip, columns.flatMap((k) => [[x(k + 0.2), box.height / 2], [x(k + 0.8), box.height / 2]]));
    out.push(columns.map((_, c) => [colours[2 * c], colours[2 * c + 1]]));
  }
  return out;
}

const rgbOf = (css) => css.match(/\d+/g).map(Number);

test('pointing at a Q·Kᵀ cell shows its q row, k row and products as strips in the scales\' colours, and their sum', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(`${env.origin}/?step=scores&model=random`); // the seeded head: 64 products a cell
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
  const trace = core.run(SENTENCE, { model: 'random' });
  const q = trace.stage('q');
  const k = trace.stage('k');
  const [i, j] = [3, 6];
  await page.hover(`#step-body td[data-i="${i}"][data-j="${j}"]`);
  const d = trace.dotTerms('scores', i, j);
  assert.equal(d.products.length, 64);

  const head = await page.textContent('#step-body .inspector .strip-head');
  assert.ok(head.includes(trace.tokens[i]) && head.includes(trace.tokens[j]) && head.includes('64'), head);
  assert.equal(await page.textContent('#step-body .inspector .total'), `= ${fmt(d.total)}`);
  const scores = trace.stage('scores');
  assert.equal(fmt(d.total), fmt(scores.data[i * scores.cols + j]), 'the sum is the cell');

  const qk = makeScale('diverging', Math.min(q.min, k.min), Math.max(q.max, k.max));
  const products = makeScale('diverging', d.productsMin, d.productsMax);
  const expected = [[d.a, qk], [d.b, qk], [d.products, products]].map(([row, scale]) => Array.from(row, (v) => rgbOf(scale.css(v))));
  const columns = [0, 17, 40, 63];
  const painted = await paintedColumns(page, columns);
  assert.equal(painted.length, 3);
  painted.forEach((strip, s) => columns.forEach((col, c) => strip[c].forEach((pixel) => {
    pixel.forEach((channel, ch) => assert.ok(Math.abs(channel - expected[s][col][ch]) <= 1,
      `strip ${s}, column ${col}: painted ${pixel}, expected ${expected[s][col]}`));
  })));

  // A strip names the value under the pointer.
  const box = await page.locator('#step-body .inspector .heat-strip').first().boundingBox();
  await page.mouse.move(box.x + 1 + ((17.5 / 64) * (box.width - 2)), box.y + (box.height / 2));
  assert.equal(await page.textContent('#tooltip'), `(0, 17) = ${fmt(d.a[17])}`);

  assert.deepEqual(problems, []);
  trace.dispose();
  await context.close();
});

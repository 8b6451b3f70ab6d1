// The steps that change a table's numbers in place (÷√d_k, softmax), in real
// Chromium with the page's clock under the test's control. From the step's
// first frame every cell is covered by exactly one cover, the size of the
// cell, holding the previous number (÷√d_k: Q·Kᵀ; softmax: the row's e^x and
// their total) painted in the previous colours; the covers then give way and
// leave the core's new numbers, in their own colours, and nothing else.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { loadAttentionLab } from 'attention-lab';
import { makeScale } from '../../web/app/matrix/colors.js';
import { fmt } from '../../web/app/ui/format.js';
import { clickNextThenAFrame, openWithClockPaused, useServedChromium } from './chromium.mjs';
import { shownHead } from './page-helpers.mjs';
import { paintedAt } from './pixels.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SENTENCE = '我喜欢人工智能';
const core = await loadAttentionLab();
const env = useServedChromium(`${ROOT}web`);

/**
 * The stage's table cell by cell: its text, and what lies over it — every
 * element of the figure outside the table, hidden from assistive technology,
 * with no element inside it and the cell's own box (±1 px): its text and its
 * opacity with its ancestors'. The cover's shape is the view's business; that
 * one sits exactly over each cell is what the learner sees.
 */
const cellsAndCovers = (page) => page.$eval('#step-body table[role="grid"]', (table) => {
  const figure = table.closest('figure');
  const leaves = [...figure.querySelectorAll('[aria-hidden="true"] *, [aria-hidden="true"]')]
    .filter((el) => !table.contains(el) && el.childElementCount === 0 && el.textContent !== '');
  const boxes = leaves.map((el) => el.getBoundingClientRect());
  const opacity = (el) => {
    let o = 1;
    for (let e = el; e && e !== figure.parentElement; e = e.parentElement) o *= Number(getComputedStyle(e).opacity);
    return o;
  };
  return [...table.tBodies[0].rows].map((tr) => [...tr.cells].slice(1).map((td) => {
    const r = td.getBoundingClientRect();
    const over = leaves.filter((_, k) => ['left', 'top', 'width', 'height'].every((side) => Math.abs(boxes[k][side] - r[side]) <= 1));
    return { text: td.textContent, covers: over.map((el) => ({ text: el.textContent, opacity: opacity(el) })) };
  }));
});

/** The colour painted just inside two opposite corners of each cell (an element screenshot, decoded in the page). */
async function paintedCorners(page) {
  const table = await page.$('#step-body table[role="grid"]');
  const origin = await table.boundingBox();
  const cells = await page.$$eval('#step-body table[role="grid"] td[data-j]', (tds) => tds.map((td) => {
    const r = td.getBoundingClientRect();
    return { i: Number(td.dataset.i), j: Number(td.dataset.j), left: r.left, top: r.top, right: r.right, bottom: r.bottom };
  }));
  const colours = await paintedAt(page, table, cells.flatMap((c) => [
    [c.left + 3 - origin.x, c.top + 3 - origin.y], [c.right - 4 - origin.x, c.bottom - 4 - origin.y]]));
  return cells.map((c, k) => ({ i: c.i, j: c.j, colours: [colours[2 * k], colours[2 * k + 1]] }));
}

const rgbOf = (css) => css.match(/\d+/g).map(Number);
const near = (a, b) => a.every((ch, k) => Math.abs(ch - b[k]) <= 2);

async function stepFrom(stage, query = '') {
  const { context, page, problems } = await openWithClockPaused(env, `/?step=${stage}${query}`);
  await clickNextThenAFrame(page);
  await page.waitForFunction((from) => document.body.dataset.step !== from
    && document.querySelector('#step-body figure [aria-hidden="true"]'), stage);
  return { context, page, problems };
}

test('÷√d_k: each Q·Kᵀ number covers its cell, then the new numbers in the old colours, then the new colours', async () => {
  const { context, page, problems } = await stepFrom('scores');
  const trace = core.run(SENTENCE);
  const where = await shownHead(page);
  const scores = trace.stage('scores', where);
  const scaled = trace.stage('masked', where);
  const n = scores.rows;
  const at = (m, i, j) => m.data[i * m.cols + j];

  // The step's first frame: one cover over every cell, opaque, with the cell's Q·Kᵀ number; the cells beneath already hold the new ones.
  let cells = await cellsAndCovers(page);
  assert.equal(cells.length, n);
  cells.forEach((row, i) => row.forEach((cell, j) => {
    assert.equal(cell.text, fmt(at(scaled, i, j)), `cell (${i}, ${j})`);
    assert.deepEqual(cell.covers, [{ text: fmt(at(scores, i, j)), opacity: 1 }], `cover of (${i}, ${j})`);
  }));

  // A moment later the new numbers in the old colours go in under those covers.
  await page.clock.runFor(200);
  cells = await cellsAndCovers(page);
  cells.forEach((row, i) => row.forEach((cell, j) => {
    assert.deepEqual(cell.covers.map((c) => c.text).sort(), [fmt(at(scores, i, j)), fmt(at(scaled, i, j))].sort(), `covers of (${i}, ${j})`);
  }));

  // At the end nothing lies over the table, and the cells show the core's ÷√d_k in its own scale.
  await page.clock.runFor(6000);
  cells = await cellsAndCovers(page);
  cells.forEach((row, i) => row.forEach((cell, j) => {
    assert.equal(cell.text, fmt(at(scaled, i, j)));
    assert.deepEqual(cell.covers, [], `(${i}, ${j}) uncovered`);
  }));
  assert.deepEqual(problems, []);
  trace.dispose();
  await context.close();
});

test('softmax: each row shows its e^x and their total in the e^x colours, then turns into probabilities', async () => {
  // The seeded head: its e^x fit the table's width (the trained model's reach e^30).
  const { context, page, problems } = await stepFrom('scaled', '&model=random');
  const trace = core.run(SENTENCE, { model: 'random' });
  const weights = trace.stage('weights');
  const n = weights.rows;
  const steps = Array.from({ length: n }, (_, i) => trace.softmaxRow(i));
  const exps = steps.flatMap((r) => Array.from(r.exps));
  const expScale = makeScale('sequential', Math.min(...exps), Math.max(...exps));
  const weightScale = makeScale('sequential', weights.min, weights.max);

  let cells = await cellsAndCovers(page);
  assert.equal(cells.length, n);
  cells.forEach((row, i) => {
    assert.equal(row.length, n + 1, 'n cells and the Σ column');
    row.forEach((cell, j) => {
      const before = j < n ? fmt(steps[i].exps[j]) : fmt(steps[i].expSum);
      const after = j < n ? fmt(weights.data[i * n + j]) : fmt(1);
      assert.equal(cell.text, after, `cell (${i}, ${j})`);
      assert.deepEqual(cell.covers, [{ text: before, opacity: 1 }], `cover of (${i}, ${j})`);
    });
  });
  // What Chromium paints over each number cell is the e^x colour, up to its corners.
  for (const { i, j, colours } of await paintedCorners(page)) {
    const expected = rgbOf(expScale.css(steps[i].exps[j]));
    colours.forEach((c) => assert.ok(near(c, expected), `(${i}, ${j}) painted ${c}, e^x colour ${expected}`));
  }

  await page.clock.runFor(8000);
  cells = await cellsAndCovers(page);
  cells.forEach((row, i) => row.forEach((cell, j) => assert.deepEqual(cell.covers, [], `(${i}, ${j}) uncovered`)));
  await page.waitForTimeout(600); // the last row's fade, which runs on the compositor's clock
  for (const { i, j, colours } of await paintedCorners(page)) {
    const expected = rgbOf(weightScale.css(weights.data[i * n + j]));
    colours.forEach((c) => assert.ok(near(c, expected), `(${i}, ${j}) painted ${c}, probability colour ${expected}`));
  }
  assert.deepEqual(problems, []);
  trace.dispose();
  await context.close();
});

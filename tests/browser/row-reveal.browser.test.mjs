// A table that appears row by row (the Q·Kᵀ step), in real Chromium, with the
// page's clock under the test's control. Until its turn a row is a stand-in
// (hidden label, one empty cell across); the columns have their final widths
// from the first frame; the reveal ends with the core's numbers in every cell
// and nothing left over; a drawing that takes over mid-reveal is not undone by
// the reveal it interrupted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { loadAttentionLab } from 'attention-lab';
import { fmt } from '../../web/app/ui/format.js';
import { clickNextThenAFrame, openWithClockPaused, useServedChromium } from './chromium.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SENTENCE = '我喜欢人工智能';
const core = await loadAttentionLab();
const env = useServedChromium(`${ROOT}web`);

/** The Q·Kᵀ table as it stands: each body row's kind, label, cells' text, and the column headers' boxes. */
const tableNow = (page) => page.$eval('#step-body table.matrix', (table) => ({
  rows: [...table.tBodies[0].rows].map((tr) => ({
    standIn: tr.classList.contains('stand-in'),
    hidden: tr.getAttribute('aria-hidden') === 'true',
    pending: tr.classList.contains('pending'),
    selected: tr.classList.contains('selected'),
    row: tr.dataset.row,
    label: tr.cells[0].textContent,
    cells: [...tr.cells].slice(1).map((td) => td.textContent),
    minWidths: [...tr.cells].slice(1).map((td) => td.style.minWidth),
  })),
  columns: [...table.tHead.rows[0].cells].map((th) => { const r = th.getBoundingClientRect(); return [r.left, r.width]; }),
  height: table.getBoundingClientRect().height,
}));

const assertSameGeometry = (now, final, label) => {
  assert.equal(now.columns.length, final.columns.length, label);
  now.columns.forEach(([left, width], k) => {
    assert.ok(Math.abs(left - final.columns[k][0]) < 0.5 && Math.abs(width - final.columns[k][1]) < 0.5,
      `${label}: column ${k} at ${left}+${width}, finally ${final.columns[k]}`);
  });
  assert.ok(Math.abs(now.height - final.height) < 0.5, `${label}: table height ${now.height}, finally ${final.height}`);
};

async function openAtQkv() {
  const { context, page, problems } = await openWithClockPaused(env, '/?step=qkv&layer=0&head=0'); // a head chosen: it stays whatever the token
  await clickNextThenAFrame(page);
  await page.waitForFunction(() => document.body.dataset.step === 'scores' && document.querySelector('#step-body tr.stand-in'));
  return { context, page, problems };
}

test('Q·Kᵀ comes in row by row: stand-ins first, final column widths throughout, the core\'s numbers at the end', async () => {
  const { context, page, problems } = await openAtQkv();
  const trace = core.run(SENTENCE);
  const scores = trace.stage('scores');
  const n = trace.tokens.length;
  const expected = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => fmt(scores.data[i * n + j])));

  const first = await tableNow(page);
  assert.equal(first.rows.length, n);
  assert.deepEqual(first.rows.map((r) => r.label), trace.tokens, 'every row has its label from the start');
  assert.deepEqual(first.rows[0].cells, expected[0], 'the first row is whole');
  first.rows.slice(1).forEach((r, k) => {
    assert.ok(r.standIn && r.hidden && r.pending, `row ${k + 1} is a hidden stand-in`);
    assert.deepEqual(r.cells, [''], `row ${k + 1}: one empty cell across`);
  });
  assert.ok(first.rows[0].minWidths.every((w) => /ch/.test(w)), 'the first row reserves each column');

  // Part way: some rows in, the others still stand-ins.
  await page.clock.runFor(30 + 70 * 3 + 10);
  const part = await tableNow(page);
  const inPlace = part.rows.filter((r) => !r.standIn).length;
  assert.ok(inPlace >= 4 && inPlace < n, `${inPlace} rows in part way`);

  await page.clock.runFor(3000);
  await page.waitForFunction(() => document.body.dataset.rendered && !document.querySelector('#step-body .pending, #step-body .stand-in'));
  const final = await tableNow(page);
  assert.deepEqual(final.rows.map((r) => r.cells), expected, 'every cell holds the core\'s Q·Kᵀ');
  assert.deepEqual(final.rows.map((r) => r.row), Array.from({ length: n }, (_, i) => String(i)));
  assert.ok(final.rows.every((r) => !r.hidden && r.minWidths.every((w) => w === '')), 'reservations and aria-hidden gone');
  assertSameGeometry(first, final, 'first frame');
  assertSameGeometry(part, final, 'part way');

  assert.deepEqual(problems, []);
  trace.dispose();
  await context.close();
});

test('a drawing that takes over mid-reveal stays: the interrupted reveal brings no stale row back', async () => {
  const { context, page, problems } = await openAtQkv();
  const trace = core.run(SENTENCE);
  const scores = trace.stage('scores');
  const n = trace.tokens.length;
  await page.clock.runFor(30 + 70 + 10); // two rows in
  // The learner follows another token: the page redraws at once (no animation).
  await page.click('#token-chips li:nth-child(6) button');
  await page.waitForFunction(() => !document.querySelector('#step-body tr.stand-in'));
  await page.clock.runFor(3000); // the interrupted reveal wakes up and must stop
  await page.waitForFunction(() => !document.querySelector('#step-body .pending'));
  const final = await tableNow(page);
  assert.equal(final.rows.length, n);
  assert.deepEqual(final.rows.map((r) => r.row), Array.from({ length: n }, (_, i) => String(i)));
  assert.deepEqual(final.rows.map((r) => r.selected), Array.from({ length: n }, (_, i) => i === 5), 'only the followed row is outlined');
  final.rows.forEach((r, i) => assert.deepEqual(r.cells, Array.from({ length: n }, (_, j) => fmt(scores.data[i * n + j]))));
  assert.deepEqual(problems, []);
  trace.dispose();
  await context.close();
});

// The teaching page in real Chromium, served as `npm start` serves it (strict
// CSP): loading, typing, stepping, displayed numbers against the trace, the
// detail panel, settings, a 512-token sentence, and a screenshot of every
// stage. Bad and hostile input: attack.browser.test.mjs.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadAttentionLab } from 'attention-lab';
import { fmt } from '../../web/app/format.js';
import { useServedChromium, waitForParam, watchProblems } from './chromium.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SHOTS = `${ROOT}test-results/`;
const STAGE_IDS = ['tokens', 'embedding', 'qkv', 'scores', 'scaled', 'softmax', 'weighted-sum', 'output'];
const lab = await loadAttentionLab(); // the same wasm as the page: the reference numbers
const env = useServedChromium(`${ROOT}web`);
before(() => {
  mkdirSync(SHOTS, { recursive: true });
});

/** Opens the page (reduced motion: no waiting on animations) and waits until drawn. */
async function open(query = '', { viewport = { width: 1280, height: 800 }, colorScheme = 'light' } = {}) {
  const context = await env.browser.newContext({ viewport, colorScheme, reducedMotion: 'reduce' });
  const page = await context.newPage();
  const problems = watchProblems(page);
  const dialogs = [];
  page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss(); });
  await page.goto(`${env.origin}/${query}`);
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached', timeout: 20_000 });
  return { page, context, problems, dialogs };
}

async function rendered(page, stage) {
  await page.waitForSelector(`body[data-stage="${stage}"][data-rendered]`, { state: 'attached' });
  await page.waitForFunction(() => document.body.dataset.rendered === String(document.querySelectorAll('#stage-body').length && document.body.dataset.rendered));
}

const chips = (page) => page.$$eval('#token-chips .chip .text', (els) => els.map((e) => e.textContent));

/** The displayed cells of the current matrix table: [{ i, j, value, text }]. */
const cells = (page, stage) => page.$$eval(`figure.stage-${stage} td[data-j]`, (tds) => tds.map((td) => ({
  i: Number(td.dataset.i), j: Number(td.dataset.j), value: Number(td.dataset.value),
  text: (td.querySelector('.new') ?? td).textContent,
})));

test('the page loads with the default sentence and a clean console', async () => {
  const { page, context, problems } = await open();
  assert.deepEqual(await chips(page), ['[CLS]', '我', '喜', '欢', '人', '工', '智', '能', '[SEP]']);
  assert.equal(await page.$eval('#sentence', (e) => e.value), '我喜欢人工智能');
  assert.equal(await page.$eval('#detail-title', (e) => e.textContent), 'Row 喜 through softmax');
  assert.equal(await page.$eval('#loading', (e) => e.hidden), true);
  // The load's steps are marked on the page's timeline, in order (the benchmark reads them).
  const marks = await page.evaluate(() => performance.getEntriesByType('mark')
    .filter((m) => m.name.startsWith('attention-lab:')).map((m) => [m.name, m.startTime]));
  assert.deepEqual(marks.map(([name]) => name), ['script', 'core-ready', 'first-run', 'drawn'].map((s) => `attention-lab:${s}`));
  marks.slice(1).forEach(([, time], k) => assert.ok(time >= marks[k][1]));
  assert.deepEqual(problems, []);
  await context.close();
});

test('stepping with the buttons and the keyboard visits every stage in order; the URL follows', async () => {
  const { page, context, problems } = await open();
  assert.equal(await page.getAttribute('body', 'data-stage'), 'tokens');
  for (const id of STAGE_IDS.slice(1)) {
    await page.click('#next');
    await rendered(page, id);
    await waitForParam(page, 'stage', id);
    assert.equal(await page.$eval('#stage-rail [aria-current="step"]', (b) => b.dataset.stage), id);
  }
  await page.click('#next'); // past the end: stays
  assert.equal(await page.getAttribute('body', 'data-stage'), 'output');
  await page.click('#prev');
  await rendered(page, 'weighted-sum');
  await page.keyboard.press('Home');
  await rendered(page, 'tokens');
  for (const id of STAGE_IDS.slice(1)) {
    await page.keyboard.press('ArrowRight');
    await rendered(page, id);
    await waitForParam(page, 'stage', id);
  }
  await page.keyboard.press('ArrowLeft');
  await rendered(page, 'weighted-sum');
  await page.click('#stage-rail button[data-stage="scores"]');
  await rendered(page, 'scores');
  // The URL reopens the same view.
  await waitForParam(page, 'stage', 'scores');
  const link = page.url();
  const again = await open(new URL(link).search);
  assert.equal(await again.page.getAttribute('body', 'data-stage'), 'scores');
  assert.deepEqual(problems, []);
  await again.context.close();
  await context.close();
});

test('play walks through the stages by itself and pause stops it', async () => {
  const { page, context } = await open('?stage=softmax');
  await page.click('#play');
  await rendered(page, 'weighted-sum');
  await rendered(page, 'output');
  assert.equal(await page.$eval('#play', (b) => b.getAttribute('aria-pressed')), 'false'); // stops at the end
  await page.keyboard.press('Home');
  await page.keyboard.press(' ');
  await rendered(page, 'embedding');
  await page.keyboard.press(' ');
  const stopped = await page.getAttribute('body', 'data-stage');
  await page.waitForTimeout(2500);
  assert.equal(await page.getAttribute('body', 'data-stage'), stopped);
  await context.close();
});

test('displayed scores, scaled values and weights equal the trace', async () => {
  const trace = lab.run('我喜欢人工智能');
  const { page, context, problems } = await open('?stage=scores');
  for (const [stage, id] of [['scores', 'scores'], ['scaled', 'scaled'], ['softmax', 'weights']]) {
    if (stage !== 'scores') {
      await page.click(`#stage-rail button[data-stage="${stage}"]`);
      await rendered(page, stage);
    }
    const expected = trace.stage(id);
    const shown = await cells(page, id);
    assert.equal(shown.length, 81, stage);
    for (const c of shown) {
      const v = expected.data[c.i * 9 + c.j];
      assert.equal(c.value, v, `${stage} (${c.i}, ${c.j})`);
      assert.equal(c.text, fmt(v), `${stage} (${c.i}, ${c.j}) text`);
    }
  }
  // Row sums of the weights are shown as 1.00.
  const sums = await page.$$eval('figure.stage-weights td.sum', (tds) => tds.map((td) => td.textContent));
  assert.deepEqual(sums, Array(9).fill('1.00'));
  // Output (9 × 64, too wide for printed numbers): a canvas of cells whose
  // tooltip does the arithmetic, under the mouse and from the keyboard.
  await page.click('#stage-rail button[data-stage="output"]');
  await rendered(page, 'output');
  const out = trace.stage('output');
  const grid = 'figure.stage-output canvas.heat';
  const box = await page.locator(grid).boundingBox();
  await page.mouse.move(box.x + ((0.5 / out.cols) * box.width), box.y + ((2.5 / out.rows) * box.height));
  const tip = await page.textContent('#tooltip');
  assert.match(tip, /output\[喜\], column 1 = Σ_k p\(喜 → k\) · v_k\[1\]/);
  assert.ok(tip.endsWith(`= ${fmt(out.data[2 * out.cols], 3)}`), tip);
  await page.mouse.move(0, 0);
  await page.focus(grid);
  // To the corner first (the cursor starts on the followed token's row), then to (2, 3).
  const keys = [...Array(10).fill('ArrowUp'), ...Array(10).fill('ArrowLeft'), 'ArrowDown', 'ArrowDown', 'ArrowRight', 'ArrowRight', 'ArrowRight'];
  for (const key of keys) await page.keyboard.press(key);
  const spoken = await page.textContent('figure.stage-output .pixels [aria-live]');
  assert.ok(spoken.endsWith(`= ${fmt(out.data[2 * out.cols + 3], 3)}`), spoken);
  assert.match(spoken, /column 4/);
  assert.equal(await page.textContent('#tooltip'), spoken);
  assert.equal(await page.getAttribute('body', 'data-stage'), 'output', 'arrows inside the grid do not change the stage');
  // A click puts the keyboard cursor on the clicked cell.
  await page.locator(grid).evaluate((el) => el.blur());
  await page.mouse.click(box.x + ((10.5 / out.cols) * box.width), box.y + ((5.5 / out.rows) * box.height));
  const clicked = await page.textContent('figure.stage-output .pixels [aria-live]');
  assert.ok(clicked.endsWith(`= ${fmt(out.data[5 * out.cols + 10], 3)}`), clicked);
  assert.match(clicked, /column 11/);
  assert.deepEqual(problems, []);
  trace.dispose();
  await context.close();
});

test('hovering or focusing a score shows q·k term by term', async () => {
  const trace = lab.run('我喜欢人工智能');
  const d = trace.dotTerms('scores', 2, 3);
  const { page, context } = await open('?stage=scores');
  await page.hover('figure.stage-scores td[data-i="2"][data-j="3"]');
  let tip = await page.textContent('#tooltip');
  assert.match(tip, /^score\(喜 → 欢\) = q\[喜\] · k\[欢\]/);
  assert.ok(tip.includes('(64 terms)'));
  assert.ok(tip.endsWith(`= ${fmt(d.total)}`));
  // Keyboard: focus the grid, move right with the arrows.
  await page.focus('figure.stage-scores td[tabindex="0"]');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  tip = await page.textContent('#tooltip');
  assert.match(tip, /^score\(我 → 我\)/);
  assert.equal(await page.getAttribute('body', 'data-stage'), 'scores', 'arrows inside the grid do not change the stage');
  trace.dispose();
  await context.close();
});

test('the detail panel for 喜 reproduces its row at every step and sums to 1', async () => {
  const trace = lab.run('我喜欢人工智能');
  const r = trace.rowSteps(2);
  const { page, context } = await open('?stage=softmax');
  const table = await page.$$eval('#detail-body tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent.trim())));
  assert.equal(table.length, 9);
  table.forEach((row, j) => {
    assert.deepEqual(row, [trace.tokens[j], fmt(r.scores[j]), fmt(r.scaled[j]), fmt(r.exps[j]), fmt(r.shares[j]), fmt(r.probs[j])]);
  });
  const foot = await page.$$eval('#detail-body tfoot td', (tds) => tds.map((td) => td.textContent));
  assert.equal(foot[3], fmt(r.expSum));
  assert.equal(foot[5], '1.00');
  // The column of the current stage is marked, header and every row, and the mark moves with a step.
  const marked = () => page.$$eval('#detail-body tr', (trs) => trs.map((tr) => [...tr.cells].findIndex((c) => c.classList.contains('current'))));
  assert.deepEqual(await marked(), [5, 5, 5, 5, 5, 5, 5, 5, 5, 5, -1]);
  await page.click('#prev');
  await page.waitForSelector('body[data-stage="scaled"]', { state: 'attached' });
  assert.deepEqual(await marked(), [2, 2, 2, 2, 2, 2, 2, 2, 2, 2, -1]);
  await page.click('#prev');
  await page.click('#prev');
  await page.waitForSelector('body[data-stage="qkv"]', { state: 'attached' });
  assert.deepEqual(await marked(), Array(11).fill(-1));
  await page.click('#next');
  await page.waitForSelector('body[data-stage="scores"]', { state: 'attached' });
  assert.deepEqual(await marked(), [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1]);
  // Clicking another token's row label moves the panel to it.
  await page.click('figure.stage-scores th.row-label >> text=欢');
  assert.equal(await page.textContent('#detail-title'), 'Row 欢 through softmax');
  await waitForParam(page, 't', '3');
  const r3 = trace.rowSteps(3);
  assert.deepEqual(await page.$$eval('#detail-body tbody td[data-col="scores"]', (tds) => tds.map((td) => td.textContent)),
    Array.from(r3.scores, (v) => fmt(v)));
  assert.deepEqual(await marked(), [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1]);
  // An edit recomputes the row: the panel shows the new sentence's numbers.
  await page.fill('#sentence', '我喜欢数学');
  await page.waitForFunction(() => document.querySelectorAll('#detail-body tbody tr').length === 7);
  const edited = lab.run('我喜欢数学');
  assert.deepEqual(await page.$$eval('#detail-body tbody td[data-col="scores"]', (tds) => tds.map((td) => td.textContent)),
    Array.from(edited.rowSteps(3).scores, (v) => fmt(v)));
  edited.dispose();
  trace.dispose();
  await context.close();
});

test('typing a new sentence updates the tokens and every stage', async () => {
  const { page, context, problems } = await open('?stage=scores');
  await page.fill('#sentence', '猫坐在垫子上');
  await page.waitForFunction(() => document.querySelectorAll('#token-chips .chip').length === 8);
  assert.deepEqual(await chips(page), ['[CLS]', '猫', '坐', '在', '垫', '子', '上', '[SEP]']);
  await rendered(page, 'scores');
  const trace = lab.run('猫坐在垫子上');
  const shown = await cells(page, 'scores');
  assert.equal(shown.length, 64);
  for (const c of shown) assert.equal(c.value, trace.stage('scores').data[c.i * 8 + c.j]);
  await waitForParam(page, 's', '猫坐在垫子上');
  for (const id of STAGE_IDS) {
    await page.click(`#stage-rail button[data-stage="${id}"]`);
    await rendered(page, id);
    assert.match(await page.textContent('#stage-title'), /\S/);
  }
  assert.deepEqual(problems, []);
  trace.dispose();
  await context.close();
});

test('an edit redraws in place: the same table with the new numbers, focus kept, rows added for new tokens', async () => {
  const { page, context, problems } = await open('?stage=softmax');
  const table = await page.$('figure.stage-weights table');
  await page.focus('figure.stage-weights td[data-i="4"][data-j="1"]');
  // The change arrives without moving focus (as from the embedding page or a script).
  await page.evaluate(() => {
    const box = document.getElementById('opt-causal');
    box.checked = true;
    box.dispatchEvent(new Event('change'));
  });
  await page.waitForFunction(() => document.querySelector('figure.stage-weights td[data-i="0"][data-j="1"]').dataset.value === '0');
  assert.ok(await table.evaluate((el) => el.isConnected), 'the table on the page is the one drawn first');
  assert.ok(await page.evaluate(() => document.activeElement.matches('td[data-i="4"][data-j="1"]')), 'the focused cell keeps focus');
  const causal = lab.run('我喜欢人工智能', { causal: true });
  for (const c of await cells(page, 'weights')) {
    assert.equal(c.value, causal.stage('weights').data[c.i * 9 + c.j]);
    assert.equal(c.text, fmt(c.value));
  }
  const r = causal.rowSteps(2);
  const probs = await page.$$eval('#detail-body tbody td[data-col="probs"]', (tds) => tds.map((td) => td.textContent.trim()));
  assert.deepEqual(probs, Array.from(r.probs, (p) => fmt(p)));
  // One more token: the same table grows a row and a column.
  await page.fill('#sentence', '我喜欢人工智能吗');
  await page.waitForFunction(() => document.querySelectorAll('figure.stage-weights tbody tr').length === 10);
  assert.ok(await table.evaluate((el) => el.isConnected));
  const longer = lab.run('我喜欢人工智能吗', { causal: true });
  const shown = await cells(page, 'weights');
  assert.equal(shown.length, 100);
  for (const c of shown) assert.equal(c.value, longer.stage('weights').data[c.i * 10 + c.j]);
  // Following another token moves the outline; nothing else is redrawn.
  await page.click('figure.stage-weights th.row-label >> text=欢');
  await page.waitForFunction(() => document.querySelector('figure.stage-weights tr.selected')?.dataset.row === '3');
  assert.equal(await page.$$eval('figure.stage-weights tr.selected', (trs) => trs.length), 1);
  assert.ok(await table.evaluate((el) => el.isConnected));
  assert.deepEqual(problems, []);
  causal.dispose();
  longer.dispose();
  await context.close();
});

test('settings: causal mask, scaling, d_k and positions each change what they should', async () => {
  const { page, context, problems } = await open('?stage=softmax');
  await page.check('#opt-causal');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('causal') === '1');
  for (const c of await cells(page, 'weights')) if (c.j > c.i) assert.equal(c.value, 0);
  await page.click('#stage-rail button[data-stage="scaled"]');
  await rendered(page, 'scaled');
  const masked = await cells(page, 'masked');
  assert.ok(masked.filter((c) => c.j > c.i).every((c) => c.text === '−∞'));
  await page.uncheck('#opt-causal');
  await page.uncheck('#opt-scale');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('scale') === '0');
  const trace = lab.run('我喜欢人工智能', { scale: false });
  for (const c of await cells(page, 'scaled')) assert.equal(c.value, trace.stage('scores').data[c.i * 9 + c.j]);
  assert.match(await page.textContent('#stage-explain'), /Scaling is off/);
  await page.check('#opt-scale');
  await page.fill('#opt-dK', '8');
  await page.press('#opt-dK', 'Enter');
  await page.click('#stage-rail button[data-stage="qkv"]');
  await rendered(page, 'qkv');
  assert.match(await page.textContent('figure.stage-q .shape'), /9 × 8/);
  await page.uncheck('#opt-positional');
  await page.click('#stage-rail button[data-stage="embedding"]');
  await rendered(page, 'embedding');
  assert.match(await page.textContent('#stage-explain'), /Positional encoding is off/);
  assert.deepEqual(problems, []);
  trace.dispose();
  await context.close();
});

test('a long sentence (512 tokens) renders as pixels without freezing the page', async () => {
  const long = '注意力'.repeat(170);
  const { page, context, problems } = await open(`?s=${encodeURIComponent(long)}&stage=softmax`);
  assert.equal(await page.$$eval('#token-chips .chip', (els) => els.length), 512);
  assert.equal(await page.$$eval('#stage-body canvas.heat', (els) => els.length), 1);
  for (const id of STAGE_IDS) {
    await page.click(`#stage-rail button[data-stage="${id}"]`);
    await rendered(page, id);
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test('a screenshot of every stage, light and dark, desktop and phone', async () => {
  for (const [name, options] of [
    ['desktop', { viewport: { width: 1280, height: 800 } }],
    ['dark', { viewport: { width: 1280, height: 800 }, colorScheme: 'dark' }],
    ['phone', { viewport: { width: 375, height: 740 } }],
  ]) {
    const { page, context, problems } = await open('', options);
    for (const id of STAGE_IDS) {
      await page.click(`#stage-rail button[data-stage="${id}"]`);
      await rendered(page, id);
      await page.screenshot({ path: `${SHOTS}page-${name}-${id}.png`, fullPage: name !== 'phone' });
    }
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `${name}: the page scrolls sideways by ${overflow}px`);
    assert.deepEqual(problems, []);
    await context.close();
  }
});

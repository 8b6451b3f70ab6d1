// The teaching page in real Chromium, served as `npm start` serves it (strict
// CSP): loading, stepping, displayed numbers against the trace, the detail
// panel. Edits, settings, a long sentence and the screenshots:
// page-edits.browser.test.mjs; bad and hostile input: attack.browser.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { loadAttentionLab } from 'attention-lab';
import { fmt } from '../../web/app/ui/format.js';
import { useServedChromium, waitForParam } from './chromium.mjs';
import { cells, chips, openPage, rendered, shownHead } from './page-helpers.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
import { STEPS } from '../../web/app/steps/index.js';

const STEP_IDS = STEPS.map((s) => s.id);
const core = await loadAttentionLab(); // the same wasm as the page: the reference numbers
const env = useServedChromium(`${ROOT}web`);

const open = (query, options) => openPage(env, query, options);

test('the page loads with the default sentence and a clean console', async () => {
  const { page, context, problems } = await open();
  assert.deepEqual(await chips(page), ['[CLS]', '我', '喜', '欢', '人', '工', '智', '能', '[SEP]']);
  assert.equal(await page.$eval('#sentence', (e) => e.value), '我喜欢人工智能');
  const { head } = await shownHead(page); // the core's article head for 喜
  // The first screen names no head yet: the row's numbers, a head's, come from Q·Kᵀ on.
  assert.equal(await page.$eval('#detail-title', (e) => e.textContent), 'Row “喜” through softmax');
  assert.equal(await page.$eval('#opt-model', (e) => e.value), 'trained');
  assert.equal(await page.$eval('#loading', (e) => e.hidden), true);
  // The load's steps are marked on the page's timeline, in order (the benchmark reads them).
  const marks = await page.evaluate(() => performance.getEntriesByType('mark')
    .filter((m) => m.name.startsWith('attention-lab:')).map((m) => [m.name, m.startTime]));
  assert.deepEqual(marks.map(([name]) => name), ['script', 'core-ready', 'first-run', 'drawn'].map((s) => `attention-lab:${s}`));
  marks.slice(1).forEach(([, time], k) => assert.ok(time >= marks[k][1]));
  await page.click('#next');
  await page.click('#next');
  await page.click('#next');
  await page.waitForSelector('body[data-step="scores"]', { state: 'attached' });
  assert.equal(await page.$eval('#detail-title', (e) => e.textContent), `Row “喜” through softmax · Head ${head + 1}`);
  assert.deepEqual(problems, []);
  await context.close();
});

test('stepping with the buttons and the keyboard visits every step in order; the URL follows', async () => {
  const { page, context, problems } = await open();
  assert.equal(await page.getAttribute('body', 'data-step'), 'tokens');
  for (const id of STEP_IDS.slice(1)) {
    await page.click('#next');
    await rendered(page, id);
    await waitForParam(page, 'step', id);
    assert.equal(await page.$eval('#step-rail [aria-current="step"]', (b) => b.dataset.step), id);
    // The formula marks this step's part (every step but embedding has one), and nothing else.
    const marked = await page.$$eval('#formula .current', (els) => [...new Set(els.map((e) => e.dataset.step))]);
    assert.deepEqual(marked, ['embedding', 'concat'].includes(id) ? [] : [id], id);
  }
  // Each part of the formula belongs to a step.
  const parts = await page.$$eval('#formula [data-step]', (els) => [...new Set(els.map((e) => e.dataset.step))].sort());
  assert.deepEqual(parts, ['output', 'qkv', 'scaled', 'scores', 'softmax', 'weighted-sum']);
  await page.click('#next'); // past the end: stays
  assert.equal(await page.getAttribute('body', 'data-step'), 'concat');
  await page.click('#prev');
  await rendered(page, 'output');
  await page.keyboard.press('Home');
  await rendered(page, 'tokens');
  for (const id of STEP_IDS.slice(1)) {
    await page.keyboard.press('ArrowRight');
    await rendered(page, id);
    await waitForParam(page, 'step', id);
  }
  await page.keyboard.press('ArrowLeft');
  await rendered(page, 'output');
  await page.click('#step-rail button[data-step="scores"]');
  await rendered(page, 'scores');
  // The URL reopens the same view.
  await waitForParam(page, 'step', 'scores');
  const link = page.url();
  const again = await open(new URL(link).search);
  assert.equal(await again.page.getAttribute('body', 'data-step'), 'scores');
  assert.deepEqual(problems, []);
  await again.context.close();
  await context.close();
});

test('play walks through the steps by itself and pause stops it', async () => {
  const { page, context } = await open('?step=softmax');
  await page.click('#play');
  await rendered(page, 'weighted-sum');
  await rendered(page, 'output');
  await rendered(page, 'concat');
  assert.equal(await page.$eval('#play', (b) => b.getAttribute('aria-pressed')), 'false'); // stops at the end
  await page.keyboard.press('Home');
  await page.keyboard.press(' ');
  await rendered(page, 'embedding');
  await page.keyboard.press(' ');
  const stopped = await page.getAttribute('body', 'data-step');
  await page.waitForTimeout(2500);
  assert.equal(await page.getAttribute('body', 'data-step'), stopped);
  await context.close();
});

test('displayed scores, scaled values and weights equal the trace', async () => {
  const trace = core.run('我喜欢人工智能');
  const { page, context, problems } = await open('?step=scores&layer=0&head=0'); // a head chosen: it stays whatever the token
  for (const [stage, id] of [['scores', 'scores'], ['scaled', 'scaled'], ['softmax', 'weights']]) {
    if (stage !== 'scores') {
      await page.click(`#step-rail button[data-step="${stage}"]`);
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
  // Output (9 × d_k, too wide for printed numbers): a canvas of cells whose
  // tooltip does the arithmetic, under the mouse and from the keyboard.
  await page.click('#step-rail button[data-step="output"]');
  await rendered(page, 'output');
  const out = trace.stage('output', { head: 0 }); // the first head's output (the layer's is 'layerOutput')
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
  assert.equal(await page.getAttribute('body', 'data-step'), 'output', 'arrows inside the grid do not change the stage');
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
  const trace = core.run('我喜欢人工智能');
  const d = trace.dotTerms('scores', 2, 3);
  const { page, context } = await open('?step=scores&layer=0&head=0');
  await page.hover('figure.stage-scores td[data-i="2"][data-j="3"]');
  let tip = await page.textContent('#tooltip');
  assert.match(tip, /^score\(喜 → 欢\) = q\[喜\] · k\[欢\]/);
  assert.ok(tip.includes(`(${trace.config.dK} terms)`));
  assert.ok(tip.endsWith(`= ${fmt(d.total)}`));
  // Keyboard: focus the grid, move right with the arrows.
  await page.focus('figure.stage-scores td[tabindex="0"]');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  tip = await page.textContent('#tooltip');
  assert.match(tip, /^score\(我 → 我\)/);
  assert.equal(await page.getAttribute('body', 'data-step'), 'scores', 'arrows inside the grid do not change the stage');
  trace.dispose();
  await context.close();
});

test('the detail panel for 喜 reproduces its row at every step and sums to 1', async () => {
  const trace = core.run('我喜欢人工智能');
  const r = trace.softmaxRow(2);
  const { page, context } = await open('?step=softmax&layer=0&head=0');
  const table = await page.$$eval('#detail-body tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent.trim())));
  assert.equal(table.length, 9);
  table.forEach((row, j) => {
    assert.deepEqual(row, [trace.tokens[j], fmt(r.scores[j]), fmt(r.scaled[j]), fmt(r.exps[j]), fmt(r.shares[j]), fmt(r.probs[j])]);
  });
  const foot = await page.$$eval('#detail-body tfoot td', (tds) => tds.map((td) => td.textContent));
  assert.equal(foot[3], fmt(r.expSum));
  assert.equal(foot[5], '1.00');
  // The column of the current stage is marked, header, every row and the sums, and the mark moves with a step.
  const marked = () => page.$$eval('#detail-body tr', (trs) => trs.map((tr) => [...tr.cells].findIndex((c) => c.classList.contains('current'))));
  assert.deepEqual(await marked(), Array(11).fill(5));
  await page.click('#prev');
  await page.waitForSelector('body[data-step="scaled"]', { state: 'attached' });
  assert.deepEqual(await marked(), Array(11).fill(2));
  await page.click('#prev');
  await page.click('#prev');
  await page.waitForSelector('body[data-step="qkv"]', { state: 'attached' });
  assert.deepEqual(await marked(), Array(11).fill(-1));
  await page.click('#next');
  await page.waitForSelector('body[data-step="scores"]', { state: 'attached' });
  assert.deepEqual(await marked(), Array(11).fill(1));
  // Clicking another token's row label moves the panel to it.
  await page.click('figure.stage-scores th.row-label >> text=欢');
  assert.equal(await page.textContent('#detail-title'), 'Row “欢” through softmax · Head 1');
  await waitForParam(page, 't', '3');
  const r3 = trace.softmaxRow(3);
  assert.deepEqual(await page.$$eval('#detail-body tbody td[data-col="scores"]', (tds) => tds.map((td) => td.textContent)),
    Array.from(r3.scores, (v) => fmt(v)));
  assert.deepEqual(await marked(), Array(11).fill(1));
  // An edit recomputes the row: the panel shows the new sentence's numbers.
  await page.fill('#sentence', '我喜欢数学');
  await page.waitForFunction(() => document.querySelectorAll('#detail-body tbody tr').length === 7);
  const edited = core.run('我喜欢数学');
  assert.deepEqual(await page.$$eval('#detail-body tbody td[data-col="scores"]', (tds) => tds.map((td) => td.textContent)),
    Array.from(edited.softmaxRow(3).scores, (v) => fmt(v)));
  edited.dispose();
  trace.dispose();
  await context.close();
});

test('the ×V step writes the three terms with the largest weights, in the core\'s order, in both languages', async () => {
  const trace = core.run('我喜欢人工智能');
  for (const lang of ['en', 'zh']) {
    const { page, context, problems } = await open(`?step=weighted-sum&lang=${lang}`);
    await rendered(page, 'weighted-sum');
    const row = trace.softmaxRow(2, await shownHead(page));
    const top = Array.from(row.order.subarray(0, 3));
    // Sorted by weight, largest first: the core's order, checked here against the weights themselves.
    assert.deepEqual(top, Array.from(row.probs.keys()).sort((a, b) => row.probs[b] - row.probs[a]).slice(0, 3));
    const said = await page.textContent('#step-explain');
    const terms = top.map((k) => `${fmt(row.probs[k])} × v(${trace.tokens[k]})`).join(' + ');
    assert.ok(said.includes(terms), `${lang}: ${said}`);
    assert.ok(said.includes(`${fmt(row.maxProb)} × v(${trace.tokens[row.argmax]})`), 'the largest term is written');
    assert.doesNotMatch(said, /Tokens with larger weights leave a stronger mark|权重越大的词元，留下的痕迹越深/);
    assert.deepEqual(problems, []);
    await context.close();
  }
  trace.dispose();
});

test('the ÷√d_k step says what scaling did to the head shown, from the core: saturating or not, variance far from 1 or not', async () => {
  const trace = core.run('我喜欢人工智能');
  for (const [where, lang] of [[{ layer: 1, head: 0 }, 'en'], [{ layer: 0, head: 0 }, 'en'], [{ layer: 1, head: 0 }, 'zh']]) {
    const report = trace.scalingReport(where);
    const { page, context, problems } = await open(`?step=scaled&layer=${where.layer}&head=${where.head}&lang=${lang}`);
    const said = await page.textContent('#step-explain');
    assert.doesNotMatch(said, /will not saturate|不会饱和，|就不会饱和/);
    if (lang === 'zh') {
      assert.match(said, report.saturation === 'saturates' ? new RegExp(`${report.rows} 行中有 ${report.saturatedRows} 行`) : /没有饱和/);
    } else {
      assert.match(said, new RegExp(`Within each row \\(what softmax sees: it ignores a row’s offset\\), the scores’ variance, averaged over the rows, goes from ${fmt(report.scoreRowVariance)} to ${fmt(report.scaledRowVariance)}`));
      assert.match(said, report.saturation === 'saturates'
        ? new RegExp(report.saturatedRows === 1 ? `1 of the ${report.rows} rows gives one key at least 0\\.9` : `${report.saturatedRows} of the ${report.rows} rows give one key at least 0\\.9`)
        : /softmax does not saturate here/);
      // The condition is said as sufficient (for such entries …), not as the only way ("only for").
      assert.doesNotMatch(said, /only for independent entries/);
      assert.match(said, { above: /That is clearly above 1 \(more than 2\)\. For q and k whose entries are independent/, unit: /about 1 \(between ½ and 2\)/,
        below: /clearly below 1 \(less than ½\)/ }[report.variance]);
    }
    assert.deepEqual(problems, []);
    await context.close();
  }
  trace.dispose();
});

test('the first screen shows only tokens: the side panel fills in from Q·Kᵀ; the embedding step at layer 2 says what x is, and how the model makes its embeddings', async () => {
  const { page, context, problems } = await open('');
  assert.equal(await page.getAttribute('body', 'data-step'), 'tokens');
  const visible = (col) => page.$$eval(`#detail-body td[data-col="${col}"]`, (tds) => tds.filter((td) => td.offsetParent !== null).length);
  assert.equal(await visible('scaled'), 0, 'no ÷√d_k on the first screen');
  assert.equal(await visible('probs'), 0, 'no weights on the first screen');
  assert.equal(await page.isVisible('.detail-before'), true);
  assert.match(await page.textContent('#step-explain'), /The article’s numbers \(d_k = 64, ids such as 101 for \[CLS\] and 2769 for 我\) illustrate BERT-base.*2 layers of 4 heads, d_k = 32/);
  await page.click('#next');
  await page.waitForSelector('body[data-step="embedding"]', { state: 'attached' });
  assert.match(await page.textContent('#step-explain'), /Layer 2, whose head the next steps show, reads layer 1’s output instead/);
  // The shipped model's embedding is factorised (docs/model.md): the sentence gives the core's two widths,
  // and the strips are the product's width; the seeded model looks its rows up whole.
  const info = core.models.find((m) => m.trained);
  assert.ok(info.embedding > 0 && info.embedding < info.dModel);
  assert.ok((await page.textContent('#step-explain')).includes(`Each token id picks its own row of ${info.embedding} numbers from a learned table; that row times one learned ${info.embedding} × ${info.dModel} matrix`));
  assert.equal(await page.textContent('.embed-strips .strip-head'), `embedding (${info.dModel})`);
  // Its x is LayerNorm of the sum: the strips say so (→, not =); the seeded model's x is the sum.
  const ops = (p) => p.$$eval('.embed-strips .op', (els) => [...new Set(els.map((e) => e.textContent))]);
  assert.deepEqual(await ops(page), ['+', '→']);
  assert.equal(await page.$$eval('.embed-strips .strip-head', (els) => els.at(-1).textContent), 'x = LayerNorm(…)');
  const { page: seeded, context: other, problems: seededProblems } = await open('?step=embedding&model=random');
  const plain = await seeded.textContent('#step-explain');
  assert.ok(plain.startsWith(`Each token id picks its own row of ${core.models.find((m) => !m.trained).dModel} numbers, its embedding`), plain);
  assert.ok(!plain.includes('ALBERT'));
  assert.deepEqual(await ops(seeded), ['+', '=']);
  assert.deepEqual(seededProblems, []);
  await other.close();
  await page.click('#next');
  await page.click('#next');
  await page.waitForSelector('body[data-step="scores"]', { state: 'attached' });
  assert.equal(await visible('scores'), 9);
  assert.equal(await visible('scaled'), 0);
  assert.equal(await page.isVisible('.detail-before'), false);
  assert.deepEqual(problems, []);
  await context.close();
});

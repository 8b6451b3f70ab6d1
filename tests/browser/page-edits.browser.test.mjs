// The teaching page in real Chromium after the learner changes something:
// typing, redraws in place, settings, a 512-token sentence, and a screenshot
// of every step (light and dark, desktop and phone) in test-results/.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadAttentionLab } from 'attention-lab';
import { fmt } from '../../web/app/ui/format.js';
import { useServedChromium, waitForParam } from './chromium.mjs';
import { cells, chips, openPage, rendered, shownHead } from './page-helpers.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SHOTS = `${ROOT}test-results/`;
import { STEPS } from '../../web/app/steps/index.js';

const STEP_IDS = STEPS.map((s) => s.id);
const core = await loadAttentionLab(); // the same wasm as the page: the reference numbers
const env = useServedChromium(`${ROOT}web`);
const open = (query, options) => openPage(env, query, options);
before(() => {
  mkdirSync(SHOTS, { recursive: true });
});

test('typing a new sentence updates the tokens and every stage', async () => {
  const { page, context, problems } = await open('?step=scores');
  await page.fill('#sentence', '猫坐在氍毹上');
  await page.waitForFunction(() => document.querySelectorAll('#token-chips .chip').length === 8);
  const trace = core.run('猫坐在氍毹上'); // the trained model: 氍毹 (a woollen rug) is not in its vocabulary
  assert.deepEqual(await chips(page), ['[CLS]', '猫', '坐', '在', '[UNK]', '[UNK]', '上', '[SEP]']);
  assert.deepEqual(await chips(page), [...trace.tokens]);
  await rendered(page, 'scores');
  const shown = await cells(page, 'scores');
  assert.equal(shown.length, 64);
  const scores = trace.stage('scores', await shownHead(page)).data;
  for (const c of shown) assert.equal(c.value, scores[c.i * 8 + c.j]);
  await waitForParam(page, 's', '猫坐在氍毹上');
  for (const id of STEP_IDS) {
    await page.click(`#step-rail button[data-step="${id}"]`);
    await rendered(page, id);
    assert.match(await page.textContent('#step-title'), /\S/);
  }
  assert.deepEqual(problems, []);
  trace.dispose();
  await context.close();
});

test('an edit redraws in place: the same table with the new numbers, focus kept, rows added for new tokens', async () => {
  const { page, context, problems } = await open('?step=softmax&model=random'); // the seeded head's causal switch
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
  const causal = core.run('我喜欢人工智能', { model: 'random', causal: true });
  for (const c of await cells(page, 'weights')) {
    assert.equal(c.value, causal.stage('weights').data[c.i * 9 + c.j]);
    assert.equal(c.text, fmt(c.value));
  }
  const r = causal.softmaxRow(2);
  const probs = await page.$$eval('#detail-body tbody td[data-col="probs"]', (tds) => tds.map((td) => td.textContent.trim()));
  assert.deepEqual(probs, Array.from(r.probs, (p) => fmt(p)));
  // One more token: the same table grows a row and a column.
  await page.fill('#sentence', '我喜欢人工智能吗');
  await page.waitForFunction(() => document.querySelectorAll('figure.stage-weights tbody tr').length === 10);
  assert.ok(await table.evaluate((el) => el.isConnected));
  const longer = core.run('我喜欢人工智能吗', { model: 'random', causal: true });
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
  const { page, context, problems } = await open('?step=softmax&model=random'); // what the seeded head lets the learner set
  // Your turn loads when it comes into view, above the settings: let it arrive before clicking below it
  // (else its content can push the checkbox down between Playwright's aim and its click).
  await page.locator('#exercise-body').scrollIntoViewIfNeeded();
  await page.waitForSelector('#exercise-body *');
  await page.check('#opt-causal');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('causal') === '1');
  for (const c of await cells(page, 'weights')) if (c.j > c.i) assert.equal(c.value, 0);
  await page.click('#step-rail button[data-step="scaled"]');
  await rendered(page, 'scaled');
  const masked = await cells(page, 'masked');
  assert.ok(masked.filter((c) => c.j > c.i).every((c) => c.text === '−∞'));
  await page.uncheck('#opt-causal');
  await page.uncheck('#opt-scale');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('scale') === '0');
  const trace = core.run('我喜欢人工智能', { model: 'random', scale: false });
  for (const c of await cells(page, 'scaled')) assert.equal(c.value, trace.stage('scores').data[c.i * 9 + c.j]);
  assert.match(await page.textContent('#step-explain'), /Scaling is off/);
  await page.check('#opt-scale');
  await page.fill('#opt-dK', '8');
  await page.press('#opt-dK', 'Enter');
  await page.click('#step-rail button[data-step="qkv"]');
  await rendered(page, 'qkv');
  assert.match(await page.textContent('figure.stage-q .shape'), /9 × 8/);
  await page.uncheck('#opt-positional');
  await page.click('#step-rail button[data-step="embedding"]');
  await rendered(page, 'embedding');
  assert.match(await page.textContent('#step-explain'), /Positional encoding is off/);
  assert.deepEqual(problems, []);
  trace.dispose();
  await context.close();
});

test('a long sentence (512 tokens) renders as pixels without freezing the page', async () => {
  const long = '注意力'.repeat(170);
  const { page, context, problems } = await open(`?s=${encodeURIComponent(long)}&step=softmax`);
  assert.equal(await page.$$eval('#token-chips .chip', (els) => els.length), 512);
  assert.equal(await page.$$eval('#step-body figure.stage-weights canvas.heat', (els) => els.length), 1);
  for (const id of STEP_IDS) {
    await page.click(`#step-rail button[data-step="${id}"]`);
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
    for (const id of STEP_IDS) {
      await page.click(`#step-rail button[data-step="${id}"]`);
      await rendered(page, id);
      await page.screenshot({ path: `${SHOTS}page-${name}-${id}.png`, fullPage: name !== 'phone' });
    }
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `${name}: the page scrolls sideways by ${overflow}px`);
    assert.deepEqual(problems, []);
    await context.close();
  }
});

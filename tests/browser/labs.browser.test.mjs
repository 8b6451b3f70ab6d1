// The labs: reachable from their stage and by URL, numbers from the core,
// controls that change what they should, in English and Chinese.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { loadAttentionLab } from 'attention-lab';
import { fmt } from '../../web/app/format.js';
import { useServedChromium, watchProblems } from './chromium.mjs';

const env = useServedChromium(fileURLToPath(new URL('../../web/', import.meta.url)));
const lab = await loadAttentionLab();
const ROW = [15.3, 22.7, 18.2, 2.1, 1.8, 3.2, 2.9, 5.6, 4.1];

async function open(query, options = {}) {
  const context = await env.browser.newContext({ reducedMotion: 'reduce', ...options });
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(`${env.origin}/${query}`);
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
  return { page, context, problems };
}
const column = (page, index) => page.$$eval('.lab-table tbody tr', (trs, k) => trs.map((tr) => tr.cells[k].textContent), index);

test('textbook: the article\'s row, 42.73 and 0.40, errata from the core, editable', async () => {
  const { page, context, problems } = await open('?lab=textbook');
  const steps = lab.softmaxSteps(ROW, 64);
  assert.deepEqual(await column(page, 4), Array.from(steps.probs, (p) => fmt(p)));
  assert.equal((await column(page, 4))[1], '0.40');
  assert.equal(await page.textContent('.lab-table tfoot td.printed'), '42.73');
  assert.equal(await page.textContent('.lab-table tfoot td[data-col="sum"]'), fmt(steps.sum));
  assert.match(await page.textContent('.lab-body'), /prints 42\.73; the exact sum is 42\.735/);
  assert.equal(await page.$$eval('.errata li', (lis) => lis.length), 7);
  const e2 = lab.softmaxSteps(ROW.slice(0, 5), 1);
  assert.ok((await page.textContent('[data-erratum="E2"]')).includes(Array.from(e2.probs, (p) => fmt(p, 6)).join(', ')));
  // Editing a score recomputes, and the printed column goes away.
  await page.fill('.score-input input[aria-label="喜"]', '30');
  await page.press('.score-input input[aria-label="喜"]', 'Enter');
  await page.waitForFunction(() => !document.querySelector('.lab-table td.printed'));
  const edited = lab.softmaxSteps([15.3, 30, ...ROW.slice(2)], 64);
  assert.equal((await column(page, 4))[1], fmt(edited.probs[1]));
  await page.fill('.score-input input[aria-label="d_k"]', '0');
  await page.press('.score-input input[aria-label="d_k"]', 'Enter');
  await page.waitForSelector('.lab-result .message.error');
  assert.match(await page.textContent('.lab-result .message.error'), /d_k must be an integer from 1 to 1024, got 0/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('scaling: opened from its stage, unscaled max weight above the scaled one, target switch', async () => {
  const { page, context, problems } = await open('?stage=scaled');
  await page.click('#stage-explain .why-link');
  await page.waitForSelector('.lab-sides');
  assert.equal(new URL(page.url()).searchParams.get('lab'), 'scaling');
  const figures = await page.$$eval('.lab-figures', (ps) => ps.map((p) => ({ max: Number(p.dataset.maxProb), entropy: Number(p.dataset.entropy) })));
  const trace = lab.run('我喜欢人工智能');
  const row = trace.rowSteps(2).scores;
  assert.equal(figures[0].max, lab.softmaxSteps(row, 1).maxProb);
  assert.equal(figures[1].max, lab.softmaxSteps(row, 64).maxProb);
  assert.ok(figures[0].max > figures[1].max, 'unscaled is peakier');
  assert.ok(figures[0].entropy < figures[1].entropy);
  const before = await page.textContent('.lab-side:nth-child(2) .lab-bars:last-of-type');
  await page.selectOption('#lab-target', '3');
  await page.waitForFunction((b) => document.querySelector('.lab-side:nth-child(2) .lab-bars:last-of-type').textContent !== b, before);
  assert.match(await page.textContent('.lab-side:nth-child(2)'), /right answer were 欢/);
  // Another token row: the lab follows the selection.
  await page.click('#token-chips .chip >> text=我');
  await page.waitForFunction(() => /row 我/.test(document.querySelector('.lab-body .explain').textContent));
  assert.deepEqual(problems, []);
  trace.dispose();
  await context.close();
});

test('labs in Chinese, and a bad lab name in the link', async () => {
  const { page, context } = await open('?lang=zh&lab=textbook');
  assert.match(await page.textContent('#lab-tabs'), /缩放开 \/ 关.*课本例题/);
  assert.match(await page.textContent('.lab-body'), /文章先把每个 e\^x 四舍五入/);
  assert.equal(await page.evaluate(() => document.body.innerText.includes('⟦')), false);
  await context.close();
  const bad = await open('?lab=<b>nope</b>');
  assert.match(await bad.page.textContent('#input-message'), /Ignored link settings that are not valid: lab/);
  assert.match(await bad.page.textContent('.lab-body'), /Pick a lab/);
  await bad.context.close();
});

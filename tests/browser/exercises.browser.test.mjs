// "Your turn": the learner's answer checked by the core, the right one and each
// named mistake (their values from the core, as a course would get them), in
// English and Chinese; the host hears every result.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { loadAttentionLab } from 'attention-lab';
import { useServedChromium, watchProblems } from './chromium.mjs';
import { openPage, shownHead } from './page-helpers.mjs';
import { EXERCISES_EN, EXERCISES_ZH } from '../../web/app/strings/exercises.js';
import { fmt } from '../../web/app/ui/format.js';

const WEB = fileURLToPath(new URL('../../web/', import.meta.url));
const env = useServedChromium(WEB);
const core = await loadAttentionLab();
const SENTENCE = '我喜欢人工智能';
const REQUIRED = ['no_scale', 'sqrt_d_model', 'not_normalised', 'wrong_row_sum', 'wrong_axis'];

// A mistake's sentence up to its first {slot}: enough to know which one the page said.
const opening = (strings, id) => strings[`ex.mistake.${id}`].split('{')[0];

/** A head and cells where every exercise offers its mistakes: the softmax cell is
 *  one where the softmax mistakes the issue names can all be told apart. */
function chooseCells(trace) {
  const n = trace.tokens.length;
  for (let head = 0; head < trace.config.heads; head += 1) {
    for (let row = 1; row < n - 1; row += 1) {
      for (let col = 0; col < n; col += 1) {
        const ids = trace.exercise('softmax', { row, col, head }).mistakes.map((m) => m.mistake);
        if (['not_normalised', 'wrong_row_sum', 'wrong_axis', 'no_scale'].every((id) => ids.includes(id))) {
          return { head, cells: { dot: { row, col }, scaled: { row, col }, exp: { row, col }, softmax: { row, col }, output: { row, col: 5 } } };
        }
      }
    }
  }
  throw new Error('no cell shows every softmax mistake');
}

async function answer(page, value) {
  await page.fill('#exercise-answer', String(value));
  await page.click('.ex-check');
  await page.waitForFunction(() => document.querySelector('.ex-feedback').textContent !== '');
  return page.$eval('.ex-feedback', (p) => ({ text: p.textContent, kind: p.className }));
}

test('each exercise: the right answer, and each usual mistake named (English)', { timeout: 120_000 }, async () => {
  const trace = core.run(SENTENCE);
  const { head, cells } = chooseCells(trace);
  const set = Object.entries(cells).map(([name, c]) => `${name}:${c.row}:${c.col}`).join(',');
  const { page, context, problems } = await openPage(env, `index.html?lang=en&head=${head}&exercises=${set}`);
  const seen = new Set();
  for (const [k, [name, cell]] of Object.entries(cells).entries()) {
    await page.click(`.ex-dots button:nth-child(${k + 1})`);
    await page.waitForFunction((n) => document.querySelector('.exercise-panel h3')?.textContent === n, EXERCISES_EN[`ex.name.${name}`]);
    const e = trace.exercise(name, { ...cell, head });
    for (const { mistake, value } of e.mistakes) {
      const said = await answer(page, value.toPrecision(8));
      assert.match(said.kind, /wrong/, `${name} ${mistake}`);
      assert.ok(said.text.includes(opening(EXERCISES_EN, mistake)), `${name}: ${value} is named ${mistake}: "${said.text}"`);
      assert.ok(!said.text.includes(e.expected.toFixed(4)), 'a wrong answer does not give the right one away');
      seen.add(mistake);
    }
    const right = await answer(page, e.expected.toPrecision(8));
    assert.match(right.kind, /right/, `${name}: the core's own value is right`);
    assert.equal(await page.textContent(`.ex-dots button:nth-child(${k + 1})`), '✓');
  }
  for (const id of REQUIRED) assert.ok(seen.has(id), `the mistake ${id} was named`);
  assert.match(await page.textContent('.ex-score'), /Score: 5 of 5 right/);
  // Not a number (markup included): a message, shown as text.
  const bad = await answer(page, '<img src=x onerror="window.hacked=1">');
  assert.equal(bad.text, EXERCISES_EN['ex.notNumber']);
  assert.equal(await page.evaluate(() => window.hacked), undefined);
  assert.deepEqual(problems, []);
  trace.dispose();
  await context.close();
});

test('Chinese: a cell the lab picks, a named mistake, full-width digits, and the answer shown', { timeout: 60_000 }, async () => {
  const trace = core.run(SENTENCE);
  const { page, context, problems } = await openPage(env, 'index.html?lang=zh&exercises=scaled');
  assert.equal(await page.textContent('#exercise-title'), '轮到你了', 'the panel\'s title is the page\'s own word');
  const where = await shownHead(page);
  const cell = trace.pickCell('scaled', { row: 2, seed: 0, ...where }); // the page picks on the selected token, 喜, in the head it shows
  const e = trace.exercise('scaled', { ...cell, ...where });
  const score = e.a[0];
  const wrong = await answer(page, score.toFixed(4));
  assert.ok(wrong.text.includes(opening(EXERCISES_ZH, 'no_scale')), wrong.text);
  // The answer shown: right afterwards no longer counts.
  await page.click('.ex-reveal');
  assert.ok((await page.textContent('.ex-feedback')).includes(fmt(e.expected, 4)));
  const fullWidth = e.expected.toFixed(4).replace(/[0-9.]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)).replace('-', '－');
  const right = await answer(page, fullWidth);
  assert.match(right.kind, /right/);
  assert.match(await page.textContent('.ex-progress'), /答对 0 题/, 'shown first, then answered: not counted');
  assert.deepEqual(problems, []);
  trace.dispose();
  await context.close();
});

test('a framed lab posts each result to its host', { timeout: 60_000 }, async () => {
  const trace = core.run(SENTENCE);
  const where = trace.articleHead(2); // the head the framed lab opens on for 喜
  const e = trace.exercise('softmax', { row: 2, col: 1, layer: where.layer, head: where.head });
  const context = await env.browser.newContext({ reducedMotion: 'reduce' });
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(`${env.origin}/embed-demo.html`);
  await page.waitForSelector('body[data-lab-ready="true"]', { state: 'attached', timeout: 20_000 });
  await page.evaluate(() => { document.getElementById('lab').src = 'index.html?embed=1&exercises=softmax:2:1'; });
  await page.waitForFunction(() => document.getElementById('lab').contentDocument?.body?.dataset.ready === 'true');
  const frame = await (await page.$('#lab')).contentFrame();
  const wrong = e.mistakes.find((m) => m.mistake === 'not_normalised');
  await frame.fill('#exercise-answer', wrong.value.toPrecision(8));
  await frame.click('.ex-check');
  await page.waitForFunction(() => [...document.querySelectorAll('#log li')].some((li) => li.textContent.includes('"type":"exercise"')));
  const posted = (await page.$$eval('#log li', (items) => items.map((li) => JSON.parse(li.textContent)))).filter((m) => m.type === 'exercise');
  assert.equal(posted.length, 1);
  const { protocol, type, ...result } = posted[0];
  assert.equal(protocol, 'attention-lab');
  assert.deepEqual({ ...result, answer: undefined, expected: undefined, tolerance: undefined, interaction: undefined }, {
    exercise: 'softmax', cell: { row: 2, col: 1 }, answer: undefined, expected: undefined, correct: false, mistake: 'not_normalised',
    tolerance: undefined, layer: where.layer, head: where.head, revealed: false, set: { index: 0, count: 1, answered: 1, right: 0 },
    interaction: undefined });
  assert.equal(result.answer, Number(wrong.value.toPrecision(8)));
  assert.equal(result.expected, e.expected);
  assert.equal(result.tolerance, e.tolerance);
  // The answer as an xAPI interaction: numeric, the range the core accepts, named in each language.
  const { interaction } = result;
  assert.equal(interaction.type, 'http://adlnet.gov/expapi/activities/cmi.interaction');
  assert.equal(interaction.interactionType, 'numeric');
  const [lo, hi] = interaction.correctResponsesPattern[0].split('[:]').map(Number);
  assert.ok(Math.abs(lo - (e.expected - e.tolerance)) < 1e-6 && Math.abs(hi - (e.expected + e.tolerance)) < 1e-6, interaction.correctResponsesPattern[0]);
  assert.deepEqual(Object.keys(interaction.name), ['en-US', 'zh-CN', 'zh-TW']);
  assert.match(interaction.description['en-US'], /Row 2, column 1 .* “我喜欢人工智能”/);
  assert.match(interaction.description['zh-CN'], /第 2 行、第 1 列/);
  assert.match(interaction.description['zh-TW'], /第 2 列、第 1 行/, 'a row is a 列 in Taiwan');
  // The host sets another exercise set; a bad one is refused with a reason.
  const post = (message) => page.evaluate((m) => document.getElementById('lab').contentWindow.postMessage(m, location.origin), message);
  await post({ protocol: 'attention-lab', type: 'set', exercises: 'scaled:2:3,dot' });
  await frame.waitForFunction(() => /Exercise 1 of 2/.test(document.querySelector('.ex-progress')?.textContent));
  await post({ protocol: 'attention-lab', type: 'set', exercises: 7 });
  await page.waitForFunction(() => [...document.querySelectorAll('#log li')].some((li) => li.textContent.includes('exercises must be a string')));
  assert.deepEqual(problems, []);
  trace.dispose();
  await context.close();
});

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
// Every mistake the exercises can name, each only where its exercise's givens allow it.
const REQUIRED = ['already_scaled', 'partial_sum_left_out', 'no_scale', 'sqrt_d_model', 'no_sqrt', 'not_normalised', 'unweighted'];

// A mistake's sentence up to its first {slot}: enough to know which one the page said.
const opening = (strings, id) => strings[`ex.mistake.${id}`].split('{')[0];

/** A head and cells where every exercise offers each mistake its givens allow. */
function chooseCells(trace) {
  const n = trace.tokens.length;
  const offers = (name, cell, head, ids) => {
    const got = trace.exercise(name, { ...cell, head }).mistakes.map((m) => m.mistake);
    return ids.every((id) => got.includes(id));
  };
  for (let head = 0; head < trace.config.heads; head += 1) {
    for (let row = 1; row < n - 1; row += 1) {
      for (let col = 0; col < n; col += 1) {
        const cell = { row, col };
        if (offers('dot', cell, head, ['already_scaled', 'partial_sum_left_out']) && offers('scaled', cell, head, ['no_scale', 'sqrt_d_model', 'no_sqrt'])
          && offers('softmax', cell, head, ['not_normalised']) && offers('output', { row, col: 5 }, head, ['unweighted'])) {
          return { head, cells: { dot: cell, scaled: cell, exp: cell, softmax: cell, output: { row, col: 5 } } };
        }
      }
    }
  }
  throw new Error('no cell shows every mistake');
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
  // At ×V every exercise's arithmetic has been drawn (none waits).
  const { page, context, problems } = await openPage(env, `index.html?lang=en&head=${head}&step=weighted-sum&exercises=${set}`);
  const seen = new Set();
  for (const [k, [name, cell]] of Object.entries(cells).entries()) {
    await page.click(`.ex-dots button:nth-child(${k + 1})`);
    await page.waitForFunction((n) => document.querySelector('.exercise-panel h3')?.textContent === n, EXERCISES_EN[`ex.name.${name}`]);
    const e = trace.exercise(name, { ...cell, head });
    if (name === 'exp') assert.deepEqual(e.mistakes, [], 'given x alone, no mistake can be told apart');
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
  const { page, context, problems } = await openPage(env, 'index.html?lang=zh&step=scaled&exercises=scaled');
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

test('Your turn waits for the step that computes what it asks for, then follows the steps until the learner picks one', { timeout: 60_000 }, async () => {
  const { page, context, problems } = await openPage(env, 'index.html?lang=en');
  await page.locator('#exercise-body').scrollIntoViewIfNeeded();
  // The Tokens step: no q or k yet, so no exercise on them: a line saying where it starts, and a way there.
  await page.waitForSelector('#exercise-body .ex-waiting');
  assert.equal(await page.$('#exercise-answer'), null);
  assert.match(await page.textContent('#exercise-body .ex-waiting'), /Exercise 1 asks for a score q · k, which the “Q·Kᵀ” step computes/);
  await page.click('#exercise-body .ex-go');
  await page.waitForSelector('body[data-step="scores"]', { state: 'attached' });
  await page.waitForSelector('#exercise-answer');
  assert.equal(await page.textContent('.exercise-panel h3'), EXERCISES_EN['ex.name.dot']);
  // Each step opens on its own exercise, until the learner picks one.
  for (const [step, name] of [['scaled', 'scaled'], ['softmax', 'exp'], ['weighted-sum', 'output'], ['scores', 'dot']]) {
    await page.click(`#step-rail [data-step="${step}"]`);
    await page.waitForFunction((n) => document.querySelector('.exercise-panel h3')?.textContent === n, EXERCISES_EN[`ex.name.${name}`]);
  }
  await page.click('.ex-dots button:nth-child(4)'); // softmax, picked: it stays, and waits on Q·Kᵀ
  await page.waitForSelector('#exercise-body .ex-waiting');
  assert.match(await page.textContent('#exercise-body .ex-waiting'), /Exercise 4 .*“softmax” step/);
  await page.click('#step-rail [data-step="output"]');
  await page.waitForFunction((n) => document.querySelector('.exercise-panel h3')?.textContent === n && document.querySelector('#exercise-answer'), EXERCISES_EN['ex.name.softmax']);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a framed lab posts each result to its host', { timeout: 60_000 }, async () => {
  const trace = core.run(SENTENCE);
  const where = trace.articleHead(2); // the head the framed lab opens on for 喜
  // A key of 喜's row whose e^(x − max) is a mistake the core can name (far from the weight and from 0).
  const col = trace.tokens.findIndex((_, j) => trace.exercise('softmax', { row: 2, col: j, layer: where.layer, head: where.head })
    .mistakes.some((m) => m.mistake === 'not_normalised'));
  const e = trace.exercise('softmax', { row: 2, col, layer: where.layer, head: where.head });
  const context = await env.browser.newContext({ reducedMotion: 'reduce' });
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(`${env.origin}/embed-demo.html`);
  await page.waitForSelector('body[data-lab-ready="true"]', { state: 'attached', timeout: 20_000 });
  await page.evaluate((c) => { document.getElementById('lab').src = `index.html?embed=1&step=softmax&exercises=softmax:2:${c}`; }, col);
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
    exercise: 'softmax', cell: { row: 2, col }, answer: undefined, expected: undefined, correct: false, mistake: 'not_normalised',
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
  assert.match(interaction.description['en-US'], new RegExp(`Row 2, column ${col} .* “我喜欢人工智能”`));
  assert.match(interaction.description['zh-CN'], new RegExp(`第 2 行、第 ${col} 列`));
  assert.match(interaction.description['zh-TW'], new RegExp(`第 2 列、第 ${col} 行`), 'a row is a 列 in Taiwan');
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

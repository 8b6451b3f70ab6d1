// The what-if experiment in Chromium: a head's row changed by the learner (hide a key, all the
// weight on one, a slider, renormalised or not), every number the core's (core.whatIf in Node),
// the change in the link, from the softmax and ×V steps' Why? and from its link, in both languages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { loadAttentionLab } from 'attention-lab';
import { fmt } from '../../web/app/ui/format.js';
import { useServedChromium, waitForParam } from './chromium.mjs';
import { openPage, shownHead } from './page-helpers.mjs';

const env = useServedChromium(fileURLToPath(new URL('../../web/', import.meta.url)));
const core = await loadAttentionLab();
await core.loadAfterArticle(); // the Node side's numbers to compare with

const open = (query) => openPage(env, query);

// Layer 2's head whose row for 喜 (token 2) looks most at 欢 (token 3): the trained model's
// next-token head (docs/model.md), found by the core's weights rather than by its number.
const NEXT = (() => {
  const run = core.run('我喜欢人工智能');
  try {
    const at = (head) => run.stage('weights', { layer: 1, head }).data[2 * 9 + 3];
    return Array.from({ length: run.config.heads }, (_, head) => head).reduce((a, b) => (at(b) > at(a) ? b : a));
  } finally {
    run.dispose();
  }
})();

// What the view shows: each key's softmax weight and the learner's, the moved table, each [MASK]'s lists and sentence.
const shown = (page) => page.evaluate(() => ({
  row: [...document.querySelectorAll('.what-if-row tbody tr')].map((tr) => [tr.cells[1].textContent, tr.cells[2].textContent]),
  sum: document.querySelector('.what-if-sum').textContent,
  moved: [...document.querySelectorAll('.what-if-moved tbody tr')].map((tr) => [tr.dataset.stage, tr.cells[2].textContent]),
  guesses: [...document.querySelectorAll('.what-if-guess')].map((s) => [...s.querySelectorAll('figure')].map((f) => [...f.querySelectorAll('li')].map((li) => li.dataset.token))),
  shift: [...document.querySelectorAll('.what-if-shift')].map((p) => p.textContent),
}));
// The same from the core in Node.
const expected = (r) => ({
  row: Array.from(r.weights.before, (w, j) => [fmt(w, 3), fmt(r.weights.after[j], 3)]),
  sum: `Your row sums to ${fmt(r.weights.sum, 3)}.`,
  moved: r.stages.map((s) => [s.id, fmt(s.distance, 3)]),
  guesses: r.masks.map((m) => [m.before.map((g) => g.token), m.after.map((g) => g.token)]),
});

test('what if: from the softmax step’s Why?, 欢 hidden from 喜’s row in layer 2’s next-token head, then 喜 hidden to see the guess; every number the core’s; the change in the link', { timeout: 60_000 }, async () => {
  const { page, context, problems } = await open(`?step=softmax&t=2&layer=1&head=${NEXT}`);
  await page.click('#step-explain .why-link[data-experiment="what-if"]');
  await page.waitForSelector('.what-if-row');
  await waitForParam(page, 'experiment', 'what-if');
  const { layer, head } = await shownHead(page);
  const where = { layer, head, row: 2 };
  const { row, sum } = await shown(page);
  assert.deepEqual({ row, sum }, (({ row: r, sum: s }) => ({ row: r, sum: s }))(expected(core.whatIf('我喜欢人工智能', where))));
  assert.equal(await page.textContent('.experiment-what-if h3'), `“喜”’s row in layer ${layer + 1}, head ${head + 1}`);
  await page.click('.what-if-row tr[data-key="3"] .what-if-hide');
  await waitForParam(page, 'edit', '3:0');
  const hidden = core.whatIf('我喜欢人工智能', { ...where, edits: [{ key: 3, weight: 0 }] });
  const now = await shown(page);
  assert.deepEqual({ ...now, shift: undefined }, { ...expected(hidden), shift: undefined });
  assert.equal(now.row[3][1], '0.000');
  // No [MASK] yet: the view offers to hide 喜, and keeps the change on its row.
  await page.click('.what-if-hide-token');
  await page.waitForSelector('.what-if-guess');
  assert.equal(await page.inputValue('#sentence'), '我[MASK]欢人工智能');
  const guessed = core.whatIf('我[MASK]欢人工智能', { ...where, edits: [{ key: 3, weight: 0 }] });
  const after = await shown(page);
  assert.deepEqual(after.guesses, expected(guessed).guesses);
  assert.equal(guessed.masks[0].shift.direction, 'gone'); // 喜 is no longer among the five
  assert.equal(await page.getAttribute('.what-if-guess', 'data-direction'), 'gone');
  assert.deepEqual(problems, []);
  await context.close();
});

test('what if from its link in Chinese: layer 2’s next-token head without 欢 loses 喜; the switch off, a slider, back to softmax’s row; the random model', { timeout: 60_000 }, async () => {
  const s = encodeURIComponent('我[MASK]欢人工智能');
  const { page, context, problems } = await open(`?experiment=what-if&lang=zh&s=${s}&t=2&step=weighted-sum&layer=1&head=${NEXT}&edit=3:0`);
  await page.waitForSelector('.what-if-guess');
  const where = { layer: 1, head: NEXT, row: 2 };
  const r = core.whatIf('我[MASK]欢人工智能', { ...where, edits: [{ key: 3, weight: 0 }] });
  assert.equal(r.masks[0].shift.direction, 'gone');
  assert.deepEqual((await shown(page)).shift, [`排第一的猜测从“喜”变成“${r.masks[0].after[0].token}”；“喜”（原来 ${fmt(r.masks[0].shift.before, 4)}）已跌出前五。`]);
  assert.equal(await page.textContent('#experiment-tabs [data-experiment="what-if"]'), '如果权重不同');
  // Renormalising off: the others keep softmax's weights, and the row sums to less than 1.
  await page.click('.what-if-renormalise');
  await waitForParam(page, 'renorm', '0');
  const off = core.whatIf('我[MASK]欢人工智能', { ...where, edits: [{ key: 3, weight: 0 }], renormalise: false });
  assert.equal(await page.textContent('.what-if-sum'), `你的这一行之和为 ${fmt(off.weights.sum, 3)}。`);
  assert.deepEqual((await shown(page)).row, expected(off).row);
  // A slider moved by the keyboard: the key's weight as the slider gives it.
  await page.focus('.what-if-row tr[data-key="1"] input');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => /^3:0,1:0\.\d+$/.test(new URL(location.href).searchParams.get('edit')));
  const edit = new URL(page.url()).searchParams.get('edit');
  const weight = Number(edit.split(',')[1].split(':')[1]);
  const slid = core.whatIf('我[MASK]欢人工智能', { ...where, edits: [{ key: 3, weight: 0 }, { key: 1, weight }], renormalise: false });
  assert.deepEqual((await shown(page)).row, expected(slid).row);
  // All the weight on 人, renormalised again, then back to softmax's row: the link forgets the change.
  await page.click('.what-if-row tr[data-key="4"] .what-if-all');
  await page.click('.what-if-renormalise');
  await waitForParam(page, 'edit', '0:0,1:0,2:0,3:0,4:1,5:0,6:0,7:0,8:0');
  await page.click('.what-if-reset');
  await page.waitForFunction(() => !new URL(location.href).searchParams.has('edit') && !new URL(location.href).searchParams.has('renorm'));
  assert.deepEqual((await shown(page)).row, expected(core.whatIf('我[MASK]欢人工智能', where)).row);
  await page.selectOption('#opt-model', 'random');
  await page.waitForSelector('.experiment-what-if .hint >> text=随机模型');
  assert.deepEqual(problems, []);
  await context.close();
});

test('what if: an edit picks the head, so hiding the token keeps the change where the lab would have followed another head', { timeout: 60_000 }, async () => {
  const { page, context, problems } = await open('?experiment=what-if&t=2');
  await page.waitForSelector('.what-if-row');
  const before = await shownHead(page);
  assert.equal(await page.evaluate(() => new URL(location.href).searchParams.has('head')), false); // the core's article head, followed
  await page.click('.what-if-row tr[data-key="3"] .what-if-hide');
  await waitForParam(page, 'edit', '3:0');
  await waitForParam(page, 'head', String(before.head)); // picked: in the link
  await page.click('.what-if-hide-token');
  await page.waitForSelector('.what-if-guess');
  assert.deepEqual(await shownHead(page), before);
  assert.equal(await page.evaluate(() => new URL(location.href).searchParams.get('edit')), '3:0');
  assert.equal(await page.getAttribute('.what-if-row tr[data-key="3"] input[type=range]', 'value'), '0');
  assert.deepEqual(problems, []);
  await context.close();
});

test('what if: a damaged link is ignored with a notice; another token drops the change', async () => {
  const { page, context, problems } = await open('?experiment=what-if&t=2&edit=3:7');
  await page.waitForSelector('.what-if-row');
  assert.match(await page.textContent('#input-message'), /Ignored link settings that are not valid: edit/);
  // The address bar is written 250 ms after the last change (url-state.js): wait for it, not a read at once.
  await page.waitForFunction(() => !new URL(location.href).searchParams.has('edit'));
  await page.click('.what-if-row tr[data-key="1"] .what-if-hide');
  await waitForParam(page, 'edit', '1:0');
  await page.click('#token-chips .chip >> nth=4');
  await page.waitForFunction(() => !new URL(location.href).searchParams.has('edit'));
  assert.equal(await page.textContent('.what-if-row tr[data-key="1"] td.what-if-weight'), await page.textContent('.what-if-row tr[data-key="1"] td.num'));
  assert.deepEqual(problems, []);
  await context.close();
});

test('queries and keys as points: from Q·Kᵀ’s Why?, x × |q| is each score in the table and the hover; the d_k slider draws the core’s random vectors', { timeout: 60_000 }, async () => {
  const { page, context, problems } = await open('?step=scores&t=2&layer=1&head=3');
  await page.click('#step-explain .why-link[data-experiment="geometry"]');
  await page.waitForSelector('.geometry-keys');
  await waitForParam(page, 'experiment', 'geometry');
  const trace = core.run('我喜欢人工智能');
  const p = trace.keyPlane(2, { layer: 1, head: 3 });
  const scaled = trace.softmaxRow(2, { layer: 1, head: 3 }).scaled;
  trace.dispose();
  const rows = await page.$$eval('.geometry-keys tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.deepEqual(rows, Array.from(p.keyX, (x, j) => [['[CLS]', '我', '喜', '欢', '人', '工', '智', '能', '[SEP]'][j], fmt(x, 3), fmt(p.keyY[j], 3), fmt(p.scores[j], 3), fmt(scaled[j], 3)]));
  assert.equal(await page.textContent('.experiment-geometry g.key[data-key="3"] title'), `欢: x = ${fmt(p.keyX[3], 3)}; x × |q| = ${fmt(p.keyX[3], 3)} × ${fmt(p.queryNorm, 3)} ≈ ${fmt(p.scores[3], 3)}`);
  assert.match(await page.textContent('.experiment-geometry .geometry-numbers'), new RegExp(`The plane keeps ${fmt(p.kept)} of the keys’ spread`));
  // d_k from 64 to 512: the numbers are the core's for that d_k.
  for (let k = 0; k < 3; k += 1) await page.press('.geometry-random input[type=range]', 'ArrowRight');
  const r = core.randomKeys(512, { count: 16, seed: 1 });
  await page.waitForSelector(`.geometry-random .geometry-numbers >> text=√d_k = ${fmt(r.rootDk, 2)}`);
  assert.equal(await page.textContent('.geometry-random .geometry-numbers'),
    `This draw: |q| = ${fmt(r.queryNorm, 2)}, √d_k = ${fmt(r.rootDk, 2)}; the scores’ standard deviation is ${fmt(r.scoreSd, 2)}, and ${fmt(r.scaledSd, 2)} after ÷√d_k.`);
  assert.deepEqual(problems, []);
  await context.close();
});

// Q and K, and words, in Chromium: how symmetric each head's scores are (from
// Q·Kᵀ's Why?) and the learner's words (a drag and a shift-click) in the
// softmax step, the heads and the rollout, every number the core's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { loadAttentionLab } from 'attention-lab';
import { fmt } from '../../web/app/ui/format.js';
import { useServedChromium, waitForParam, watchProblems } from './chromium.mjs';
import { openFromWhy as openWhy, openPage, shownHead } from './page-helpers.mjs';

const env = useServedChromium(fileURLToPath(new URL('../../web/', import.meta.url)));
const core = await loadAttentionLab();
await core.loadAfterArticle(); // the Node side's numbers to compare with
const open = (query) => openPage(env, query);
const openFromWhy = (step, id) => openWhy(env, step, id);

test('one matrix or two: from Q·Kᵀ\'s Why?, how symmetric each head of the lab\'s model is; the Q/K experiment trains the two side by side', { timeout: 120_000 }, async () => {
  const { page, context, problems } = await openFromWhy('?step=scores', 'shared-qk');
  const trace = core.run('我喜欢人工智能');
  const rows = await page.$$eval('.qk-heads tbody tr', (trs) => trs.map((tr) => ({ layer: Number(tr.dataset.layer), head: Number(tr.dataset.head),
    symmetric: Number(tr.dataset.symmetric), self: Number(tr.dataset.self), text: tr.cells[3].textContent, selfText: tr.cells[4].textContent })));
  assert.equal(rows.length, trace.config.layers * trace.config.heads);
  for (const row of rows) {
    const q = trace.qkSymmetry(row);
    assert.deepEqual([row.symmetric, row.self, row.text], [q.symmetricShare, q.selfShare, fmt(q.symmetricShare, 2)]);
    // The weight on itself is the number “What each head does” shows for the head: over the real tokens as queries.
    assert.equal(row.selfText, fmt(trace.headReport(row).shares.self, 2));
  }
  assert.equal(await page.textContent('.qk-heads th:nth-child(5)'), 'weight on itself (mean over the real tokens)');
  // A one-way head whose scores are mostly symmetric gets a note on why it still looks one way. On the article's
  // sentence none is (layer 2's next-token head: 0.62 symmetric), and no note is shown.
  const everyHead = (run) => Array.from({ length: run.config.layers * run.config.heads },
    (_, k) => ({ layer: Math.floor(k / run.config.heads), head: k % run.config.heads }));
  const oneWay = (run) => everyHead(run).filter((where) => run.qkSymmetry(where).oneWay);
  assert.deepEqual(oneWay(trace), []);
  assert.equal(await page.$$eval('.qk-one-way', (ps) => ps.length), 0);
  // On an English sentence layer 1's head 3 looks at the next token with mostly symmetric scores: its note.
  const english = 'i like to read books';
  await page.fill('#sentence', english);
  await page.waitForSelector('.qk-one-way');
  const other = core.run(english);
  const named = oneWay(other);
  assert.ok(named.length >= 1);
  const notes = await page.$$eval('.qk-one-way', (ps) => ps.map((p) => [p.dataset.layer, p.dataset.head, p.textContent]));
  assert.deepEqual(notes, named.map(({ layer, head }) => {
    const q = other.qkSymmetry({ layer, head });
    assert.ok(q.symmetricShare > 0.75);
    return [String(layer), String(head), `Layer ${layer + 1}, head ${head + 1} looks at the ${q.oneWay} token (${fmt(q.oneWayShare, 2)} of its weight), although its scores are mostly symmetric (${fmt(q.symmetricShare, 2)}). `
      + `The part that is not symmetric holds ${fmt(q.antisymmetricShare, 2)} of the scores’ sum of squares; a difference of Δ between two scores in the same row becomes, `
      + 'after ÷√d_k, a factor e^(Δ/√d_k) between their weights, and softmax normalises each row on its own: together they can pick one direction.'];
  }));
  other.dispose();
  // A short Q/K experiment: two runs, one with a single matrix, and a verdict from their numbers.
  await page.fill('.experiment-shared-qk #train-steps', '40');
  await page.dispatchEvent('.experiment-shared-qk #train-steps', 'change');
  await page.click('.experiment-shared-qk #train-compare-qk');
  await page.waitForSelector('.experiment-shared-qk .train-verdict[data-experiment="sharedQk"]:not([data-verdict="pending"])', { timeout: 90_000 });
  assert.deepEqual(await page.$$eval('.experiment-shared-qk .train-run-status', (ds) => ds.map((d) => d.dataset.run)), ['two', 'shared']);
  assert.match(await page.textContent('.experiment-shared-qk .train-verdict'), /one matrix|two/);
  const shared = await page.$eval('.train-heads[data-run="shared"] .train-qk', (p) => p.dataset.symmetric.split(' ').map(Number));
  assert.ok(shared.every((x) => Math.abs(x - 1) < 1e-6), 'one matrix: every head symmetric');
  assert.deepEqual(problems, []);
  trace.dispose();
  await context.close();
});

test('words: a drag and a shift-click make words; the softmax step, the heads and the rollout show attention between them; the link keeps them', { timeout: 60_000 }, async () => {
  const { page, context, problems } = await open('?step=softmax');
  const drag = async (from, to) => {
    const box = async (k) => page.locator(`#token-chips .chip >> nth=${k}`).boundingBox();
    const [a, b] = [await box(from), await box(to)];
    await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
    await page.mouse.down();
    await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 6 });
    await page.mouse.up();
  };
  await drag(4, 7); // 人工智能
  await page.click('#token-chips .chip >> nth=3', { modifiers: ['Shift'] }); // from the selected 喜 to 欢
  await page.waitForSelector('figure.stage-word-weights');
  assert.deepEqual(await page.$$eval('.word-bar .word-text', (s) => s.map((x) => x.textContent)), ['喜欢', '人工智能']);
  await waitForParam(page, 'words', '2-3,4-7');
  const trace = core.run('我喜欢人工智能');
  const head = await shownHead(page);
  const { weights } = trace.wordAttention([{ from: 2, to: 3 }, { from: 4, to: 7 }], head);
  const shown = await page.$$eval('figure.stage-word-weights td[data-j]', (tds) => tds.map((td) => Number(td.dataset.value)));
  assert.deepEqual(shown, Array.from(weights.data), 'the core\'s word matrix, cell for cell');
  assert.deepEqual(await page.$$eval('figure.stage-word-weights th.row-label', (ths) => ths.map((th) => th.textContent)), ['[CLS]', '我', '喜欢', '人工智能', '[SEP]']);
  assert.match(await page.textContent('#step-explain'), /to a word, the sum of its tokens’ weights; from a word, the mean/);
  // Every head's small multiple is between the words too.
  assert.deepEqual(await page.$$eval('.head-grid canvas', (cs) => cs.map((c) => `${c.width}×${c.height}`)), Array(4).fill('5×5'));
  // The link reopens the words; the rollout's maps are between them.
  const link = new URL(page.url());
  link.searchParams.set('experiment', 'rollout');
  await page.goto(link.href);
  await page.waitForSelector('.rollout-row');
  assert.deepEqual(await page.$$eval('.experiment-rollout figure', (fs) => fs.map((f) => f.querySelectorAll('td[data-j]').length)), [25, 25]);
  const r = trace.rollout({ words: [{ from: 2, to: 3 }, { from: 4, to: 7 }] });
  assert.deepEqual(await page.$$eval('.experiment-rollout figure.stage-rollout td[data-j]', (tds) => tds.map((td) => Number(td.dataset.value))), Array.from(r.rollout.data));
  // Tokens again: the switch (kept in the link), then a word let go.
  await page.uncheck('#by-words');
  await page.waitForSelector('figure.stage-weights', { state: 'attached' });
  await waitForParam(page, 'byWords', '0');
  await page.check('#by-words');
  await page.click('.word-bar .word-remove >> nth=0');
  await waitForParam(page, 'words', '4-7');
  // Another sentence: its own tokens, no words.
  await page.fill('#sentence', '我喜欢猫');
  await page.waitForFunction(() => !document.querySelector('.word-bar .word'));
  assert.deepEqual(problems, []);
  // A link whose words are not words of its sentence: named, and left aside.
  await page.goto(`${env.origin}/?step=softmax&words=2-2`);
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
  assert.match(await page.textContent('#input-message'), /The link’s words were left aside: the word 2–2 is one token/);
  trace.dispose();
  await context.close();
});

test('a link with words whose module comes late: the core\'s loading line stays hidden once the core is there', async () => {
  const context = await env.browser.newContext({ reducedMotion: 'reduce' });
  await context.route(/attention-lab-after\.wasm$/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 800)); // past start-core.js's 300 ms
    await route.continue();
  });
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(`${env.origin}/?step=softmax&words=2-3`);
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
  await page.waitForSelector('.word-bar .word');
  assert.equal(await page.isHidden('#loading'), true);
  assert.deepEqual(problems, []);
  await context.close();
});

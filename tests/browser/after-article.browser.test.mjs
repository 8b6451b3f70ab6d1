// After the article, in Chromium: the experiments a learner meets once the
// article is done (tiles, the rollout, each layer's guess, the tour's closing
// card), each opened from its link and from its step's Why? button, every
// number the core's, in English and Chinese. Q and K, and words: qk-words.browser.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { loadAttentionLab } from 'attention-lab';
import { fmt, share, sig } from '../../web/app/ui/format.js';
import { blockSizes } from '../../web/app/experiments/tiles-view.js';
import { CARDS } from '../../web/app/tour/article-tour.js';
import { useServedChromium, waitForParam } from './chromium.mjs';
import { axeViolations, EXPERIMENTS, openFromWhy as openWhy, openPage, shownHead } from './page-helpers.mjs';

const env = useServedChromium(fileURLToPath(new URL('../../web/', import.meta.url)));
const core = await loadAttentionLab();
await core.loadAfterArticle(); // the Node side's numbers to compare with
const open = (query) => openPage(env, query);
const openFromWhy = (step, id) => openWhy(env, step, id);

test('tile by tile: from ×V\'s Why?, block by block to the core\'s output row; every block size over the matrix', { timeout: 60_000 }, async () => {
  const { page, context, problems } = await openFromWhy('?step=weighted-sum', 'tiles');
  const explain = await page.textContent('.experiment-tiles .explain');
  assert.match(explain, /^FlashAttention \(Dao et al\., 2022\) and many GPU kernels after it compute attention block by block/);
  assert.match(explain, /without ever storing the n × n matrix of weights in the GPU’s main memory/);
  assert.match(explain, /the “online softmax” \(Milakov & Gimelshein, 2018\): a softmax computed while the scores arrive block by block/);
  assert.doesNotMatch(explain, /never hold a whole row/);
  const trace = core.run('我喜欢人工智能');
  const head = await shownHead(page);
  const row = trace.tiledRow(2, { block: 2, ...head });
  assert.equal(await page.getAttribute('.tiles-at', 'data-n'), String(row.blocks.length));
  assert.equal(await page.$$eval('.tiles-row td[data-state="current"]', (tds) => tds.length), 2, 'the first block: two keys');
  for (let k = 2; k <= row.blocks.length; k += 1) {
    await page.click('.tiles-next');
    await page.waitForSelector(`.tiles-at[data-k="${k}"]`);
  }
  assert.equal(await page.isDisabled('.tiles-next'), true);
  const history = await page.$$eval('.tiles-history tbody tr', (trs) => trs.map((tr) => [tr.cells[3].textContent, tr.cells[4].textContent, tr.cells[5].textContent]));
  assert.deepEqual(history, row.blocks.map((b) => [fmt(b.maxAfter, 4), fmt(b.rescale, 4), fmt(b.sumAfter, 4)]));
  const difference = await page.$eval('.tiles-difference', (p) => ({ max: Number(p.dataset.max), relative: Number(p.dataset.relative) }));
  assert.deepEqual(difference, { max: row.maxDifference, relative: row.relativeDifference });
  assert.ok(difference.relative <= 1e-6, 'the tiles give the full computation\'s row');
  assert.deepEqual(await page.$$eval('.tiles-compare tr:first-child td', (tds) => tds.map((td) => td.textContent)),
    Array.from(row.output.slice(0, 6), (x) => fmt(x, 4)));
  assert.match(await page.textContent('.tiles-memory'), /n × n = 81 .* n × B = 18/);
  const matrix = await page.$$eval('.tiles-matrix tbody tr', (trs) => trs.map((tr) => [Number(tr.dataset.block), Number(tr.dataset.relative)]));
  assert.deepEqual(matrix.map(([b]) => b), blockSizes(9));
  for (const [block, relative] of matrix) {
    assert.equal(relative, trace.tiledAttention({ block, ...head }).relativeDifference);
    assert.ok(relative <= 1e-6, `B = ${block}`);
  }
  // Another block size starts again; Play goes through the blocks by itself.
  await page.selectOption('#tiles-block', '4');
  await page.waitForSelector('.tiles-at[data-k="1"][data-n="3"]');
  await page.click('.tiles-play');
  assert.equal(await page.getAttribute('.tiles-play', 'aria-pressed'), 'true');
  await page.waitForSelector('.tiles-at[data-k="3"]', { timeout: 10_000 });
  await page.waitForSelector('.tiles-play[aria-pressed="false"]');
  // Another token: its own row.
  await page.click('#token-chips .chip >> nth=3');
  await page.waitForFunction(() => /欢/.test(document.querySelector('.experiment-tiles h3').textContent));
  assert.deepEqual(problems, []);
  trace.dispose();
  await context.close();
});

test('tile by tile: the block buttons and the block size, pressed between a new run and its drawing, draw nothing from the ended run', async () => {
  // With motion, an example's new run is drawn after the next paint (draw-step.js): till then the
  // experiment's controls stand over the ended run, and a learner can press them.
  const { page, context, problems } = await openPage(env, '?experiment=tiles', { reducedMotion: 'no-preference' });
  await page.waitForSelector('.tiles-row');
  const keysOf = () => page.$$eval('.tiles-row thead th[data-block]', (ths) => ths.map((th) => th.textContent).join('|'));
  const before = await keysOf();
  await page.evaluate(() => {
    const presets = document.getElementById('presets');
    presets.value = [...presets.options].map((o) => o.value).find((v) => v && v !== document.getElementById('sentence').value);
    presets.dispatchEvent(new Event('change'));
    document.querySelector('.tiles-next').click();
    document.querySelector('.tiles-play').click();
    const size = document.getElementById('tiles-block');
    size.value = size.options[0].value;
    size.dispatchEvent(new Event('change'));
  });
  // The new run drawn: the row's keys are the new sentence's tokens.
  await page.waitForFunction((old) => {
    const texts = (selector) => [...document.querySelectorAll(selector)].map((e) => e.textContent).join('|');
    return texts('.tiles-row thead th[data-block]') === texts('#token-chips .chip .text') && texts('#token-chips .chip .text') !== old;
  }, before);
  await page.click('.tiles-next');
  await page.waitForFunction(() => document.querySelector('.tiles-at')?.dataset.k === '2');
  assert.deepEqual(problems, []);
  await context.close();
});

test('tile by tile in Chinese, from its link', async () => {
  const { page, context, problems } = await open('?experiment=tiles&lang=zh');
  await page.waitForSelector('.tiles-row');
  assert.match(await page.textContent('.experiment-tiles h3'), /“喜”这一行，每次 2 个键/);
  assert.match(await page.textContent('.experiment-tiles'), /在线 softmax/);
  assert.equal(await page.textContent('#experiment-tabs [data-experiment="tiles"]'), '分块计算');
  assert.deepEqual(problems, []);
  await context.close();
});

test('through both layers: from Heads → W_O\'s Why?, the rollout and the last layer\'s average, the row in both, what they say', { timeout: 60_000 }, async () => {
  const { page, context, problems } = await openFromWhy('?step=concat&t=2', 'rollout');
  const trace = core.run('我喜欢人工智能');
  const row = trace.rolloutRow(2);
  const column = (col) => page.$$eval(`.rollout-row td[data-col="${col}"]`, (tds) => tds.map((td) => td.textContent.trim()));
  assert.deepEqual(await column('rollout'), Array.from(row.rollout, (x) => share(x)));
  assert.deepEqual(await column('last'), Array.from(row.last, (x) => share(x)));
  assert.equal(await page.$eval('.rollout-row td.largest[data-col="rollout"]', (td) => td.parentElement.dataset.j), String(row.rolloutTop));
  // Each row's two shares sit in their own columns (a marked cell once took the header's flex layout and stacked).
  assert.deepEqual(await page.$$eval('.rollout-row tbody tr', (trs) => [...new Set(trs.map((tr) => [...tr.cells].map((c) => getComputedStyle(c).display).join()))]), ['table-cell,table-cell,table-cell']);
  const explained = await page.textContent('.experiment-rollout .explain');
  assert.match(explained, /^Attention rollout \(Abnar & Zuidema, 2020\) estimates how much of each input token ends up in each output/);
  assert.match(explained, /It is a heuristic built from the attention weights alone/);
  assert.match(explained, /The ½ is the authors’ assumption, not a measurement, and rollout leaves out the values V, W_O, the feed-forward blocks and LayerNorm/);
  assert.doesNotMatch(explained, /carries every token past each layer unchanged/, 'no token passes a post-LayerNorm layer unchanged');
  // 喜: in the last layer 我 gets the most (0.35), 喜 itself 0.05; through both layers 喜 keeps the most (0.29: each
  // layer's residual carries it), and of the rest 我 again (0.20): the two agree, and the view says nothing more.
  assert.deepEqual([row.lastSelfFirst, trace.tokens[row.lastTop], row.rolloutSelfFirst, trace.tokens[row.rolloutTop], row.topsDiffer], [false, '我', true, '我', false]);
  const sayings = () => page.$$eval('.rollout-saying', (ps) => ps.map((p) => p.textContent));
  assert.deepEqual(await sayings(), [
    `In the last layer (its heads averaged), “喜”’s largest share goes to “我” (${fmt(row.last[1])}); its own is ${fmt(row.lastSelf)}.`,
    `By rollout’s estimate, the largest part of output “喜” is “喜” itself (${fmt(row.rolloutSelf)}), in part because rollout assumes that the residual carries half of each token past every layer; among the others, “我” gives the most (${fmt(row.rollout[1])}).`,
  ]);
  assert.deepEqual([fmt(row.last[1]), fmt(row.lastSelf), fmt(row.rollout[1]), fmt(row.rolloutSelf)], ['0.35', '0.05', '0.20', '0.29']);
  // 人: the last layer favours 欢, the rollout (after 人 itself) 工; the view says they differ.
  const ren = trace.rolloutRow(4);
  await page.click('#token-chips .chip >> nth=4');
  await page.waitForFunction(() => document.querySelector('.rollout-saying')?.textContent.includes('人”’s'));
  assert.equal((await sayings())[2], 'Among the others the two disagree: in the last layer alone “人” gives the most to “欢”, while rollout credits “工” with the most '
    + 'through every layer: by its account, the layers before had already mixed “工” into the tokens the last layer takes in.');
  assert.deepEqual([trace.tokens[ren.lastTop], trace.tokens[ren.rolloutTop]], ['欢', '工']);
  const maps = await page.$$eval('.experiment-rollout figure', (fs) => fs.map((f) => f.querySelectorAll('td[data-j]').length));
  assert.deepEqual(maps, [81, 81], 'R and the last layer\'s average, 9 × 9 each');
  // A knocked-out head is left out of its layer's average, and the view says so.
  await page.click('.heads input[data-knock-out="0"]');
  await page.waitForSelector('.rollout-saying >> text=/left out of their layer/');
  assert.deepEqual(problems, []);
  trace.dispose();
  await context.close();
});

test('each layer’s guess: from Heads → W_O’s Why?, 欢 hidden, the prediction layer read after the embeddings and each layer, every list the core’s', { timeout: 60_000 }, async () => {
  const { page, context, problems } = await openFromWhy('?step=concat&t=3', 'lens');
  const lists = [0, 1, 2].map((depth) => core.predictMasked('我喜[MASK]人工智能', { depth })[0]);
  const shown = () => page.$$eval('.lens-depth', (figs) => figs.map((f) => [f.querySelector('figcaption').textContent,
    [...f.querySelectorAll('li')].map((li) => [li.dataset.token, li.querySelector('.guess-p').textContent, li.classList.contains('answer')])]));
  assert.deepEqual(await shown(), lists.map((list, depth) => [['After the embeddings', 'After layer 1', 'After layer 2: the model’s guess'][depth],
    list.map((g) => [g.token, fmt(g.probability, 3), g.token === '欢'])]));
  assert.equal(lists[2][0].token, '欢', 'the model’s guess is the hidden character, marked');
  // Below a list without it, the hidden character's number at that depth: the core's rank.
  const ranks = [0, 1, 2].map((depth) => core.rankAnswers('我喜[MASK]人工智能', ['欢'], { depth })[0]);
  assert.deepEqual(await page.$$eval('.lens-depth-column', (cols) => cols.map((c) => c.querySelector('.lens-rank')?.textContent ?? null)),
    ranks.map((r) => (r.shown ? null : `“欢” is guess number ${r.rank} of ${r.candidates} here (probability ${sig(r.probability, 2)})`)));
  assert.deepEqual(ranks.map((r) => r.shown), [false, false, true]);
  assert.equal(await page.textContent('.experiment-lens h3'), '“欢” hidden: the prediction layer’s guesses at each depth');
  assert.equal(await page.textContent('.lens-sentence'), 'The sentence the model reads: 我喜[MASK]人工智能');
  assert.match(await page.textContent('.experiment-lens .explain'), /“logit lens” \(nostalgebraist, 2020\)\. The prediction layer was trained on the last layer’s rows only/);
  // The lab's sentence is not changed: the lens hides a copy.
  assert.equal(await page.inputValue('#sentence'), '我喜欢人工智能');
  // [CLS] cannot be hidden; a [MASK] the learner typed is read as it is, with no answer to mark.
  await page.click('#token-chips .chip >> nth=0');
  await page.waitForSelector('.lens-cannot');
  assert.equal(await page.textContent('.lens-cannot'), '“[CLS]” cannot be hidden: only a character or the start of a word can. Click another token.');
  await page.fill('#sentence', '我[MASK]欢人工智能');
  await page.waitForSelector('.experiment-lens h3 >> text=[MASK] 1: the prediction layer’s guesses at each depth');
  const typed = [0, 1, 2].map((depth) => core.predictMasked('我[MASK]欢人工智能', { depth })[0].map((g) => g.token));
  assert.deepEqual((await shown()).map(([, list]) => list.map(([token]) => token)), typed);
  assert.equal(await page.$$eval('.experiment-lens li.answer', (lis) => lis.length), 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test('each layer’s guess in Chinese, from its link, and in traditional Chinese; the random model has no prediction layer', async () => {
  const { page, context, problems } = await open('?experiment=lens&lang=zh&t=6');
  await page.waitForSelector('.lens-depths');
  assert.equal(await page.textContent('.experiment-lens h3'), '遮住“智”：预测层在每个深度的猜测');
  assert.deepEqual(await page.$$eval('.lens-depth figcaption', (cs) => cs.map((c) => c.textContent)), ['嵌入之后', '第 1 层之后', '第 2 层之后：模型的猜测']);
  assert.equal(await page.textContent('#experiment-tabs [data-experiment="lens"]'), '每一层的猜测');
  const ranks = [0, 1, 2].map((depth) => core.rankAnswers('我喜欢人工[MASK]能', ['智'], { depth })[0]);
  assert.deepEqual(await page.$$eval('.lens-rank', (ps) => ps.map((p) => p.textContent)),
    ranks.filter((r) => !r.shown).map((r) => `“智”在这里排第 ${r.rank} 位（共 ${r.candidates} 个，概率 ${sig(r.probability, 2)}）`));
  // In traditional Chinese the guesses are traditional, and 欢 hidden is marked as 歡.
  await page.click('#token-chips .chip >> nth=3');
  await page.selectOption('#lang', 'zh-Hant');
  await page.waitForSelector('.experiment-lens h3 >> text=預測層'); // drawn again in traditional Chinese
  await page.waitForSelector('.experiment-lens h3 >> text=遮住「欢」');
  assert.deepEqual(await page.$$eval('.experiment-lens li.answer', (lis) => lis.map((li) => li.dataset.token)), ['歡']);
  await page.selectOption('#opt-model', 'random');
  await page.waitForSelector('.experiment-lens .hint >> text=隨機模型');
  assert.equal(await page.$$eval('.lens-depths', (ds) => ds.length), 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the tour\'s optional closing card opens each of them, and Finish there closes the tour', { timeout: 60_000 }, async () => {
  const { page, context, problems } = await open(`?tour=article&card=${CARDS.length - 1}`);
  await page.waitForSelector('#tour-title[data-card="end"]');
  await page.click('.tour-after');
  await page.waitForSelector('#tour-title[data-card="after"]');
  for (const [id, step] of [['tiles', 'weighted-sum'], ['shared-qk', 'scores'], ['rollout', 'concat'], ['lens', 'concat'], ['what-if', 'softmax'], ['geometry', 'scores']]) {
    await page.click(`.tour-try[data-try="${id}"]`);
    await page.waitForSelector(EXPERIMENTS[id]);
    await waitForParam(page, 'experiment', id);
    assert.equal(await page.getAttribute('body', 'data-step'), step);
  }
  await page.click('.tour-try[data-try="code"]');
  await page.waitForSelector('#step-code pre.cpp');
  assert.equal(await page.getAttribute('body', 'data-step'), 'softmax');
  await page.click('.tour-try[data-try="words"]');
  await page.waitForSelector('figure.stage-word-weights');
  await waitForParam(page, 'words', '2-3,4-7');
  await page.click('.tour-next'); // Finish
  await page.waitForSelector('#tour', { state: 'hidden' });
  assert.deepEqual(problems, []);
  await context.close();
});

test('axe-core finds no serious or critical violation in these experiments, light or dark', { timeout: 60_000 }, async () => {
  for (const colorScheme of ['light', 'dark']) {
    // bypassCSP only so the test can inject axe-core as an inline script.
    const context = await env.browser.newContext({ colorScheme, reducedMotion: 'reduce', bypassCSP: true });
    const page = await context.newPage();
    for (const [id, drawn] of Object.entries(EXPERIMENTS)) {
      await page.goto(`${env.origin}/?experiment=${id}`);
      await page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
      await page.waitForSelector(drawn);
      assert.deepEqual(await axeViolations(page, `.experiment-${id}`), [], `${colorScheme} ${id}`);
    }
    await context.close();
  }
});

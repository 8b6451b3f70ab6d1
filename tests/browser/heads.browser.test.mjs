// The trained model on the page: it opens on it, every head at the softmax
// step matches the core's per-head weights, a head picked there threads through
// every step and the side panel, knock-out changes the guesses as the API says,
// hidden characters are guessed, and model=, head=, layer= work in links.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { loadAttentionLab } from 'attention-lab';
import { useServedChromium } from './chromium.mjs';
import { cells, chips, openPage, rendered } from './page-helpers.mjs';
import { sig } from '../../web/app/ui/format.js';

const WEB = fileURLToPath(new URL('../../web/', import.meta.url));
const SENTENCE = '我喜欢人工智能';
const core = await loadAttentionLab();
const env = useServedChromium(WEB);
const at = (m, i, j) => m.data[i * m.cols + j];
const guesses = (page, kind, mask = 0) => page.$$eval(`section.guess[data-mask="${mask}"] figure.guesses[data-kind="${kind}"] li`,
  // A small probability is printed as 3.91e−4 (with a minus sign): read it back, to three places as asShown.
  (lis) => lis.map((li) => ({ token: li.dataset.token, p: Number(Number(li.querySelector('.guess-p').textContent.replace('\u2212', '-')).toFixed(3)) })));
// The trained model's head whose label is 'next' (the one whose 喜 row looks at 欢): { layer, head }.
const nextHead = (trace) => {
  for (let layer = 0; layer < trace.config.layers; layer += 1) {
    for (let head = 0; head < trace.config.heads; head += 1) {
      if (trace.headReport({ layer, head }).label === 'next') return { layer, head };
    }
  }
  throw new Error('no head of the shipped model is labelled next on the article\'s sentence');
};
const asShown = (list) => list.map((g) => ({ token: g.token, p: Number(g.probability.toFixed(3)) }));

test('the page opens on the trained model: its token ids, its sizes, its heads', async () => {
  const { page, context, problems } = await openPage(env, '?step=tokens');
  const trace = core.run(SENTENCE);
  assert.equal(await page.$eval('#opt-model', (s) => s.value), 'trained');
  assert.equal(await page.$eval('#opt-dK', (i) => [i.value, i.disabled].join()), `${trace.config.dK},true`);
  assert.deepEqual(await chips(page), [...trace.tokens]);
  const ids = await page.$$eval('#token-chips .chip .id', (els) => els.map((e) => Number(e.textContent)));
  assert.deepEqual(ids, Array.from(trace.ids));
  assert.equal(await page.$$eval('.head-card', (els) => els.length), trace.config.heads);
  // An emoji is not in the trained vocabulary: its chip says [UNK] and why.
  await page.fill('#sentence', '我喜欢🙂');
  await page.waitForFunction(() => document.querySelector('#token-chips .chip.unk'));
  assert.match(await page.$eval('#token-chips .chip.unk', (b) => b.title), /\[UNK\]: not in the model’s vocabulary/);
  trace.dispose();
  assert.deepEqual(problems, []);
  await context.close();
});

test('every head at the softmax step shows the core’s weights for that head, with its label', async () => {
  const trace = core.run(SENTENCE);
  const { layer } = nextHead(trace);
  const { page, context, problems } = await openPage(env, `?step=softmax&layer=${layer}`);
  const thumbs = await page.$$('.head-thumb');
  assert.equal(thumbs.length, trace.config.heads);
  for (const [head, thumb] of thumbs.entries()) {
    const w = trace.stage('weights', { layer, head });
    const report = trace.headReport({ layer, head });
    assert.equal(await thumb.getAttribute('data-label'), report.label ?? 'mixed');
    // Hover the 喜 row's strongest cell and read the tooltip.
    const row = trace.softmaxRow(2, { layer, head });
    const box = await (await thumb.$('canvas')).boundingBox();
    const n = trace.tokens.length;
    await page.mouse.move(box.x + ((row.argmax + 0.5) * box.width) / n, box.y + (2.5 * box.height) / n);
    const tip = await page.textContent('#tooltip');
    assert.equal(tip, `Head ${head + 1}: p(喜 → ${trace.tokens[row.argmax]}) = ${at(w, 2, row.argmax).toFixed(3)}`);
  }
  // The labelled heads of 我喜欢人工智能 in that layer: one looks back, one ahead (喜 → 欢).
  const labels = await page.$$eval('.head-thumb', (els) => els.map((e) => e.dataset.label));
  assert.ok(labels.includes('previous') && labels.includes('next'), labels.join());
  // An edit repaints the same canvases (no new drawing surface a frame), with the new weights.
  await page.$$eval('.head-thumb canvas', (els) => els.forEach((c) => { c.kept = true; }));
  await page.fill('#sentence', '我喜欢人工智慧');
  await page.waitForFunction(() => document.querySelectorAll('#token-chips .chip .text')[7]?.textContent === '慧');
  await rendered(page, 'softmax');
  assert.deepEqual(await page.$$eval('.head-thumb canvas', (els) => els.map((c) => c.kept === true && c.isConnected)), [true, true, true, true]);
  const edited = core.run('我喜欢人工智慧');
  const size = await page.$eval('.head-thumb[data-head="0"] canvas', (c) => c.getBoundingClientRect().width);
  await page.hover('.head-thumb[data-head="0"] canvas', { position: { x: (7.5 * size) / 9, y: (7.5 * size) / 9 } });
  assert.equal(await page.textContent('#tooltip'), `Head 1: p(慧 → 慧) = ${at(edited.stage('weights', { layer, head: 0 }), 7, 7).toFixed(3)}`);
  edited.dispose();
  trace.dispose();
  assert.deepEqual(problems, []);
  await context.close();
});

test('a head clicked at the softmax step threads through every step, the panel and the link', async () => {
  const trace = core.run(SENTENCE);
  const { layer, head } = nextHead(trace);
  const { page, context, problems } = await openPage(env, `?step=softmax&layer=${layer}`);
  await page.click(`.head-thumb[data-head="${head}"]`);
  await page.waitForSelector(`.head-thumb[data-head="${head}"][aria-pressed="true"]`);
  await rendered(page, 'softmax');
  const w = trace.stage('weights', { layer, head });
  for (const c of await cells(page, 'weights')) assert.equal(c.value, at(w, c.i, c.j));
  assert.equal(trace.softmaxRow(2, { layer, head }).argmax, 3, `喜 → 欢 ${at(w, 2, 3)}, 人 ${at(w, 2, 4)} (docs/model.md)`);
  assert.match(await page.textContent('#detail-title'), new RegExp(`Head ${head + 1}`));
  assert.equal(await page.$eval('.head-card.selected', (e) => e.dataset.head), String(head));
  await page.click('#step-rail button[data-step="scores"]');
  await rendered(page, 'scores');
  const s = trace.stage('scores', { layer, head });
  for (const c of await cells(page, 'scores')) assert.equal(c.value, at(s, c.i, c.j));
  // The link names the head and its layer (head 0, the default, is left out).
  await page.waitForFunction(([l, k]) => {
    const query = new URLSearchParams(location.search);
    return query.get('layer') === String(l) && (query.get('head') ?? '0') === String(k);
  }, [layer, head]);
  // The link opens on the same head.
  const { page: again, context: second } = await openPage(env, `?step=scores&layer=${layer}&head=${head}`);
  for (const c of await cells(again, 'scores')) assert.equal(c.value, at(s, c.i, c.j));
  await second.close();
  trace.dispose();
  assert.deepEqual(problems, []);
  await context.close();
});

test('hidden characters are guessed by the core, and knock-out changes the guesses as the API says', async () => {
  const { layer, head } = nextHead(core.run(SENTENCE));
  const { page, context, problems } = await openPage(env, `?step=tokens&layer=${layer}`);
  // Click 欢 to hide it, then 工.
  await page.click('.token-step .chip[data-i="3"] button');
  await page.waitForFunction(() => document.getElementById('sentence').value === '我喜[MASK]人工智能');
  await page.waitForSelector('section.guess[data-mask="0"]');
  assert.match(await page.textContent('section.guess[data-mask="0"] h3'), /hidden: 欢/);
  await page.click('.token-step .chip[data-i="5"] button');
  await page.waitForFunction(() => document.getElementById('sentence').value === '我喜[MASK]人[MASK]智能');
  await page.waitForSelector('section.guess[data-mask="1"]');
  const masked = '我喜[MASK]人[MASK]智能';
  const before = core.predictMasked(masked);
  assert.deepEqual(await guesses(page, 'before', 0), asShown(before[0]));
  assert.deepEqual(await guesses(page, 'before', 1), asShown(before[1]));
  // Knock out the head that looks ahead (on the article's sentence): the guesses without it are the API's.
  const trace = core.run(masked);
  await page.check(`.head-card[data-head="${head}"] input[role="switch"]`);
  await page.waitForSelector('figure.guesses[data-kind="after"]');
  const after = core.predictMasked(masked, { knockOut: [{ layer, head }] });
  assert.match(await page.textContent('figure.guesses[data-kind="after"]'), new RegExp(`without head ${head + 1} of layer ${layer + 1}`));
  assert.notDeepEqual(after, before);
  assert.deepEqual(await guesses(page, 'after', 0), asShown(after[0]));
  assert.deepEqual(await guesses(page, 'after', 1), asShown(after[1]));
  assert.deepEqual(await guesses(page, 'before', 0), asShown(before[0]));
  assert.equal(await page.$eval(`.head-card[data-head="${head}"]`, (e) => e.classList.contains('knocked-out')), true);
  // The concat step shows that head's columns as zeros, as the core's run does.
  await page.click('#step-rail button[data-step="concat"]');
  await rendered(page, 'concat');
  assert.match(await page.textContent('#step-explain'), new RegExp(`Knocked out: head ${head + 1}`));
  // Back on, and the first [MASK] brought back.
  await page.uncheck(`.head-card[data-head="${head}"] input[role="switch"]`);
  await page.waitForSelector('figure.guesses[data-kind="after"]', { state: 'detached' });
  await page.click('#step-rail button[data-step="tokens"]');
  await rendered(page, 'tokens');
  await page.click('.token-step .chip[data-i="3"] button');
  await page.waitForFunction(() => document.getElementById('sentence').value === '我喜欢人[MASK]智能');
  // From the keyboard: a character's chip is a button.
  await rendered(page, 'tokens');
  await page.focus('.token-step .chip[data-i="6"] button');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.getElementById('sentence').value === '我喜欢人[MASK][MASK]能');
  trace.dispose();
  assert.deepEqual(problems, []);
  await context.close();
});

test('where the hidden text stands: marked among the five, else its number in the core’s whole list, or why it cannot be a guess', async () => {
  const { page, context, problems } = await openPage(env, '?step=tokens');
  const sides = new Set();
  for (let i = 1; i <= [...SENTENCE].length; i += 1) {
    const answer = [...SENTENCE][i - 1];
    const masked = [...SENTENCE].map((c, k) => (k === i - 1 ? '[MASK]' : c)).join('');
    await page.click(`.token-step .chip[data-i="${i}"] button`);
    await page.waitForFunction((text) => document.getElementById('sentence').value === text, masked);
    await page.waitForSelector(`section.guess[data-mask="0"] h3 >> text=hidden: ${answer}`);
    const [rank] = core.rankAnswers(masked, [answer]);
    const marks = await page.$$eval('figure.guesses[data-kind="before"] li', (lis) => lis.map((li) => li.classList.contains('answer')));
    const line = await page.$$eval('.guess-rank', (ps) => ps.map((p) => p.textContent));
    if (rank.shown) {
      assert.deepEqual(marks, [0, 1, 2, 3, 4].map((k) => k === rank.rank - 1), answer);
      assert.deepEqual(line, []);
    } else {
      assert.deepEqual(marks, [false, false, false, false, false], answer);
      assert.deepEqual(line, [`“${answer}” is not among these five guesses: the model puts it at number ${rank.rank} of the ${rank.candidates} characters and words it chooses from (probability ${sig(rank.probability, 2)}).`]);
    }
    sides.add(rank.shown);
    await page.click(`.token-step .chip[data-i="${i}"] button`);
    await page.waitForFunction((text) => document.getElementById('sentence').value === text, SENTENCE);
  }
  // The shipped model lists some of the article's characters and not others: both sides are drawn here.
  assert.deepEqual([...sides].sort(), [false, true]);
  // With a head knocked out, a second list stands beside: the line names the list it is about.
  const hidden = [...SENTENCE].findIndex((c, k) => !core.rankAnswers([...SENTENCE].map((x, j) => (j === k ? '[MASK]' : x)).join(''), [c])[0].shown);
  await page.click(`.token-step .chip[data-i="${hidden + 1}"] button`);
  await page.check('.head-card[data-head="0"] input[role="switch"]');
  await page.waitForSelector('figure.guesses[data-kind="after"]');
  assert.match(await page.textContent('.guess-rank'), new RegExp(`^“${[...SENTENCE][hidden]}” is not among the five guesses with all heads: the model puts it at number \\d+ of`));
  await page.uncheck('.head-card[data-head="0"] input[role="switch"]');
  // A character the vocabulary lacks is read as [UNK], which is never a guess.
  await page.fill('#sentence', '我喜欢𠀀');
  await page.waitForSelector('.token-step .chip[data-i="4"] >> text=[UNK]');
  await page.click('.token-step .chip[data-i="4"] button');
  await page.waitForSelector('.guess-rank');
  assert.deepEqual([...core.rankAnswers('我喜欢[MASK]', ['𠀀'])[0].pieces], ['[UNK]']);
  assert.equal(await page.textContent('.guess-rank'), '“𠀀” cannot be one of the guesses: the model reads it as [UNK], which is not one of the characters and words it chooses from.');
  // A word this vocabulary splits cannot be one guess, and the page says so.
  const english = 'my mother is a midwife at the hospital';
  await page.fill('#sentence', english);
  await page.waitForSelector('.token-step .chip[data-i="5"] >> text=mid');
  await page.click('.token-step .chip[data-i="5"] button');
  await page.waitForSelector('.guess-rank');
  const [midwife] = core.rankAnswers('my mother is a [MASK] at the hospital', ['midwife']);
  assert.equal(midwife.guessable, false);
  assert.equal(await page.textContent('.guess-rank'), `“midwife” cannot be one of the guesses: this model’s vocabulary splits it into ${midwife.pieces.length} tokens (${midwife.pieces.join(' ')}; ## marks a piece that continues a word), and one [MASK] stands for one token.`);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a typed [MASK] is guessed in English and in the Chinese page', async () => {
  const { page, context, problems } = await openPage(env, `?lang=zh&s=${encodeURIComponent('the [MASK] is on the table')}`);
  const expected = core.predictMasked('the [MASK] is on the table');
  assert.deepEqual(await guesses(page, 'before', 0), asShown(expected[0]));
  assert.match(await page.textContent('section.guess h3'), /\[MASK\] 1/);
  assert.match(await page.textContent('#guess-title'), /猜被遮住的字或词/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('model=random, head= and layer= in a link; bad ones are named', async () => {
  const { page, context, problems } = await openPage(env, '?model=random&step=concat');
  assert.equal(await page.$eval('#opt-model', (s) => s.value), 'random');
  assert.equal(await page.$eval('#opt-dK', (i) => [i.value, i.disabled].join()), '64,false');
  assert.match(await page.textContent('#step-explain'), /single head with no W_O/);
  assert.match(await page.textContent('#heads-body'), /Choose the trained model/);
  // Back to the trained model from the settings.
  await page.selectOption('#opt-model', 'trained');
  await page.waitForSelector('.head-card');
  await page.waitForFunction(() => !new URLSearchParams(location.search).has('model'));
  await context.close();

  const { page: bad, context: second } = await openPage(env, '?head=9&layer=4&model=nope&step=softmax');
  const notice = await bad.textContent('#input-message');
  assert.match(notice, /no model "nope"/);
  assert.match(notice, /not valid: layer/);
  assert.match(notice, /not valid: head/);
  assert.equal(await bad.$eval('.head-thumb[aria-pressed="true"]', (e) => e.dataset.head), '0');
  await second.close();
  assert.deepEqual(problems, []);
});

test('a load slower than 300 ms shows a progress state, gone once the page is drawn', async () => {
  const context = await env.browser.newContext({ reducedMotion: 'reduce' });
  // The model file held back for a second, as on a slow connection.
  await context.route('**/models/trained.almodel', async (route) => {
    await new Promise((resolve) => { setTimeout(resolve, 1000); });
    await route.continue();
  });
  const page = await context.newPage();
  await page.goto(`${env.origin}/`);
  await page.waitForSelector('#loading:not([hidden]) progress', { timeout: 900 });
  assert.match(await page.textContent('#loading'), /Loading the WebAssembly core and the trained model/);
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached', timeout: 20_000 });
  assert.equal(await page.$eval('#loading', (e) => e.hidden), true);
  assert.equal(await page.$eval('#opt-model', (s) => s.value), 'trained');
  await context.close();
});

test('the page opens on the core’s article head for the selected token and follows it; a head picked stays', async () => {
  const { page, context, problems } = await openPage(env, '?step=softmax');
  // The head the grid shows pressed, on the layer the picker shows (what a learner sees, not the frame's data).
  const pressedHead = () => page.evaluate(() => ({
    layer: Number(document.querySelector('.layer-picker')?.value ?? 0),
    head: Number(document.querySelector('.head-thumb[aria-pressed="true"]').dataset.head),
  }));
  const trace = core.run(SENTENCE);
  const article = trace.articleHead(2);
  assert.equal(article.found, true);
  assert.deepEqual(await pressedHead(), { layer: article.layer, head: article.head });
  assert.equal(new URL(page.url()).searchParams.has('head'), false); // the link reopens on the same rule
  // Another token: the head follows the rule for it.
  const other = trace.articleHead(4);
  await page.locator('#token-chips .chip').nth(4).click();
  await page.waitForFunction((t) => new URL(location.href).searchParams.get('t') === t, '4');
  assert.deepEqual(await pressedHead(), { layer: other.layer, head: other.head });
  // A head the learner picks stays through another sentence and token, and goes into the link.
  const picked = { layer: article.layer, head: (article.head + 1) % trace.config.heads };
  await page.click(`.head-thumb[data-head="${picked.head}"]`);
  await page.fill('#sentence', '今天天气很好');
  await page.waitForFunction(() => document.querySelectorAll('#token-chips .chip .text')[1]?.textContent === '今');
  await page.locator('#token-chips .chip').nth(2).click();
  await rendered(page, 'softmax');
  assert.deepEqual(await pressedHead(), picked);
  await page.waitForFunction(() => new URL(location.href).searchParams.has('head'));
  const link = new URL(page.url()).searchParams;
  assert.deepEqual([link.get('layer'), link.get('head')], [String(picked.layer), String(picked.head)]);
  trace.dispose();
  assert.deepEqual(problems, []);
  await context.close();
});

test('the English example says what the heads do with “it”, from the core’s numbers, in the heads panel and the Context experiment', async () => {
  const sentence = "The animal didn't cross the street because it was too tired.";
  const trace = core.run(sentence);
  const from = trace.tokens.indexOf('it');
  const link = trace.tokenLink(from, trace.tokens.indexOf('animal'));
  const { page, context, problems } = await openPage(env, `?s=${encodeURIComponent(sentence)}&step=output&experiment=context`);
  await page.waitForSelector('.experiment-body .experiment-loading', { state: 'detached' }); // the experiment's chunk
  const notes = await page.$$eval('.reference-note', (ps) => ps.map((p) => ({ text: p.textContent, kind: p.dataset.reference })));
  assert.equal(notes.length, 2, 'the heads panel and the Context experiment');
  for (const note of notes) {
    assert.equal(note.kind, link.first ? 'found' : 'none');
    assert.ok(note.text.includes(link.weight.toFixed(2)), note.text);
    assert.ok(note.text.includes(`“${trace.tokens[link.peakToken]}”: ${link.peakWeight.toFixed(2)} in layer ${link.peak.layer + 1}, head ${link.peak.head + 1}`), note.text);
    assert.match(note.text, /Clark et al\. \(2019\)/);
  }
  // A sentence without a pronoun and its noun has no note.
  await page.fill('#sentence', '我喜欢人工智能');
  await page.waitForFunction(() => document.querySelectorAll('#token-chips .chip').length === 9 && !document.querySelector('.reference-note'));
  trace.dispose();
  assert.deepEqual(problems, []);
  await context.close();
});

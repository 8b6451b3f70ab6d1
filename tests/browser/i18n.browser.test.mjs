// English, simplified and traditional Chinese: the switch, the lang parameter, the
// browser's language, and no English (or missing key) left on any step in Chinese.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { useServedChromium, waitForParam, watchProblems } from './chromium.mjs';
import { shownHead } from './page-helpers.mjs';
import { WORDS_ZH_HANT } from '../../web/generated/words/words-zh-hant.js';

const WEB = fileURLToPath(new URL('../../web/', import.meta.url));
import { STEPS } from '../../web/app/steps/index.js';

const STEP_IDS = STEPS.map((s) => s.id);
// Words that stay as they are in Chinese: names of functions, formats and symbols.
const KEPT = new Set(['softmax', 'exp', 'PNG', 'SVG', 'CSV', 'LaTeX', 'JSON', 'Python', 'English', 'CLS', 'SEP', 'one', 'hot',
  'seed', 'model', 'Attention', 'max', 'WebAssembly', 'MASK', 'UNK', 'LayerNorm', 'GELU', 'norm',
  'Shift', 'BERT', 'base', 'ALBERT']); // Shift: the key as a Chinese keyboard prints it too; BERT-base, ALBERT: models' names
const env = useServedChromium(WEB);

/** English words in visible text outside the learner's own sentence and the formula. */
const englishWords = (page) => page.evaluate(() => {
  const words = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const el = node.parentElement;
    if (!el || el.closest('math, #token-chips, th.row-label, thead, .strips .label, .token-step, #detail-body td:first-child, script, noscript, #tooltip, option')) continue;
    if (!el.getClientRects().length || getComputedStyle(el).visibility === 'hidden') continue;
    words.push(...(node.textContent.match(/[A-Za-z]{3,}/g) ?? []));
  }
  return words;
});
const keysMissing = (page) => page.evaluate(() => document.body.innerText.includes('⟦'));

/** Every step drawn: no missing key, no English word left (but the kept ones). */
async function everyStepInChinese(page) {
  for (const id of STEP_IDS) {
    await page.click(`#step-rail button[data-step="${id}"]`);
    await page.waitForSelector(`body[data-step="${id}"][data-rendered]`, { state: 'attached' });
    assert.equal(await keysMissing(page), false, id);
    const left = (await englishWords(page)).filter((w) => !KEPT.has(w));
    assert.deepEqual(left, [], `${id}: English left in Chinese`);
  }
}

test('?lang=zh shows every step in Chinese, with no English or missing key left', async () => {
  const context = await env.browser.newContext({ reducedMotion: 'reduce' });
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(`${env.origin}/?lang=zh`);
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
  assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
  await everyStepInChinese(page);
  // Tooltips and errors too.
  await page.click('#step-rail button[data-step="scores"]');
  await page.hover('figure.stage-scores td[data-i="2"][data-j="3"]');
  assert.match(await page.textContent('#tooltip'), /^分数\(喜 → 欢\)/);
  await page.fill('#sentence', '  ');
  await page.waitForSelector('#input-message:not([hidden])');
  assert.match(await page.textContent('#input-message'), /无法计算（文本是空的.*屏幕上仍保留上一次成功算出的结果/);
  await page.fill('#sentence', '字'.repeat(600));
  await page.waitForFunction(() => /共 602 个词元，最多只能 512 个/.test(document.getElementById('input-message').textContent));
  assert.deepEqual(problems, []);
  await context.close();
});

test('the switch changes the words in place and the URL keeps the language', async () => {
  const context = await env.browser.newContext({ reducedMotion: 'reduce', locale: 'en-US' });
  const page = await context.newPage();
  await page.goto(`${env.origin}/?step=softmax`);
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
  const english = await page.textContent('#step-title');
  assert.match(english, /softmax: attention weights/);
  await page.selectOption('#lang', 'zh');
  await page.waitForFunction(() => /注意力权重/.test(document.getElementById('step-title').textContent));
  await waitForParam(page, 'lang', 'zh');
  const { head } = await shownHead(page); // the core's article head for 喜
  assert.equal(await page.textContent('#detail-title'), `“喜”这一行的 softmax 过程 · 第 ${head + 1} 个头`);
  assert.equal(await page.textContent('#step-rail button[data-step="tokens"]'), '分词');
  await page.selectOption('#lang', 'en');
  await page.waitForFunction(() => /attention weights/.test(document.getElementById('step-title').textContent));
  assert.equal(await page.textContent('#step-rail button[data-step="tokens"]'), 'Tokens');
  await context.close();
});

test("the browser's language is the default", async () => {
  for (const [locale, expected] of [['zh-CN', '分词'], ['zh-TW', '斷詞'], ['en-GB', 'Tokens']]) {
    const context = await env.browser.newContext({ locale });
    const page = await context.newPage();
    await page.goto(`${env.origin}/`);
    await page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
    assert.equal(await page.textContent('#step-rail button[data-step="tokens"]'), expected, locale);
    await context.close();
  }
});

test('Chinese words load when first asked for; a failed load is said, the lab stays in English and tries again', async () => {
  const context = await env.browser.newContext({ reducedMotion: 'reduce', locale: 'en-US' });
  const page = await context.newPage();
  const chunks = [];
  page.on('request', (request) => { if (/chunk-words-zh/.test(request.url())) chunks.push(request.url()); });
  await page.goto(`${env.origin}/?step=softmax`);
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
  assert.deepEqual(chunks, [], 'an English first view does not load the Chinese words');
  await page.route('**/chunk-words-zh-*.js', (route) => route.abort());
  await page.selectOption('#lang', 'zh');
  await page.waitForSelector('#input-message:not([hidden])');
  assert.match(await page.textContent('#input-message'), /words in 简体中文 could not be loaded .*; it stays in this language/);
  assert.equal(await page.inputValue('#lang'), 'en');
  assert.equal(await page.getAttribute('html', 'lang'), 'en');
  assert.match(await page.textContent('#step-title'), /softmax: attention weights/);
  await page.click('#next'); // the lab goes on
  await page.waitForSelector('body[data-step="weighted-sum"]', { state: 'attached' });
  await page.unroute('**/chunk-words-zh-*.js');
  await page.selectOption('#lang', 'zh');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  assert.equal(await page.textContent('#step-rail button[data-step="tokens"]'), '分词');
  assert.equal(await page.inputValue('#lang'), 'zh');
  await context.close();
});

test('?lang=zh-Hant shows every step in traditional characters, and the examples too, with no English or missing key left', async () => {
  const context = await env.browser.newContext({ reducedMotion: 'reduce', locale: 'en-US' });
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(`${env.origin}/?lang=zh-Hant`);
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
  assert.equal(await page.getAttribute('html', 'lang'), 'zh-TW');
  assert.equal(await page.inputValue('#lang'), 'zh-Hant');
  assert.equal(await page.title(), WORDS_ZH_HANT['page.title']);
  await everyStepInChinese(page);
  await page.click('#step-rail button[data-step="softmax"]');
  await page.waitForSelector('body[data-step="softmax"][data-rendered]', { state: 'attached' });
  assert.ok((await page.textContent('#step-title')).endsWith(WORDS_ZH_HANT['step.softmax.title']));
  assert.match(await page.textContent('#step-explain'), /逐列計算.*每一列加起來就等於 1/, 'rows are 列 in Taiwan');
  assert.match(await page.textContent('#step-rail'), /斷詞/);
  // The Examples menu in traditional characters; an example goes into the sentence box as it is
  // (its tokens are the model's: a character its vocabulary lacks may be [UNK]).
  const examples = await page.$$eval('#presets option', (options) => options.map((o) => o.value));
  assert.ok(examples.includes('我喜歡人工智慧'), examples.join(' '));
  assert.ok(!examples.includes('我喜欢人工智能'));
  await page.selectOption('#presets', '我喜歡人工智慧');
  await waitForParam(page, 's', '我喜歡人工智慧');
  assert.equal(await page.inputValue('#sentence'), '我喜歡人工智慧');
  // Its tokens are as typed, each with the simplified character and id it stands for: no [UNK].
  await page.click('[data-step="tokens"]');
  await page.waitForFunction(() => [...document.querySelectorAll('.token-step .chip .text')].map((c) => c.textContent).join('') === '[CLS]我喜歡人工智慧[SEP]');
  assert.equal(await page.$$eval('.token-step .chip.unk', (c) => c.length), 0);
  assert.match(await page.textContent('.token-step .chip[data-i="3"]'), /當作「欢」/);
  assert.match(await page.textContent('#step-explain'), /「歡」當作「欢」/);
  // Hidden, 歡 comes back in the guesses as a traditional reader writes it.
  await page.click('.token-step .chip[data-i="3"] button');
  await waitForParam(page, 's', '我喜[MASK]人工智慧');
  await page.waitForFunction(() => [...document.querySelectorAll('.guess .guess-token')].some((g) => g.textContent === '歡'));
  // Back to simplified: the examples follow.
  await page.selectOption('#lang', 'zh');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  assert.ok((await page.$$eval('#presets option', (options) => options.map((o) => o.value))).includes('我喜欢人工智能'));
  await waitForParam(page, 'lang', 'zh');
  assert.deepEqual(problems, []);
  await context.close();
});

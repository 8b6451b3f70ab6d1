// The <attention-lab> element: two on one course page (web/element-demo.html),
// each its own lab in its own language, sharing one wasm core; attributes
// change the view, DOM events report steps, selections and answers; all under
// the strict policy, with nothing logged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { loadAttentionLab } from 'attention-lab';
import { useServedChromium, watchProblems } from './chromium.mjs';
import { shownHead } from './page-helpers.mjs';

const WEB = fileURLToPath(new URL('../../web/', import.meta.url));
const env = useServedChromium(WEB);
const core = await loadAttentionLab();

async function openDemo({ reducedMotion = 'reduce' } = {}) {
  const context = await env.browser.newContext({ reducedMotion });
  const page = await context.newPage();
  const problems = watchProblems(page);
  const wasm = [];
  page.on('request', (r) => { if (r.url().endsWith('.wasm')) wasm.push(r.url()); });
  await page.addInitScript(() => {
    window.labEvents = [];
    for (const type of ['ready', 'step', 'select', 'exercise']) {
      document.addEventListener(type, (e) => window.labEvents.push({ id: e.target.id, type, detail: e.detail }));
    }
  });
  await page.goto(`${env.origin}/element-demo.html`);
  await page.waitForSelector('body[data-first-ready][data-second-ready]', { state: 'attached', timeout: 30_000 });
  return { page, context, problems, wasm };
}
const frameOf = (page, id) => page.locator(`#${id} .al-frame`);
const chipsOf = (page, id) => page.locator(`#${id} #token-chips .chip .text`).allTextContents();
const events = (page, type, id) => page.evaluate(([t, i]) => window.labEvents.filter((e) => e.type === t && e.id === i), [type, id]);

test('two elements on one page: each its own lab, one wasm core, its own language', { timeout: 90_000 }, async () => {
  const { page, context, problems, wasm } = await openDemo();
  assert.equal(wasm.length, 1, `one wasm download for both: ${wasm}`);
  assert.equal(await frameOf(page, 'first').getAttribute('data-step'), 'softmax');
  assert.equal(await frameOf(page, 'second').getAttribute('data-step'), 'scaled');
  assert.deepEqual(await chipsOf(page, 'first'), [...core.run('我喜欢人工智能').tokens]);
  assert.deepEqual(await chipsOf(page, 'second'), [...core.run('请[MASK]入密码').tokens]);
  // Each opens on the core's article head for its selected token (the second token after [CLS]).
  for (const [id, sentence] of [['first', '我喜欢人工智能'], ['second', '请[MASK]入密码']]) {
    const trace = core.run(sentence);
    const { layer, head } = trace.articleHead(2);
    trace.dispose();
    assert.deepEqual(await shownHead(page, `#${id} .al-frame`), { layer, head }, id);
  }
  assert.match(await page.locator('#first #step-title').textContent(), /softmax: attention weights/);
  assert.match(await page.locator('#second #step-title').textContent(), /缩放/);
  assert.equal(await frameOf(page, 'second').getAttribute('lang'), 'zh-CN');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en', 'the course page keeps its own lang');
  assert.equal(await page.evaluate(() => document.title), 'Attention Lab — two <attention-lab> elements on one course page');
  // The course page's styles stay out, and the lab's stay in.
  assert.equal(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), 'rgb(244, 245, 248)');
  const ready = await events(page, 'ready', 'first');
  assert.equal(ready.length, 1);
  assert.equal(ready[0].detail.state.step, 'softmax');
  // The layout follows the element's width, not the window's: in a narrow column, one column.
  const columns = () => page.locator('#first .workspace').evaluate((el) => getComputedStyle(el).gridTemplateColumns.split(' ').length);
  assert.equal(await columns(), 2, 'a wide element: the step view and the side panel side by side');
  await page.evaluate(() => { document.getElementById('first').style.maxWidth = '560px'; });
  await page.waitForFunction(() => getComputedStyle(document.querySelector('#first').shadowRoot.querySelector('.workspace')).gridTemplateColumns.split(' ').length === 1);
  assert.equal(await page.locator('#second .workspace').evaluate((el) => getComputedStyle(el).gridTemplateColumns.split(' ').length), 2);
  // Keys step only the lab that has the focus.
  await page.locator('#second #next').focus();
  await page.keyboard.press('ArrowRight');
  await page.waitForSelector('#second .al-frame[data-step="softmax"]', { state: 'attached' });
  assert.equal(await frameOf(page, 'first').getAttribute('data-step'), 'softmax');
  assert.deepEqual(problems, []);
  await context.close();
});

test('attributes change the view; the element reports steps, selections and answers', { timeout: 90_000 }, async () => {
  const { page, context, problems } = await openDemo();
  const set = (id, name, value) => page.evaluate(([i, n, v]) => (v === null ? document.getElementById(i).removeAttribute(n)
    : document.getElementById(i).setAttribute(n, v)), [id, name, value]);

  await set('first', 'step', 'scores');
  await page.waitForSelector('#first .al-frame[data-step="scores"]', { state: 'attached' });
  assert.equal(await frameOf(page, 'second').getAttribute('data-step'), 'scaled', 'the other lab stays');
  assert.equal((await events(page, 'step', 'first')).at(-1).detail.step, 'scores');

  await set('first', 'sentence', '人工智能喜欢我');
  await page.waitForFunction(() => document.querySelector('#first').shadowRoot.querySelector('#token-chips li:nth-child(2) .text')?.textContent === '人');
  assert.deepEqual(await chipsOf(page, 'first'), [...core.run('人工智能喜欢我').tokens]);
  await set('first', 'token', '5');
  await page.waitForSelector('#first #token-chips li:nth-child(6) .chip[aria-pressed="true"]');
  await set('first', 'lang', 'zh-Hant'); // traditional Chinese, then simplified
  await page.waitForFunction(() => document.querySelector('#first').shadowRoot.querySelector('#step-title').textContent.includes('原始注意力分數'));
  assert.equal(await frameOf(page, 'first').getAttribute('lang'), 'zh-TW');
  await set('first', 'lang', 'zh');
  await page.waitForFunction(() => document.querySelector('#first').shadowRoot.querySelector('#step-title').textContent.includes('原始注意力分数'));
  await set('first', 'model', 'random');
  await set('first', 'dk', '8');
  await page.waitForFunction(() => document.querySelector('#first').shadowRoot.querySelector('#opt-dK').value === '8');
  await set('first', 'dk', 'eight');
  await page.waitForFunction(() => document.querySelector('#first').shadowRoot.querySelector('#input-message').textContent.includes('dK'));
  assert.equal(await page.locator('#first #opt-dK').inputValue(), '8', 'a bad attribute is named; the view stays');
  await set('first', 'dk', null);
  await set('first', 'model', null);
  await page.waitForFunction(() => document.querySelector('#first').shadowRoot.querySelector('#opt-model').value === 'trained');
  assert.equal(await page.locator('#first #opt-dK').inputValue(), '32', 'attributes removed: the default model, its own d_k');
  await set('first', 'experiment', 'temperature');
  await page.waitForSelector('#first #experiment-tabs button[data-experiment="temperature"][aria-pressed="true"]');

  // A chip clicked: a select event.
  await page.locator('#second #token-chips .chip').nth(3).click();
  const selected = (await events(page, 'select', 'second')).at(-1).detail;
  assert.deepEqual(selected, { selected: 3, token: core.run('请[MASK]入密码').tokens[3] });

  // An answer: an exercise event, as a framed lab posts it.
  const trace = core.run('请[MASK]入密码');
  const e = trace.exercise('scaled', { row: 1, col: 2, ...(await shownHead(page, '#second .al-frame')) });
  await page.locator('#second #exercise-answer').fill(e.expected.toFixed(4));
  await page.locator('#second .ex-check').click();
  await page.waitForFunction(() => window.labEvents.some((x) => x.type === 'exercise'));
  const [{ detail: result }] = await events(page, 'exercise', 'second');
  assert.equal(result.exercise, 'scaled');
  assert.deepEqual(result.cell, { row: 1, col: 2 });
  assert.equal(result.correct, true);
  assert.equal(result.mistake, null);
  assert.equal(result.expected, e.expected);
  assert.deepEqual(result.set, { index: 0, count: 1, answered: 1, right: 1 });
  assert.equal(await events(page, 'exercise', 'first').then((l) => l.length), 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test('two labs at once, each on its own: one plays (animated), the other loads a model, is typed in and is set by its host', { timeout: 120_000 }, async () => {
  const { page, context, problems } = await openDemo({ reducedMotion: 'no-preference' });
  const inLab = (id, selector) => page.locator(`#${id} ${selector}`);
  // The first (English) plays through its steps: each step awaits a paint and its animation.
  await inLab('first', '#play').click();
  await page.waitForFunction(() => document.getElementById('first').shadowRoot.querySelector('.al-frame').dataset.step !== 'softmax');
  // Meanwhile the second (Chinese) reads a model file (an async read), is typed in (a timer),
  // and is told by its host to follow another token (an attribute, applied once it is ready).
  // The file is picked in the second, and the pointer moves over the first while it is read.
  await page.evaluate(async () => {
    const bytes = await (await fetch('models/trained.almodel')).arrayBuffer();
    const box = document.getElementById('second').shadowRoot.getElementById('opt-model-file');
    const picked = new DataTransfer();
    picked.items.add(new File([bytes], 'my model.almodel'));
    box.files = picked.files;
    box.dispatchEvent(new Event('change', { bubbles: true }));
    document.getElementById('first').shadowRoot.getElementById('step-body').dispatchEvent(new PointerEvent('pointerover', { bubbles: true }));
  });
  await inLab('second', '#sentence').fill('今天天气很好');
  await page.evaluate(() => document.getElementById('second').setAttribute('token', '3'));
  await page.waitForFunction(() => document.querySelector('#second').shadowRoot.querySelector('#opt-model').value === 'my-model');
  await page.waitForFunction(() => [...document.querySelector('#second').shadowRoot.querySelectorAll('#token-chips .chip .text')]
    .map((e) => e.textContent).join('') === '[CLS]今天天气很好[SEP]');
  // Hovering the second's matrix shows its tooltip, in its words, not the first's.
  await inLab('second', 'figure.stage-scaled td[data-j]').first().hover();
  await page.waitForFunction(() => !document.querySelector('#second').shadowRoot.querySelector('#tooltip').hidden);
  // The first plays on to its last step.
  await page.waitForFunction(() => document.querySelector('#first').shadowRoot.querySelector('#play').getAttribute('aria-pressed') === 'false'
    && document.getElementById('first').shadowRoot.querySelector('.al-frame').dataset.step === 'concat', null, { timeout: 60_000 });

  // Each drew only into itself, in its own language.
  assert.equal(await frameOf(page, 'first').getAttribute('lang'), 'en');
  assert.equal(await frameOf(page, 'second').getAttribute('lang'), 'zh-CN');
  assert.equal(await inLab('first', '#play').textContent(), '▶ Play');
  assert.equal(await inLab('second', '#play').textContent(), '▶ 播放');
  assert.match(await inLab('first', '#announcer').textContent(), /^Step 9 of 9: /);
  assert.match(await inLab('second', '#announcer').textContent(), /^第 5 步，共 9 步：/);
  assert.equal(await frameOf(page, 'second').getAttribute('data-step'), 'scaled', 'the second stays on its step');
  assert.deepEqual(await chipsOf(page, 'first'), [...core.run('我喜欢人工智能').tokens], 'the first keeps its sentence');
  assert.equal(await inLab('first', '#token-chips .chip[aria-pressed="true"] .text').textContent(), '喜', 'the first keeps its token');
  assert.equal(await inLab('second', '#token-chips .chip[aria-pressed="true"] .text').textContent(), '天', 'the second follows its host');
  assert.equal(await inLab('first', '#opt-model').inputValue(), 'trained');
  assert.match(await inLab('second', '#tooltip').textContent(), /^\[CLS\] → \[CLS\]：/, 'the Chinese sentence, with its full-width colon');
  assert.equal(await inLab('first', '#tooltip').isHidden(), true);
  for (const id of ['first', 'second']) {
    assert.equal(await inLab(id, '#input-message').isHidden(), true, `${id}: no message`);
    assert.equal(await page.evaluate((i) => document.getElementById(i).shadowRoot.textContent.includes('⟦'), id), false);
  }
  const steps = (await events(page, 'step', 'first')).map((e) => e.detail.step);
  assert.deepEqual(steps.slice(-3), ['weighted-sum', 'output', 'concat'], 'the first announced its own steps');
  assert.equal((await events(page, 'step', 'second')).length, 0, 'the second announced none');
  assert.deepEqual(problems, []);
  await context.close();
});

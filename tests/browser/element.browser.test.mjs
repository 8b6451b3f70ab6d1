// The <attention-lab> element: two on one course page (web/element-demo.html),
// each its own lab in its own language, sharing one wasm core; attributes
// change the view, DOM events report steps, selections and answers; all under
// the strict policy, with nothing logged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { loadAttentionLab } from 'attention-lab';
import { useServedChromium, watchProblems } from './chromium.mjs';

const WEB = fileURLToPath(new URL('../../web/', import.meta.url));
const env = useServedChromium(WEB);
const lab = await loadAttentionLab();

async function openDemo() {
  const context = await env.browser.newContext({ reducedMotion: 'reduce' });
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
  assert.deepEqual(await chipsOf(page, 'first'), [...lab.run('我喜欢人工智能').tokens]);
  assert.deepEqual(await chipsOf(page, 'second'), [...lab.run('请[MASK]入密码').tokens]);
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
  assert.deepEqual(await chipsOf(page, 'first'), [...lab.run('人工智能喜欢我').tokens]);
  await set('first', 'token', '5');
  await page.waitForSelector('#first #token-chips li:nth-child(6) .chip[aria-pressed="true"]');
  await set('first', 'lang', 'zh');
  await page.waitForFunction(() => document.querySelector('#first').shadowRoot.querySelector('#step-title').textContent.includes('原始'));
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
  await set('first', 'lab', 'temperature');
  await page.waitForSelector('#first #lab-tabs button[data-lab="temperature"][aria-pressed="true"]');

  // A chip clicked: a select event.
  await page.locator('#second #token-chips .chip').nth(3).click();
  const selected = (await events(page, 'select', 'second')).at(-1).detail;
  assert.deepEqual(selected, { selected: 3, token: lab.run('请[MASK]入密码').tokens[3] });

  // An answer: an exercise event, as a framed lab posts it.
  const trace = lab.run('请[MASK]入密码');
  const e = trace.exercise('scaled', { row: 1, col: 2 });
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

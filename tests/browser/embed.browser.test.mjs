// Embedding: the demo host page drives the lab in an iframe through the
// postMessage protocol; messages are validated, markup in them stays text, and
// ?origin=… shuts out every other origin.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { useServedChromium, watchProblems } from './chromium.mjs';
import { STEPS } from '../../web/app/steps/index.js';

const WEB = fileURLToPath(new URL('../../web/', import.meta.url));
const env = useServedChromium(WEB);

async function openDemo() {
  const context = await env.browser.newContext({ reducedMotion: 'reduce' });
  const page = await context.newPage();
  const problems = watchProblems(page);
  const dialogs = [];
  page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss(); });
  await page.goto(`${env.origin}/embed-demo.html`);
  await page.waitForSelector('body[data-lab-ready="true"]', { state: 'attached', timeout: 20_000 });
  const frame = await (await page.$('#lab')).contentFrame();
  return { page, frame, context, problems, dialogs };
}
const messages = (page) => page.$$eval('#log li', (items) => items.map((li) => JSON.parse(li.textContent)));
const lastOfType = async (page, type) => (await messages(page)).filter((m) => m.type === type).at(-1);
const send = (page, message) => page.evaluate((m) => {
  document.getElementById('lab').contentWindow.postMessage(m, location.origin);
}, message);
const frameChips = (frame) => frame.$$eval('#token-chips .chip .text', (els) => els.map((e) => e.textContent));

test('the demo host drives the embedded lab and hears its events', async () => {
  const { page, frame, context, problems } = await openDemo();
  const ready = await lastOfType(page, 'ready');
  assert.equal(ready.state.step, 'scores');
  assert.deepEqual(ready.steps, STEPS.map((s) => s.id));
  assert.deepEqual(ready.models.map((m) => [m.id, m.trained]), [['trained', true], ['random', false]], 'the served page loaded the trained model');
  assert.equal(await frame.isVisible('.settings'), false, 'embed=1 hides the settings');

  await page.click('#send-sentence');
  await frame.waitForFunction(() => document.querySelectorAll('#token-chips .chip').length === 9);
  assert.deepEqual(await frameChips(frame), ['[CLS]', '人', '工', '智', '能', '喜', '欢', '我', '[SEP]']);
  await page.waitForFunction(() => document.querySelectorAll('#log li').length >= 2);
  assert.equal((await lastOfType(page, 'state')).state.sentence, '人工智能喜欢我');

  await page.selectOption('#host-step', 'softmax');
  await page.click('#send-step');
  await frame.waitForSelector('body[data-step="softmax"]', { state: 'attached' });
  await page.waitForFunction(() => [...document.querySelectorAll('#log li')].some((li) => li.textContent.includes('"type":"step","step":"softmax"')));

  // A head of the trained model, then the seeded head with the causal mask.
  await page.selectOption('#host-head', { value: '1' });
  await page.click('#send-head');
  await frame.waitForSelector('.head-thumb[data-head="1"][aria-pressed="true"]');
  await frame.waitForFunction(() => new URL(location.href).searchParams.get('head') === '1');
  assert.equal((await lastOfType(page, 'state')).state.head, 1);
  await page.check('#host-causal');
  await frame.waitForFunction(() => new URL(location.href).searchParams.get('causal') === '1');
  assert.equal(new URL(frame.url()).searchParams.get('model'), 'random');
  const weights = await frame.$$eval('figure.stage-weights td[data-j]', (tds) => tds.map((td) => [Number(td.dataset.i), Number(td.dataset.j), Number(td.dataset.value)]));
  assert.ok(weights.length === 81 && weights.filter(([i, j]) => j > i).every(([, , v]) => v === 0));
  assert.equal(new URL(frame.url()).searchParams.get('embed'), '1', 'the URL keeps embed=1');
  assert.deepEqual(problems, []);
  await context.close();
});

test('older names keep working: ?stage=, a "set" with stage, the "stage" event, ready.stages, state.stage', async () => {
  const context = await env.browser.newContext({ reducedMotion: 'reduce' });
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(`${env.origin}/embed-demo.html`);
  await page.waitForSelector('body[data-lab-ready="true"]', { state: 'attached', timeout: 20_000 });
  const frame = await (await page.$('#lab')).contentFrame();
  // The page reads the older ?stage= and writes ?step=.
  await frame.goto(`${env.origin}/index.html?embed=1&stage=softmax`);
  await frame.waitForSelector('body[data-step="softmax"][data-rendered]', { state: 'attached' });
  await frame.waitForFunction(() => new URL(location.href).searchParams.get('step') === 'softmax');
  assert.equal(new URL(frame.url()).searchParams.has('stage'), false);
  await page.waitForFunction(() => [...document.querySelectorAll('#log li')]
    .some((li) => { const m = JSON.parse(li.textContent); return m.type === 'ready' && m.state.step === 'softmax'; }));
  const ready = await lastOfType(page, 'ready');
  assert.deepEqual(ready.stages, ready.steps);
  assert.equal(ready.state.stage, 'softmax');
  assert.equal(ready.state.step, 'softmax');
  // A host that still sends { stage } and listens for "stage" events.
  await send(page, { protocol: 'attention-lab', type: 'set', stage: 'qkv' });
  await frame.waitForSelector('body[data-step="qkv"]', { state: 'attached' });
  await page.waitForFunction(() => [...document.querySelectorAll('#log li')].some((li) => li.textContent.includes('"type":"stage","stage":"qkv"')));
  await page.waitForFunction(() => [...document.querySelectorAll('#log li')].some((li) => li.textContent.includes('"type":"step","step":"qkv"')));
  const state = await lastOfType(page, 'state');
  assert.equal(state.state.step, 'qkv');
  assert.equal(state.state.stage, 'qkv');
  assert.deepEqual(problems, []);
  await context.close();
});

test('bad messages are refused with a reason; markup in them stays text', async () => {
  const { page, frame, context, dialogs } = await openDemo();
  const markup = '<img src=x onerror=alert(1)><script>alert(2)</script>';
  const cases = [
    [{ protocol: 'attention-lab', type: 'set', step: markup }, /step must be one of tokens/],
    [{ protocol: 'attention-lab', type: 'set', stage: markup }, /stage must be one of tokens/],
    [{ protocol: 'attention-lab', type: 'set', step: 'qkv', stage: 'scores' }, /step and stage \(its older name\) disagree/],
    [{ protocol: 'attention-lab', type: 'set', options: { dK: '64' } }, /option dK must be a number/],
    [{ protocol: 'attention-lab', type: 'set', options: [] }, /options must be an object/],
    [{ protocol: 'attention-lab', type: 'set', sentence: 42 }, /sentence must be a string/],
    [{ protocol: 'attention-lab', type: 'set', selected: -1 }, /selected must be a token index/],
    [{ protocol: 'attention-lab', type: 'set', [markup]: 1 }, /unknown field "<img/],
    [{ protocol: 'attention-lab', type: markup }, /unknown message type/],
    [{ protocol: 'attention-lab', type: 'set', options: { model: 'random', dK: 5000 } }, /d_k must be an integer from 1 to d_model/],
    [{ protocol: 'attention-lab', type: 'set', options: { dK: 16 } }, /dK is fixed by the trained model/],
    [{ protocol: 'attention-lab', type: 'set', options: { model: 'nope' } }, /there is no model "nope"/],
    [{ protocol: 'attention-lab', type: 'set', head: -1 }, /head must be an integer from 0/],
    [{ protocol: 'attention-lab', type: 'set', sentence: '   ' }, /the text is empty/],
  ];
  for (const [message, reason] of cases) {
    const before = (await messages(page)).length;
    await send(page, message);
    await page.waitForFunction((n) => document.querySelectorAll('#log li').length > n, before);
    const error = (await messages(page)).slice(before).find((m) => m.type === 'error');
    assert.ok(error, `no error for ${JSON.stringify(message).slice(0, 60)}`);
    assert.match(error.message, reason);
  }
  // Not for us: ignored without a reply.
  const count = (await messages(page)).length;
  await send(page, 'hello');
  await send(page, { type: 'set', sentence: 'x' });
  await page.waitForTimeout(300);
  assert.equal((await messages(page)).length, count);
  // Markup as a sentence is tokenized as text.
  await send(page, { protocol: 'attention-lab', type: 'set', sentence: markup });
  await frame.waitForFunction(() => [...document.querySelectorAll('#token-chips .chip .text')].map((e) => e.textContent)
    .join(' ').replace(/ ##/g, '').split(' ').includes('onerror'));
  assert.equal(await frame.$$eval('body img, body script:not([src])', (els) => els.length), 0);
  assert.equal(await page.$$eval('#log img', (els) => els.length), 0);
  assert.deepEqual(dialogs, []);
  await context.close();
});

/** Adds a fresh iframe with this src to the demo page and returns its frame once ready. */
async function addFrame(page, id, src) {
  await page.evaluate(([frameId, url]) => {
    const frame = document.createElement('iframe');
    frame.id = frameId;
    frame.src = url;
    document.body.append(frame);
  }, [id, src]);
  await page.waitForFunction((frameId) => document.getElementById(frameId).contentDocument?.body?.dataset.ready === 'true', id);
  return (await page.$(`#${id}`)).contentFrame();
}

test('with ?origin=… messages from any other origin are ignored', async () => {
  const context = await env.browser.newContext({ reducedMotion: 'reduce' });
  const page = await context.newPage();
  await page.goto(`${env.origin}/embed-demo.html`);
  await page.waitForSelector('body[data-lab-ready="true"]', { state: 'attached' });
  const replies = [];
  await page.exposeFunction('recordReply', (data) => replies.push(data));
  await page.evaluate(() => window.addEventListener('message', (e) => {
    if (e.source === document.getElementById('locked')?.contentWindow) window.recordReply(e.data);
  }));
  const locked = await addFrame(page, 'locked', 'index.html?embed=1&origin=https://course.example&s=%E7%8C%AB%E7%8B%97');
  await page.evaluate(() => document.getElementById('locked').contentWindow.postMessage(
    { protocol: 'attention-lab', type: 'set', sentence: '人工智能' }, '*'));
  await page.waitForTimeout(500);
  assert.deepEqual(await frameChips(locked), ['[CLS]', '猫', '狗', '[SEP]'], 'the message was ignored');
  assert.deepEqual(replies, [], 'nothing is sent to another origin');

  // The same lab, told the host's real origin, listens and answers.
  const open = await addFrame(page, 'opened', `index.html?embed=1&origin=${encodeURIComponent(env.origin)}`);
  await page.evaluate(() => document.getElementById('opened').contentWindow.postMessage(
    { protocol: 'attention-lab', type: 'set', sentence: '人工智能' }, '*'));
  await open.waitForFunction(() => document.querySelectorAll('#token-chips .chip').length === 6);

  const bad = await addFrame(page, 'bad', 'index.html?embed=1&origin=javascript:alert(1)');
  assert.match(await bad.textContent('#input-message'), /origin parameter is not an origin/);
  await context.close();
});

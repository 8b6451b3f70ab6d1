// The training lab in Chromium, on the served page (its strict CSP included):
// a run whose heads get labels, pause and resume, the ÷√d_k experiment, the
// model opened in the lab, the same numbers as in Node, and bad input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { useServedChromium, watchProblems } from './chromium.mjs';
import { startTraining } from '../../web/lib/training.js';

const WEB = fileURLToPath(new URL('../../web/', import.meta.url));
const env = useServedChromium(WEB);

async function openLab(query = '') {
  const context = await env.browser.newContext({ reducedMotion: 'reduce', locale: 'en-US' });
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(`${env.origin}/?experiment=train${query}`);
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
  await page.waitForSelector('#train-start');
  return { context, page, problems };
}

const setKnob = (page, name, value) => page.fill(`#train-${name}`, String(value)).then(() => page.dispatchEvent(`#train-${name}`, 'change'));
const runState = (page, run = 'one') => page.$eval(`.train-run-status[data-run="${run}"]`, (el) => ({ state: el.dataset.state, step: Number(el.dataset.step) }));
const waitState = (page, state, run = 'one', timeout = 60_000) => page.waitForSelector(`.train-run-status[data-run="${run}"][data-state="${state}"]`, { timeout });

test('the tiny preset trains in a worker: loss, measures, heads with a label and when it came, then the model opens in the lab', { timeout: 120_000 }, async () => {
  const { context, page, problems } = await openLab();
  assert.equal(await page.inputValue('#train-preset'), 'tiny');
  await page.click('#train-start');
  await page.waitForSelector('.train-run-status[data-run="one"]');
  // The page stays responsive while it trains: a step of the main lab.
  await page.click('#next');
  await page.waitForSelector('body[data-step="embedding"]', { state: 'attached' });
  await waitState(page, 'finished', 'one', 90_000);
  const { step } = await runState(page);
  assert.equal(step, 3000);
  assert.equal(await page.locator('.train-heads .head-thumb').count(), 2);
  // Seed 1: the second head looks at the next token by the end, and the timeline says from when.
  assert.equal(await page.getAttribute('.train-heads .head-thumb[data-head="1"]', 'data-label'), 'next');
  assert.match(await page.textContent('.train-timeline'), /layer 1, Head 2: looks at the next token from step \d+/);
  assert.equal(await page.locator('.train-chart').count(), 7); // the losses, and the six measures (one-hot, entropy, W_q, W_k, symmetry, self)
  // The heads forming: each label's step marked on the loss curve; the slider goes back to the first map kept.
  const labelled = Number((await page.textContent('.train-timeline')).match(/from step (\d+)/)[1]);
  assert.deepEqual(await page.$$eval('.train-chart .label-mark', (ls) => ls.map((l) => Number(l.dataset.step))).then((steps) => steps.includes(labelled)), true);
  const slider = page.locator('.train-heads .train-scrub input');
  assert.equal(Number(await slider.getAttribute('max')) + 1 <= 48, true, 'at most 48 maps kept');
  await slider.focus();
  await page.keyboard.press('Home');
  await page.waitForFunction(() => Number(document.querySelector('.train-heads').dataset.step) <= 10);
  const earliest = await page.getAttribute('.train-heads', 'data-step');
  assert.match(await page.textContent('.train-heads h3'), new RegExp(`at step ${earliest}$`));
  assert.equal(await page.getAttribute('.train-chart .scrub-mark', 'data-step'), earliest);
  assert.ok(Number(earliest) < labelled, 'the first map kept is from before the head got its label');
  await page.keyboard.press('End');
  await page.waitForSelector('.train-heads[data-step="3000"]');
  assert.match(await page.textContent('.train-ready'), /Learning from \d+ tokens/);
  await page.click('#train-open');
  await page.waitForFunction(() => /on the model menu as “my-model-1”/.test(document.querySelector('.train-status').textContent));
  assert.deepEqual(await page.$$eval('#opt-model option', (options) => options.map((o) => o.value)), ['trained', 'my-model-1', 'random']);
  assert.equal(await page.inputValue('#opt-model'), 'my-model-1');
  await page.click('#step-rail button[data-step="softmax"]');
  await page.waitForSelector('body[data-step="softmax"][data-rendered]', { state: 'attached' });
  assert.equal(await page.locator('.head-grid:not(.train-heads .head-grid) .head-thumb').count(), 2, 'the lab draws the trained model\'s two heads');
  assert.deepEqual(problems, []);
  await context.close();
});

test('pause holds the run and resume goes on; stop ends it; the numbers are Node\'s for the same text and seed', { timeout: 120_000 }, async () => {
  const { context, page, problems } = await openLab();
  await setKnob(page, 'steps', 2000);
  await page.click('#train-start');
  await page.waitForFunction(() => Number(document.querySelector('.train-run-status')?.dataset.step) >= 50);
  await page.click('#train-pause');
  await waitState(page, 'paused');
  // Held once the worker hears the pause (a report it sent before that may still arrive), then still.
  await page.waitForFunction(() => document.querySelector('.train-run-status').dataset.held !== '');
  const held = Number(await page.getAttribute('.train-run-status', 'data-held'));
  assert.equal((await runState(page)).step, held, 'the step shown is the step held');
  await page.waitForTimeout(500);
  assert.equal((await runState(page)).step, held, 'no step while paused');
  assert.equal(await page.textContent('#train-pause'), 'Resume');
  await page.click('#train-pause');
  await page.waitForFunction((at) => Number(document.querySelector('.train-run-status').dataset.step) > at + 20, held);
  await page.click('#train-stop');
  await waitState(page, 'stopped');
  assert.ok((await runState(page)).step < 2000);

  // The worker's numbers, straight from the API in the page, against Node's.
  const settings = { layers: 1, heads: 2, dModel: 16, steps: 12, seed: 5 };
  const browser = await page.evaluate(async (s) => {
    const { startTraining: start } = await import('/lib/training.js');
    const text = await (await fetch('/models/training-text.txt')).text();
    const run = await start(text, s);
    const losses = [];
    for await (const r of run) losses.push(r.loss, r.gradWq, r.oneHotShare);
    run.dispose();
    return losses;
  }, settings);
  const node = await startTraining(readFileSync(`${WEB}models/training-text.txt`, 'utf8'), settings);
  const losses = [];
  for await (const r of node) losses.push(r.loss, r.gradWq, r.oneHotShare);
  node.dispose();
  assert.deepEqual(browser, losses);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the heads drawn are always of the sentence shown: an edit during a run is followed by its next reports', { timeout: 120_000 }, async () => {
  const { context, page, problems } = await openLab();
  await setKnob(page, 'steps', 2000);
  await page.click('#train-start');
  await page.waitForFunction(() => Number(document.querySelector('.train-heads')?.dataset.step) >= 50);
  // Each head's heat map is a token a column: 9 for [CLS] 我喜欢人工智能 [SEP].
  const widths = () => page.$$eval('.train-heads .head-thumb canvas', (els) => els.map((e) => e.width));
  assert.deepEqual(await widths(), [9, 9], 'the run starts on the page\'s sentence');
  const sentence = 'the cat sat on the mat with a dog today';
  await page.fill('#sentence', sentence);
  await page.waitForFunction((s) => document.querySelector('.train-heads h3')?.textContent.includes(s), sentence);
  const edited = Number(await page.getAttribute('.train-heads', 'data-step'));
  // Several reports later (one every 10 steps), the heads are still the new sentence's (ten words: 12 tokens or more).
  await page.waitForFunction((at) => Number(document.querySelector('.train-heads').dataset.step) >= at + 50, edited);
  for (const w of await widths()) assert.ok(w >= 12, `a heat map ${w} tokens wide`);
  assert.match(await page.textContent('.train-heads h3'), new RegExp(sentence));
  await page.click('#train-stop');
  await waitState(page, 'stopped');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the ÷√d_k experiment: two runs, the measures of both, and a verdict from their numbers', { timeout: 120_000 }, async () => {
  const { context, page, problems } = await openLab('&lang=zh');
  await setKnob(page, 'steps', 300);
  await setKnob(page, 'initScale', 1);
  await page.click('#train-compare');
  await waitState(page, 'finished', 'with');
  await waitState(page, 'finished', 'without');
  // The verdict is the trainer's (an answer that comes after both runs have finished): wait for it.
  await page.waitForSelector('.train-verdict[data-experiment="scaling"]:not([data-verdict="pending"])', { timeout: 30_000 });
  const verdict = await page.getAttribute('.train-verdict', 'data-verdict');
  assert.ok(['worse', 'better', 'same'].includes(verdict), verdict);
  assert.match(await page.textContent('.train-verdict'), /留出句子上的损失/);
  // Every chart of the measures has a line for each run.
  for (const figure of await page.locator('.train-measures .train-figure').all()) {
    assert.equal(await figure.locator('polyline.run-with').count(), 1);
    assert.equal(await figure.locator('polyline.run-without').count(), 1);
  }
  assert.equal(await page.locator('.train-heads').count(), 2);
  // The run without ÷√d_k has no model file; the one with it does.
  assert.equal(await page.locator('#train-open').count(), 1);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a start while another is still loading the trainer wins, and the first one lets go of its runs', { timeout: 120_000 }, async () => {
  const { context, page, problems } = await openLab();
  await setKnob(page, 'steps', 200);
  // Two starts in one task, before either has the training module: the experiment's two runs, then one run.
  await page.evaluate(() => {
    document.getElementById('train-compare').click();
    document.getElementById('train-start').click();
  });
  await waitState(page, 'finished', 'one');
  assert.equal(await page.locator('.train-run-status').count(), 1);
  assert.deepEqual(problems, []);
  await context.close();
});

test('bad input and faults: a setting out of range, a text too short, a trainer that cannot load; the page goes on', { timeout: 120_000 }, async () => {
  const { context, page, problems } = await openLab();
  await setKnob(page, 'heads', 9);
  await page.click('#train-start');
  await page.waitForFunction(() => /heads: 9 is outside its range \(1 … 8\)/.test(document.querySelector('.train-status').textContent));
  await setKnob(page, 'heads', 4);
  await setKnob(page, 'dModel', 30);
  await page.click('#train-start');
  await page.waitForFunction(() => /d_model \(30\) must be a multiple of the number of heads \(4\)/.test(document.querySelector('.train-status').textContent));
  await setKnob(page, 'dModel', 32);
  await setKnob(page, 'heads', 2.5);
  await page.click('#train-start');
  await page.waitForFunction(() => /heads: 2\.5\d* is not a value it can take/.test(document.querySelector('.train-status').textContent));
  await setKnob(page, 'heads', 2);
  await page.check('input[value="own"]');
  await page.fill('#train-text', '<img src=x onerror="window.pwned=1">Too short.\nStill short.');
  await page.dispatchEvent('#train-text', 'input');
  await page.click('#train-start');
  await page.waitForFunction(() => /at least 2000 tokens and 5 sentences are needed/.test(document.querySelector('.train-status').textContent));
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  assert.equal(await page.locator('#train-start').isEnabled(), true);
  await context.close();
  assert.deepEqual(problems, []);

  // The trainer's wasm missing: a message, and the main lab still works.
  const broken = await env.browser.newContext({ reducedMotion: 'reduce', locale: 'en-US' });
  await broken.route('**/attention-lab-trainer.wasm', (route) => route.fulfill({ status: 404, body: 'not found' }));
  const other = await broken.newPage();
  await other.goto(`${env.origin}/?experiment=train`);
  // The trainer opens with the lab (its knobs are its own): the message comes at once, and there is nothing to start.
  await other.waitForFunction(() => /Training failed: .*attention-lab-trainer\.wasm answered HTTP 404/.test(document.querySelector('.train-status')?.textContent));
  assert.equal(await other.locator('#train-start').count(), 0);
  await other.click('#next');
  await other.waitForSelector('body[data-step="embedding"]', { state: 'attached' });
  await broken.close();
});

test('in an <attention-lab> element: the lab trains and its model goes on that element\'s menu', { timeout: 120_000 }, async () => {
  const context = await env.browser.newContext({ reducedMotion: 'reduce', locale: 'en-US' });
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(`${env.origin}/element-demo.html`);
  await page.waitForSelector('body[data-first-ready][data-second-ready]', { state: 'attached' });
  await page.evaluate(() => document.getElementById('first').setAttribute('experiment', 'train'));
  const lab = page.locator('#first');
  await lab.locator('#train-start').waitFor();
  await lab.locator('#train-steps').fill('40');
  await lab.locator('#train-steps').dispatchEvent('change');
  await lab.locator('#train-start').click();
  await lab.locator('.train-run-status[data-state="finished"]').waitFor({ timeout: 60_000 });
  await lab.locator('#train-open').click();
  await page.waitForFunction(() => [...document.getElementById('first').shadowRoot.querySelectorAll('#opt-model option')].some((o) => o.value === 'my-model-1'));
  assert.equal(await page.locator('#second').locator('#opt-model option[value="my-model-1"]').count(), 0, 'the other lab\'s menu stays its own');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the offline file says the training lab needs the served page, and goes on', { timeout: 60_000 }, async () => {
  const context = await env.browser.newContext({ reducedMotion: 'reduce', locale: 'en-US' });
  const page = await context.newPage();
  await page.goto(`${new URL('../../web/generated/attention-lab.html', import.meta.url).href}?experiment=train`);
  await page.waitForFunction(() => /training lab needs the served page \(npm start\), whose Web Worker/.test(document.querySelector('.train-status')?.textContent ?? ''));
  assert.equal(await page.$('#train-start'), null, 'no controls that could train nothing');
  await page.click('#next');
  await page.waitForSelector('body[data-step="embedding"]', { state: 'attached' });
  await context.close();
});

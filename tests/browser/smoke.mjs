// The smoke suite every engine runs (firefox.browser.test.mjs, webkit.browser.test.mjs):
// the served page ready with a clean console and the softmax step's numbers the
// core's; a hidden character guessed as the core guesses it; a short training run in
// its Worker, through the training lab and through the API, with Node's numbers; the
// offline file from file://; the element demo, driven through an attribute; the tour's card and
// Your turn with the stylesheet they load. What
// each page shows is compared with the same wasm run in Node, so a wrong number, a
// missing view or a dead Worker fails here.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { loadAttentionLab } from 'attention-lab';
import { startTraining } from 'attention-lab/training';
import { startServer } from '../../scripts/serve.mjs';

const WEB = fileURLToPath(new URL('../../web/', import.meta.url));
const OFFLINE = pathToFileURL(`${WEB}generated/attention-lab.html`).href;
// Where the engines' screenshots go (for a person to look at): SCREENSHOTS=dir.
const SHOTS = process.env.SCREENSHOTS ?? null;
const HIDDEN = '猫坐在[MASK]子上';
const TRAIN = { layers: 1, heads: 2, dModel: 16, steps: 12, seed: 5 };

// ---- what runs in the page (each is sent as its source: it uses nothing from here) ----
async function waitFor(test, what, ms = 60_000) {
  const begin = Date.now();
  for (;;) {
    const value = test();
    if (value) return value;
    if (Date.now() - begin > ms) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => { setTimeout(resolve, 50); });
  }
}
const inPage = (fn) => `async (...args) => { const waitFor = ${waitFor}; return (${fn})(...args); }`;

const readView = inPage(async (scopeSelector) => {
  const frame = () => (scopeSelector ? document.querySelector(scopeSelector)?.shadowRoot?.querySelector('.al-frame') : document.body);
  await waitFor(() => frame()?.dataset.ready === 'true' && frame().dataset.rendered, 'the first view');
  const root = scopeSelector ? document.querySelector(scopeSelector).shadowRoot : document;
  return {
    step: frame().dataset.step, layer: Number(frame().dataset.layer), head: Number(frame().dataset.head), models: frame().dataset.models ?? null,
    chips: [...root.querySelectorAll('#token-chips .chip .text')].map((e) => e.textContent),
    weights: [...root.querySelectorAll('figure.stage-weights td[data-j]')].map((td) => Number(td.dataset.value)),
    title: root.getElementById('step-title').textContent,
  };
});

const guess = inPage(async (sentence) => {
  const box = document.getElementById('sentence');
  box.value = sentence;
  box.dispatchEvent(new Event('input', { bubbles: true }));
  await waitFor(() => document.querySelector('section.guess[data-mask="0"] figure.guesses li'), 'the guesses');
  return [...document.querySelectorAll('section.guess[data-mask="0"] figure.guesses li')].map((li) => li.dataset.token);
});

const trainInLab = inPage(async (steps) => {
  const start = await waitFor(() => document.getElementById('train-start'), 'the training lab');
  const knob = document.getElementById('train-steps');
  knob.value = String(steps);
  knob.dispatchEvent(new Event('change', { bubbles: true }));
  start.click();
  const status = await waitFor(() => document.querySelector('.train-run-status[data-state="finished"]'), 'the run to finish', 120_000);
  await waitFor(() => document.querySelector('.train-heads'), 'the heads of the run');
  document.querySelector('.training-lab').scrollIntoView(); // for the screenshot
  return { step: Number(status.dataset.step), loss: document.querySelector('.train-loss').textContent };
});

const trainThroughApi = inPage(async (settings) => {
  const { startTraining: start } = await import('/lib/training.js');
  const text = await (await fetch('/models/training-text.txt')).text();
  const run = await start(text, settings);
  const numbers = [];
  for await (const r of run) numbers.push(r.loss, r.gradWq, r.oneHotShare);
  run.dispose();
  return numbers;
});

const setAttributeAndWait = inPage(async (selector, name, value) => {
  document.querySelector(selector).setAttribute(name, value);
  const frame = () => document.querySelector(selector).shadowRoot.querySelector('.al-frame');
  await waitFor(() => frame().dataset.step === value, `step ${value}`);
  return frame().dataset.step;
});

// A computed style of the first element matching selector, once there. The tour's card and Your
// turn's exercises take theirs from later.css, which each links when it opens, and are drawn once it
// has loaded (web/app/ui/later-styles.js).
const styleOf = inPage(async (selector, property) => getComputedStyle(await waitFor(() => document.querySelector(selector), selector))[property]);

/** One engine's test file: the suite in the browser open() starts (engines.mjs), on web/ served as npm start serves it. */
export function smokeTest(title, open) {
  test(`${title}: the page, a guess, training in a Worker, the offline file, the element demo`, { timeout: 300_000 }, async (t) => {
    const server = await startServer({ root: WEB, port: 0, host: '127.0.0.1' });
    const driver = await open();
    try {
      t.diagnostic(`${driver.name} ${driver.version}`);
      await smoke(driver, `http://127.0.0.1:${server.address().port}`, t);
    } finally {
      await driver.close();
      server.close();
    }
  });
}

// ---- the suite -------------------------------------------------------------------
/** Runs every check in driver (engines.mjs) against the page served at origin. */
export async function smoke(driver, origin, t) {
  const core = await loadAttentionLab(); // the same wasm as the pages: the reference numbers
  const shot = async (name) => {
    if (!SHOTS) return;
    mkdirSync(SHOTS, { recursive: true });
    await driver.screenshot(`${SHOTS}/${driver.name}-${name}.png`);
  };
  const clean = async (where) => assert.deepEqual(await driver.problems(), [], `${driver.name}: ${where}`);
  const weightsOf = (sentence, where) => {
    const trace = core.run(sentence);
    const data = Array.from(trace.stage('weights', where).data);
    trace.dispose();
    return data;
  };
  const articleHead = (sentence) => {
    const trace = core.run(sentence);
    const { layer, head } = trace.articleHead(2);
    trace.dispose();
    return { layer, head };
  };

  await t.test('the page: ready, the softmax step the core\'s, a hidden character guessed as the core guesses it', async () => {
    await driver.goto(`${origin}/?step=softmax`);
    const view = await driver.evaluate(readView, null);
    const sentence = '我喜欢人工智能';
    assert.equal(view.step, 'softmax');
    assert.deepEqual(view.chips, [...core.run(sentence).tokens]);
    assert.deepEqual({ layer: view.layer, head: view.head }, articleHead(sentence), 'the core\'s article head for 喜');
    assert.deepEqual(view.weights, weightsOf(sentence, view), 'every weight on screen is the core\'s');
    await shot('page');
    assert.deepEqual(await driver.evaluate(guess, HIDDEN), core.predictMasked(HIDDEN)[0].map((g) => g.token));
    await clean('the page');
  });

  await t.test('training: a short run in the lab\'s Worker, and the API\'s numbers in the page are Node\'s', async () => {
    await driver.goto(`${origin}/?step=softmax&experiment=train`);
    await driver.evaluate(readView, null);
    const run = await driver.evaluate(trainInLab, 60);
    assert.equal(run.step, 60);
    assert.match(run.loss, /\d\.\d{3}/);
    await shot('training');
    const inBrowser = await driver.evaluate(trainThroughApi, TRAIN);
    const node = await startTraining(readFileSync(`${WEB}models/training-text.txt`, 'utf8'), TRAIN);
    const numbers = [];
    for await (const r of node) numbers.push(r.loss, r.gradWq, r.oneHotShare);
    node.dispose();
    assert.equal(inBrowser.length, TRAIN.steps * 3);
    assert.deepEqual(inBrowser, numbers);
    await clean('the training lab');
  });

  await t.test('the tour\'s card and Your turn from the link: drawn with their styles (later.css)', async () => {
    await driver.goto(`${origin}/?tour=article&card=2`);
    assert.equal(await driver.evaluate(styleOf, '#tour:not([hidden]):has(h2)', 'borderTopWidth'), '2px');
    await driver.goto(`${origin}/?exercises=dot&step=scores`);
    assert.equal(await driver.evaluate(styleOf, '.ex-form', 'display'), 'flex');
    await clean('the tour and Your turn');
  });

  await t.test('the offline file from file://: the trained model inside it, the core\'s numbers', async () => {
    await driver.goto(`${OFFLINE}?step=softmax`);
    const view = await driver.evaluate(readView, null);
    assert.equal(view.models, 'trained random');
    assert.deepEqual(view.weights, weightsOf('我喜欢人工智能', view));
    await clean('the offline file');
  });

  await t.test('the element demo: two labs, each in its language; an attribute moves one', async () => {
    await driver.goto(`${origin}/element-demo.html`);
    const first = await driver.evaluate(readView, '#first');
    const second = await driver.evaluate(readView, '#second');
    assert.equal(first.step, 'softmax');
    assert.equal(second.step, 'scaled');
    assert.deepEqual(first.weights, weightsOf('我喜欢人工智能', first));
    assert.deepEqual(second.chips, [...core.run('请[MASK]入密码').tokens]);
    assert.match(second.title, /缩放/);
    assert.equal(await driver.evaluate(setAttributeAndWait, '#first', 'step', 'scores'), 'scores');
    await driver.evaluate('async () => document.getElementById(\'second\').scrollIntoView()');
    await shot('element-demo');
    await clean('the element demo');
  });
}

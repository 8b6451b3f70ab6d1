// The page under attack and under failure: markup and absurd values in every
// URL parameter, rapid typing, many recomputes, and a core that cannot load.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { loadAttentionLab } from 'attention-lab';
import { startServer, STRICT_CSP } from '../../scripts/serve.mjs';
import { useServedChromium, watchProblems } from './chromium.mjs';
import { shownHead } from './page-helpers.mjs';

const WEB = fileURLToPath(new URL('../../web/', import.meta.url));
const MARKUP = '<img src=x onerror="window.pwned=1;alert(1)"><script>window.pwned=2</script>';
const core = await loadAttentionLab();
const env = useServedChromium(WEB);

async function open(url, { init } = {}) {
  const context = await env.browser.newContext({ reducedMotion: 'reduce' });
  const page = await context.newPage();
  if (init) await page.addInitScript(init);
  const problems = watchProblems(page);
  const dialogs = [];
  page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss(); });
  await page.goto(url);
  return { page, context, problems, dialogs };
}
const ready = (page) => page.waitForSelector('body[data-ready="true"]', { state: 'attached', timeout: 20_000 });
const chips = (page) => page.$$eval('#token-chips .chip .text', (els) => els.map((e) => e.textContent));
// The words the chips spell, WordPiece's ##pieces joined to the token before.
const words = (tokens) => tokens.join(' ').replace(/ ##/g, '').split(' ');
const notExecuted = async (page) => {
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  assert.equal(await page.$$eval('body img, body script:not([src])', (els) => els.length), 0);
};

test('markup in every URL parameter is shown as text or ignored, never run', async () => {
  const params = new URLSearchParams();
  for (const name of ['s', 'stage', 't', 'model', 'head', 'layer', 'dModel', 'dK', 'seed', 'scale', 'causal', 'positional', 'lab', 'lang', 'embed', 'origin', MARKUP]) params.set(name, MARKUP);
  const { page, context, dialogs } = await open(`${env.origin}/?${params}`);
  await ready(page);
  const notice = await page.textContent('#input-message');
  assert.match(notice, /Ignored link settings that are not valid: lab, lang, t, model, head, layer, dModel, dK, seed, scale, causal, positional/);
  assert.match(notice, /origin parameter is not an origin/);
  assert.match(notice, /no step called “<img/);
  assert.ok(words(await chips(page)).includes('onerror'), 'the sentence is tokenized as text');
  assert.equal(await page.$eval('#sentence', (e) => e.value), MARKUP);
  await page.click('#next');
  await page.waitForTimeout(300);
  await notExecuted(page);
  assert.deepEqual(dialogs, []);
  await context.close();
});

test('absurd URL values give a clear notice and a working page', async () => {
  const cases = [
    ['?dModel=99999999999&dK=64', /link’s settings are not valid \(d_model must be an integer from 1 to 1024, got 99999999999\); using the defaults/],
    ['?dK=-5', /d_k must be an integer from 1 to d_model \(768\), got -5/],
    ['?seed=1e400&scale=maybe', /Ignored link settings that are not valid: seed, scale/],
    [`?s=${'a.'.repeat(50000)}`, /link’s sentence cannot be shown \(the text is too long: it makes \d+ tokens/],
    [`?s=${'%20'.repeat(50)}`, /link’s sentence cannot be shown \(the text is empty/],
    ['?t=99999', null],
  ];
  for (const [query, expected] of cases) {
    const { page, context, problems } = await open(`${env.origin}/${query}`);
    await ready(page);
    if (expected) assert.match((await page.textContent('#input-message')).slice(0, 300), expected, query.slice(0, 40));
    assert.ok((await chips(page)).length >= 3, 'tokens are shown');
    await page.click('#step-rail button[data-step="softmax"]');
    await page.waitForSelector('figure.stage-weights', { state: 'attached' });
    assert.deepEqual(problems, [], query.slice(0, 40));
    await context.close();
  }
});

test('rapid typing leaves the page responsive and the final view matching the final text', async () => {
  const { page, context, problems } = await open(`${env.origin}/?step=scores`);
  await ready(page);
  const final = await page.evaluate(async () => {
    const input = document.getElementById('sentence');
    const alphabet = '我喜欢人工智能注意力 attention is all you need 😀';
    const renders = () => Number(document.body.dataset.rendered);
    const before = renders();
    let text = '';
    const end = performance.now() + 3000;
    let edits = 0;
    let pauses = 0;
    while (performance.now() < end) {
      // At most 20 characters: ≤ 22 tokens, so the scores keep their table of numbers.
      text = Array.from(text + [...alphabet][edits % [...alphabet].length]).slice(-20).join('');
      input.value = text;
      input.dispatchEvent(new Event('input', { bubbles: true }));
      edits += 1;
      if (edits % 5 === 0) await new Promise((r) => { setTimeout(r, 0); });
      // Now and then a pause past the typing debounce (180 ms): the page
      // recomputes and redraws in the middle of the burst.
      if (edits % 60 === 0) {
        await new Promise((r) => { setTimeout(r, 250); });
        pauses += 1;
      }
    }
    return { text, edits, pauses, renders: renders() - before };
  });
  // Bursts of keystrokes are taken at once (the debounce), and so are the
  // recomputes in the pauses: a page that blocked on each keystroke or on each
  // recompute would type far fewer.
  assert.ok(final.edits > 300, `only ${final.edits} edits in 3 s`);
  assert.ok(final.pauses >= 3, `only ${final.pauses} pauses`);
  // Each pause recomputed and redrew the view (the last one may still be under way).
  assert.ok(final.renders >= final.pauses - 1, `${final.renders} redraws in ${final.pauses} pauses`);
  const expected = core.run(final.text); // the trained model, seen through the head the page shows (below)
  // The last edit is drawn after the typing pause: wait for its tokens (the
  // default sentence may have as many, so a count alone could pass early).
  await page.waitForFunction((tokens) => {
    const shown = [...document.querySelectorAll('#token-chips .chip .text')].map((e) => e.textContent);
    return JSON.stringify(shown) === JSON.stringify(tokens)
      && document.querySelectorAll('figure.stage-scores td[data-j]').length === tokens.length ** 2;
  }, [...expected.tokens], { timeout: 5000 });
  assert.deepEqual(await chips(page), [...expected.tokens]);
  const cell = await page.$eval('figure.stage-scores td[data-i="1"][data-j="2"]', (td) => Number(td.dataset.value));
  assert.equal(cell, expected.stage('scores', await shownHead(page)).data[1 * expected.tokens.length + 2]);
  const t0 = Date.now();
  await page.click('#next');
  await page.waitForSelector('body[data-step="scaled"]', { state: 'attached' });
  assert.ok(Date.now() - t0 < 2000, 'still responsive');
  assert.deepEqual(problems, []);
  expected.dispose();
  await context.close();
});

test('10,000 recomputes leave the wasm heap flat', async () => {
  // The seeded model's causal switch, and the trained model's knock-out switch:
  // each change runs the core again (the lab draws once, when they stop). Run in
  // an <attention-lab> element (the page's own code), which shares its core with
  // the API this page imports: the core whose heap is read.
  for (const [model, selector] of [['random', '#opt-causal'], [null, '.head-card[data-head="1"] input[role="switch"]']]) {
    const { page, context, problems } = await open(`${env.origin}/element-demo.html`);
    await page.waitForSelector('body[data-first-ready][data-second-ready]', { state: 'attached', timeout: 20_000 });
    const result = await page.evaluate(async ([box, modelId]) => {
      const { loadAttentionLab: load } = await import('/lib/attention-lab.js');
      const api = await load(); // the elements' own instance: the loader is shared
      const lab = document.getElementById('first');
      lab.setAttribute('step', 'tokens');
      if (modelId) lab.setAttribute('model', modelId);
      const settle = () => new Promise((r) => { setTimeout(r, 200); }); // the redraw, and what it asks of the core
      await settle();
      const toggle = () => {
        const input = lab.shadowRoot.querySelector(box); // a redraw may replace it
        input.checked = !input.checked;
        input.dispatchEvent(new Event('change'));
      };
      toggle();
      toggle();
      await settle();
      const before = api.memoryUsage();
      for (let k = 0; k < 10_000; k += 1) toggle();
      await settle();
      return { before, after: api.memoryUsage() };
    }, [selector, model]);
    // A leak of even one byte per recompute would show as 10 KB; the allocator's
    // chunk rounding may move the total by a few bytes either way.
    assert.ok(Math.abs(result.after.heapBytesInUse - result.before.heapBytesInUse) < 1024,
      `${model}: heap ${result.before.heapBytesInUse} → ${result.after.heapBytesInUse}`);
    assert.equal(result.after.wasmMemoryBytes, result.before.wasmMemoryBytes);
    assert.equal(result.after.liveTraces, 2, 'one run a lab on the page');
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('a missing wasm file gives a readable message, not a blank page', async () => {
  const context = await env.browser.newContext();
  await context.route('**/attention-lab-core.wasm', (route) => route.fulfill({ status: 404, body: 'not found' }));
  const page = await context.newPage();
  await page.goto(`${env.origin}/`);
  await page.waitForSelector('#loading.error', { state: 'attached' });
  const text = await page.textContent('#loading');
  assert.match(text, /could not start.*could not be fetched.*npm start/s);
  assert.match(text, /HTTP 404/);
  assert.ok(await page.isVisible('#loading'));
  await context.close();
});

test('a policy that blocks WebAssembly is named in the message', async () => {
  const strictNoWasm = await startServer({ root: WEB, port: 0, host: '127.0.0.1',
    csp: STRICT_CSP.replace(" 'wasm-unsafe-eval'", '') });
  const context = await env.browser.newContext();
  const page = await context.newPage();
  await page.goto(`http://127.0.0.1:${strictNoWasm.address().port}/`);
  await page.waitForSelector('#loading.error', { state: 'attached', timeout: 20_000 });
  assert.match(await page.textContent('#loading'), /Content-Security-Policy blocks WebAssembly.*'wasm-unsafe-eval'/);
  await context.close();
  strictNoWasm.close();
});

test('a browser without WebAssembly is told so', async () => {
  const { page, context } = await open(`${env.origin}/`, { init: () => { delete globalThis.WebAssembly; } });
  await page.waitForSelector('#loading.error', { state: 'attached' });
  assert.match(await page.textContent('#loading'), /cannot run WebAssembly/);
  await context.close();
});

test('bad input gets a clear message and the last good view stays', async () => {
  const { page, context, problems } = await open(`${env.origin}/?step=scores`);
  await ready(page);
  await page.fill('#sentence', '   ');
  await page.waitForSelector('#input-message:not([hidden])');
  assert.match(await page.textContent('#input-message'), /empty/);
  assert.equal(await page.$$eval('figure.stage-scores td[data-j]', (tds) => tds.length), 81, 'the last good view stays');
  await page.fill('#sentence', '字'.repeat(600));
  await page.waitForFunction(() => /too long/.test(document.getElementById('input-message').textContent));
  await page.fill('#sentence', 'back to normal');
  await page.waitForFunction(() => document.getElementById('input-message').hidden);
  // The seeded model's sizes can be typed; nonsense in them is refused by name.
  await page.selectOption('#opt-model', 'random');
  await page.waitForFunction(() => !document.getElementById('opt-dK').disabled);
  await page.fill('#opt-dK', '5000');
  await page.press('#opt-dK', 'Enter');
  await page.waitForFunction(() => /d_k must be an integer/.test(document.getElementById('input-message').textContent));
  await page.fill('#opt-dModel', '');
  await page.press('#opt-dModel', 'Enter');
  await page.waitForFunction(() => /dModel must be an integer/.test(document.getElementById('input-message').textContent));
  assert.deepEqual(problems, []);
  await context.close();

  const link = await open(`${env.origin}/?step=nowhere&dK=abc&seed=-4`);
  await ready(link.page);
  const notice = await link.page.textContent('#input-message');
  assert.match(notice, /Ignored link settings that are not valid: dK/);
  assert.match(notice, /no step called “nowhere”/);
  assert.match(notice, /seed must be an integer from 0/);
  assert.equal(await link.page.getAttribute('body', 'data-step'), 'tokens');
  await link.context.close();
});

test('markup in the sentence is shown as text and runs nothing', async () => {
  const attack = '<img src=x onerror=alert(1)><script>alert(2)</script>';
  const { page, context, dialogs, problems } = await open(`${env.origin}/?s=${encodeURIComponent(attack)}&step=scores`);
  await ready(page);
  await page.fill('#sentence', `${attack} 我`);
  await page.waitForFunction(() => [...document.querySelectorAll('#token-chips .chip .text')].map((e) => e.textContent)
    .join(' ').replace(/ ##/g, '').split(' ').includes('onerror'));
  assert.equal(await page.$$eval('body img, body script:not([src])', (els) => els.length), 0);
  assert.ok((await chips(page)).includes(core.run('<').tokens[1]), 'the < is a token of its own');
  await page.waitForTimeout(300);
  assert.deepEqual(dialogs, []);
  assert.deepEqual(problems.filter((p) => !/Failed to load resource/.test(p)), []);
  await context.close();
});

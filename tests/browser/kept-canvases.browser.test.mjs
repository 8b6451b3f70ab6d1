// Canvases kept for their trace (keptCanvas in web/app/matrix/heat-canvas.js), in
// real Chromium. The Q, K, V stage's weight thumbnails: each shows its own
// weight matrix (pixel colours from the core's W, the page's colour scale),
// is drawn once per trace and shown again when the stage comes back (the
// warm-up draws it out of sight while the learner reads), answers a hover with
// the weight under the mouse, and a new seed draws new ones. The embedding
// strips: an animation cut short leaves strips unpainted and hidden, and a
// later drawing without animation shows them all, painted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { loadAttentionLab } from 'attention-lab';
import { makeScale } from '../../web/app/matrix/colors.js';
import { fmt } from '../../web/app/ui/format.js';
import { clickNextThenAFrame, openWithClockPaused, useServedChromium, watchProblems } from './chromium.mjs';
import { canvasPixels } from './pixels.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SENTENCE = '我喜欢人工智能';
const core = await loadAttentionLab();
const env = useServedChromium(`${ROOT}web`);

const stepTo = async (page, stage) => {
  await page.click(`#step-rail button[data-step="${stage}"]`);
  await page.waitForFunction((id) => document.body.dataset.step === id && document.body.dataset.rendered
    && !document.querySelector('#step-body .pending'), stage);
};

/** Each thumbnail's size, its pixels at `points` ([row, col] pairs), and whether it carries `mark`. */
async function thumbs(page, points, mark) {
  const selector = '#step-body canvas.params-thumb';
  const marked = await page.$$eval(selector, (els, key) => els.map((c) => Boolean(c[key])), mark);
  return (await canvasPixels(page, selector, points)).map((read, k) => ({ ...read, marked: marked[k] }));
}

/** The RGBA bytes the page's scale gives w[r, c] (its 1024-colour table included). */
function expectedPixel(w, r, c) {
  const bytes = new Uint8ClampedArray(4);
  makeScale('diverging', w.min, w.max).fill(w.data.subarray(r * w.cols + c), bytes, 1);
  return [...bytes];
}

function assertThumbsShow(shown, trace, points, label) {
  assert.equal(shown.length, 3, label);
  ['wq', 'wk', 'wv'].forEach((id, k) => {
    const w = trace.stage(id);
    assert.deepEqual(shown[k].size, [w.cols, w.rows], `${label}: ${id} size`);
    points.forEach(([r, c], p) => assert.deepEqual(shown[k].pixels[p], expectedPixel(w, r, c), `${label}: ${id}[${r}, ${c}]`));
  });
}

test('the weight thumbnails show W_q, W_k, W_v, are kept for their trace, and a new seed draws new ones', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'no-preference' });
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(`${env.origin}/?step=embedding&model=random`); // the seeded head: its sizes, its seed
  await page.waitForSelector('body[data-warm-up="done"]', { state: 'attached', timeout: 20_000 });
  const points = [[0, 0], [1, 5], [383, 31], [767, 63]];

  // Animated: each lane's thumbnail takes its place as the lane appears.
  await stepTo(page, 'qkv');
  const trace = core.run(SENTENCE, { model: 'random' });
  assertThumbsShow(await thumbs(page, points, 'kept'), trace, points, 'first showing');
  await page.$$eval('#step-body canvas.params-thumb', (els) => els.forEach((c) => { c.kept = true; }));

  // Away and back: the same three canvases, not drawn again.
  await stepTo(page, 'scores');
  await stepTo(page, 'qkv');
  const again = await thumbs(page, points, 'kept');
  assert.deepEqual(again.map((t) => t.marked), [true, true, true]);
  assertThumbsShow(again, trace, points, 'shown again');

  // Hovering a thumbnail names the weight under the mouse.
  const wk = trace.stage('wk');
  const thumb = page.locator('#step-body canvas.params-thumb').nth(1);
  await thumb.scrollIntoViewIfNeeded();
  const box = await thumb.boundingBox();
  // A thumbnail pixel covers several weights, and the mouse lands on whole pixels: aim at one,
  // near weight (100, 10), and expect the weight under it.
  const [x, y] = [Math.round(box.x + ((10.5 / wk.cols) * box.width)), Math.round(box.y + ((100.5 / wk.rows) * box.height))];
  const [row, col] = [Math.floor(((y - box.y) / box.height) * wk.rows), Math.floor(((x - box.x) / box.width) * wk.cols)];
  assert.ok(Math.abs(row - 100) <= 6 && Math.abs(col - 10) <= 1, `(${row}, ${col}) is near (100, 10)`);
  await page.mouse.move(x, y);
  assert.equal(await page.textContent('#tooltip'), `W_k[${row + 1}, ${col + 1}] = ${fmt(wk.data[row * wk.cols + col], 4)}`);
  await page.mouse.move(0, 0);

  // A new seed is a new trace: new weights, new thumbnails.
  await page.fill('#opt-seed', '7');
  await page.press('#opt-seed', 'Enter');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('seed') === '7');
  await stepTo(page, 'scores');
  await stepTo(page, 'qkv');
  const reseeded = await thumbs(page, points, 'kept');
  assert.deepEqual(reseeded.map((t) => t.marked), [false, false, false]);
  const trace7 = core.run(SENTENCE, { model: 'random', seed: 7 });
  assertThumbsShow(reseeded, trace7, points, 'seed 7');
  assert.notDeepEqual(reseeded[0].pixels, again[0].pixels);

  assert.deepEqual(problems, []);
  trace.dispose();
  trace7.dispose();
  await context.close();
});

test('embedding strips left unpainted by an animation cut short are shown painted by the next drawing', async () => {
  // The page's clock stands still: the animation stops at its first pause, every strip still hidden and unpainted.
  const { context, page, problems } = await openWithClockPaused(env, '/?step=tokens');
  await clickNextThenAFrame(page);
  const strips = '#step-body .embed-strips canvas';
  await page.waitForFunction(() => document.querySelectorAll('#step-body .embed-strips canvas.pending').length === 27);
  await page.$$eval(strips, (els) => els.forEach((c) => { c.kept = true; }));
  // The learner moves on, then comes back with animations off: the same strips, drawn at once.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.click('#step-rail button[data-step="tokens"]');
  await page.waitForFunction(() => document.body.dataset.step === 'tokens');
  await page.click('#step-rail button[data-step="embedding"]');
  await page.waitForFunction(() => document.body.dataset.step === 'embedding' && document.body.dataset.rendered);
  const shown = await page.$$eval(strips, (els) => els.map((c) => {
    const copy = document.createElement('canvas');
    copy.width = c.width;
    copy.height = c.height;
    const ctx = copy.getContext('2d', { willReadFrequently: true });
    ctx.drawImage(c, 0, 0);
    const alpha = [...ctx.getImageData(0, 0, c.width, 1).data].filter((_, k) => k % 4 === 3);
    return { kept: Boolean(c.kept), pending: c.classList.contains('pending'), painted: alpha.every((a) => a === 255) };
  }));
  assert.equal(shown.length, 27); // 9 tokens × (embedding, position, x)
  assert.ok(shown.every((s) => s.kept), 'the strips made before are shown again');
  assert.ok(shown.every((s) => !s.pending), 'none left hidden');
  assert.ok(shown.every((s) => s.painted), 'every strip painted');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the matrices drawn as pixels (x, Q, K, V) are canvases kept for their values, and a kept one answers with the view that shows it', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'no-preference' });
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(`${env.origin}/?step=embedding&model=random`); // the seeded head: its sizes, its seed
  await page.waitForSelector('body[data-warm-up="done"]', { state: 'attached', timeout: 20_000 });
  const trace = core.run(SENTENCE, { model: 'random' });
  const ids = ['x', 'q', 'k', 'v'];
  const mats = Object.fromEntries(ids.map((id) => [id, trace.stage(id)]));
  const lo = Math.min(mats.q.min, mats.k.min, mats.v.min);
  const hi = Math.max(mats.q.max, mats.k.max, mats.v.max);
  const points = [[0, 0], [2, 5], [8, 63]];
  const expected = (id, [r, c]) => {
    const m = mats[id];
    const bytes = new Uint8ClampedArray(4);
    const scale = id === 'x' ? makeScale('diverging', m.min, m.max) : makeScale('diverging', lo, hi);
    scale.fill(m.data.subarray(r * m.cols + c), bytes, 1);
    return [...bytes];
  };
  const grids = async () => {
    const selector = '#step-body .pixels canvas.heat';
    const about = await page.$$eval(selector, (els) => els.map((c) => ({ stage: c.closest('figure').dataset.stage, kept: Boolean(c.kept) })));
    return (await canvasPixels(page, selector, points)).map((read, k) => ({ ...about[k], pixels: read.pixels }));
  };
  const assertShown = (shown, label) => {
    assert.deepEqual(shown.map((g) => g.stage), ids, label);
    for (const g of shown) points.forEach((p, k) => assert.deepEqual(g.pixels[k], expected(g.stage, p), `${label}: ${g.stage}[${p}]`));
  };

  await stepTo(page, 'qkv');
  const first = await grids();
  assertShown(first, 'first showing');
  // Drawn out of sight by the warm-up, so already kept on the first showing; marked to follow them.
  await page.$$eval('#step-body .pixels canvas.heat', (els) => els.forEach((c) => { c.kept = true; }));
  await stepTo(page, 'scores');
  await stepTo(page, 'qkv');
  const again = await grids();
  assert.deepEqual(again.map((g) => g.kept), [true, true, true, true], 'the same canvases, not drawn again');
  assertShown(again, 'shown again');

  // Shown three times (warm-up, first showing, again), it carries one listener per event type:
  // the handlers of the view that shows it now, none left from the views before.
  const cdp = await context.newCDPSession(page);
  const { result } = await cdp.send('Runtime.evaluate', { expression: "document.querySelector('figure.stage-q canvas.heat')" });
  const { listeners } = await cdp.send('DOMDebugger.getEventListeners', { objectId: result.objectId });
  assert.deepEqual(listeners.map((l) => l.type).sort(), ['blur', 'focus', 'keydown', 'mousedown', 'mouseleave', 'mousemove']);
  // The kept Q canvas answers a hover and the keyboard with this view's words.
  const q = mats.q;
  const grid = page.locator('figure.stage-q canvas.heat');
  await grid.scrollIntoViewIfNeeded();
  const box = await grid.boundingBox();
  await page.mouse.move(box.x + ((5.5 / q.cols) * box.width), box.y + ((2.5 / q.rows) * box.height));
  const tip = await page.textContent('#tooltip');
  assert.ok(tip.startsWith('q[喜], column 6 = x[喜] · W_q[:, 6]'), tip);
  assert.ok(tip.endsWith(`= ${fmt(q.data[2 * q.cols + 5], 3)}`), tip);
  await page.mouse.move(0, 0);
  await grid.focus();
  await page.keyboard.press('ArrowRight'); // one handler per key, however often the canvas was shown: one column
  const spoken = await page.textContent('figure.stage-q .pixels [aria-live]');
  assert.ok(spoken.startsWith('q[喜], column 2 '), spoken); // from the followed token's row, column 1
  assert.ok(spoken.endsWith(`= ${fmt(q.data[2 * q.cols + 1], 3)}`), spoken);

  // Another sentence is another trace: new canvases.
  await page.fill('#sentence', '我喜欢人工智慧');
  await page.waitForFunction(() => [...document.querySelectorAll('#token-chips .chip .text')].some((e) => e.textContent === '慧'));
  await stepTo(page, 'scores');
  await stepTo(page, 'qkv');
  assert.deepEqual((await grids()).map((g) => g.kept), [false, false, false, false]);

  assert.deepEqual(problems, []);
  trace.dispose();
  await context.close();
});

test('keptCanvas hands a canvas out once per task: the same matrix shown twice gets two canvases', async () => {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(`${env.origin}/`);
  const seen = await page.evaluate(async () => {
    const { keptCanvas } = await import('/app/matrix/heat-canvas.js');
    const source = {};
    const make = () => document.createElement('canvas');
    const a = keptCanvas(source, 'k', make);
    const b = keptCanvas(source, 'k', make); // same task, a not yet on the page
    await new Promise((resolve) => { setTimeout(resolve, 0); });
    const c = keptCanvas(source, 'k', make); // a later task: the kept one (the last made), off the page
    document.body.append(c);
    const d = keptCanvas(source, 'k', make); // on the page: a new one
    c.remove();
    return { twoInOneTask: a !== b, laterKept: c === b, notWhileShown: d !== c };
  });
  assert.deepEqual(seen, { twoInOneTask: true, laterKept: true, notWhileShown: true });
  assert.deepEqual(problems, []);
  await context.close();
});

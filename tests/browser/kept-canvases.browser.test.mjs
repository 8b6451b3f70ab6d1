// Canvases kept for their trace (keptCanvas in web/app/heat-canvas.js), in
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
import { makeScale } from '../../web/app/colors.js';
import { fmt } from '../../web/app/format.js';
import { useServedChromium, watchProblems } from './chromium.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SENTENCE = '我喜欢人工智能';
const lab = await loadAttentionLab();
const env = useServedChromium(`${ROOT}web`);

const stepTo = async (page, stage) => {
  await page.click(`#stage-rail button[data-stage="${stage}"]`);
  await page.waitForFunction((id) => document.body.dataset.stage === id && document.body.dataset.rendered
    && !document.querySelector('#stage-body .pending'), stage);
};

/** Each thumbnail's size, its pixels at `points` ([row, col] pairs), and whether it carries `mark`. */
const thumbs = (page, points, mark) => page.$$eval('#stage-body canvas.weights-thumb', (els, [pts, key]) => els.map((c) => {
  // Read through a copy: reading the page's own canvas back would make Chromium advise on its set-up.
  const copy = document.createElement('canvas');
  copy.width = c.width;
  copy.height = c.height;
  const ctx = copy.getContext('2d', { willReadFrequently: true });
  ctx.drawImage(c, 0, 0);
  return {
    size: [c.width, c.height],
    pixels: pts.map(([r, col]) => [...ctx.getImageData(col, r, 1, 1).data]),
    marked: Boolean(c[key]),
  };
}), [points, mark]);

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
  await page.goto(`${env.origin}/?stage=embedding`);
  await page.waitForSelector('body[data-warm-up="done"]', { state: 'attached', timeout: 20_000 });
  const points = [[0, 0], [1, 5], [383, 31], [767, 63]];

  // Animated: each lane's thumbnail takes its place as the lane appears.
  await stepTo(page, 'qkv');
  const trace = lab.run(SENTENCE);
  assertThumbsShow(await thumbs(page, points, 'kept'), trace, points, 'first showing');
  await page.$$eval('#stage-body canvas.weights-thumb', (els) => els.forEach((c) => { c.kept = true; }));

  // Away and back: the same three canvases, not drawn again.
  await stepTo(page, 'scores');
  await stepTo(page, 'qkv');
  const again = await thumbs(page, points, 'kept');
  assert.deepEqual(again.map((t) => t.marked), [true, true, true]);
  assertThumbsShow(again, trace, points, 'shown again');

  // Hovering a thumbnail names the weight under the mouse.
  const wk = trace.stage('wk');
  const thumb = page.locator('#stage-body canvas.weights-thumb').nth(1);
  await thumb.scrollIntoViewIfNeeded();
  const box = await thumb.boundingBox();
  await page.mouse.move(box.x + ((10.5 / wk.cols) * box.width), box.y + ((100.5 / wk.rows) * box.height));
  assert.equal(await page.textContent('#tooltip'), `W_k[101, 11] = ${fmt(wk.data[100 * wk.cols + 10], 4)}`);
  await page.mouse.move(0, 0);

  // A new seed is a new trace: new weights, new thumbnails.
  await page.fill('#opt-seed', '7');
  await page.press('#opt-seed', 'Enter');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('seed') === '7');
  await stepTo(page, 'scores');
  await stepTo(page, 'qkv');
  const reseeded = await thumbs(page, points, 'kept');
  assert.deepEqual(reseeded.map((t) => t.marked), [false, false, false]);
  const trace7 = lab.run(SENTENCE, { seed: 7 });
  assertThumbsShow(reseeded, trace7, points, 'seed 7');
  assert.notDeepEqual(reseeded[0].pixels, again[0].pixels);

  assert.deepEqual(problems, []);
  trace.dispose();
  trace7.dispose();
  await context.close();
});

test('embedding strips left unpainted by an animation cut short are shown painted by the next drawing', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'no-preference' });
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.clock.install();
  await page.goto(`${env.origin}/?stage=tokens`);
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
  // From here the page's clock stands still (install() alone lets it run): the animation stops at its
  // first pause, every strip still hidden and unpainted.
  await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1000));
  await page.click('#next');
  const strips = '#stage-body .embed-strips canvas';
  await page.waitForFunction(() => document.querySelectorAll('#stage-body .embed-strips canvas.pending').length === 27);
  await page.$$eval(strips, (els) => els.forEach((c) => { c.kept = true; }));
  // The learner moves on, then comes back with animations off: the same strips, drawn at once.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.click('#stage-rail button[data-stage="tokens"]');
  await page.waitForFunction(() => document.body.dataset.stage === 'tokens');
  await page.click('#stage-rail button[data-stage="embedding"]');
  await page.waitForFunction(() => document.body.dataset.stage === 'embedding' && document.body.dataset.rendered);
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

// A course site that mounts and removes <attention-lab> (a single-page app moving
// between lessons) gets back what each lab took: 100 elements mounted and removed,
// some before their first view, some with a training run going in its Worker,
// some mid-animation, some mid-tour. Afterwards no Worker is left, the core's live
// traces and Embind handles are back to their count before the first, every removed
// element is collected, and the JS heap's objects after a collection are within a
// small margin of the first rounds'.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { useServedChromium, watchLabMemory, watchProblems } from './chromium.mjs';

const WEB = fileURLToPath(new URL('../../web/', import.meta.url));
const env = useServedChromium(WEB);

const ROUNDS = 100;
// Round k's kind: what is going on when its element is removed. The first five
// rounds are one of each: what a lab loads once (the tour's and the training
// lab's chunks, the trainer) is loaded by then, and the heap is measured there.
const KINDS = ['training', 'loading', 'tour', 'loading', 'animating', 'loading', 'ready', 'loading', 'ready', 'loading'];
const kindOf = (k) => KINDS[k % KINDS.length];
const FIRST_OF_EACH = 4;

test('100 elements mounted and removed leave no Worker, no trace, no handle and no heap behind', { timeout: 300_000 }, async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'no-preference' });
  const page = await context.newPage();
  const problems = watchProblems(page);
  const { workers, counts, heapWithoutCode, held } = await watchLabMemory(context, page);
  await page.goto(`${env.origin}/element-demo.html`);
  await page.waitForSelector('body[data-first-ready][data-second-ready]', { state: 'attached', timeout: 30_000 });
  // The demo's own two labs stay; the rounds mount theirs in a box of their own.
  await page.evaluate(() => document.body.append(Object.assign(document.createElement('div'), { id: 'rounds' })));
  const before = await counts();

  const frame = page.locator('#rounds attention-lab .al-frame');
  const inLab = (selector) => page.locator(`#rounds attention-lab ${selector}`);
  let firstHeap = null;
  const seen = { training: 0, tour: 0, animating: 0, loading: 0, ready: 0 };
  for (let k = 0; k < ROUNDS; k += 1) {
    const kind = kindOf(k);
    await page.evaluate(([round, tour]) => {
      const lab = document.createElement('attention-lab');
      lab.setAttribute('sentence', round % 2 ? '我喜欢人工智能' : 'the cat sat on the mat');
      lab.setAttribute('lang', round % 4 < 2 ? 'en' : 'zh');
      if (tour) lab.setAttribute('tour', 'article');
      document.getElementById('rounds').append(lab);
      (window.roundLabs ??= []).push(new WeakRef(lab));
    }, [k, kind === 'tour']);
    // (waitForSelector's handle would keep the element alive: it is let go at once)
    if (kind !== 'loading') await (await page.waitForSelector('#rounds attention-lab .al-frame[data-ready="true"]', { state: 'attached', timeout: 30_000 })).dispose();
    if (kind === 'training') {
      await page.evaluate(() => document.querySelector('#rounds attention-lab').setAttribute('experiment', 'train'));
      await inLab('#train-start').click();
      await inLab('.train-run-status[data-state="running"]').waitFor({ timeout: 30_000 });
      assert.ok(workers.size >= 1, 'the run trains in a Worker');
    } else if (kind === 'tour') {
      await inLab('#tour-title').waitFor({ timeout: 10_000 });
      await inLab('.tour-next').click(); // the next card: a step drawn, animated
    } else if (kind === 'animating') {
      const drawn = await frame.getAttribute('data-rendered');
      await inLab('#next').click();
      await inLab('#play').click(); // and playing on
      assert.equal(await frame.getAttribute('data-rendered'), drawn, 'removed before the step is drawn');
    }
    seen[kind] += 1;
    await page.evaluate(() => {
      document.querySelector('#rounds attention-lab').remove();
      document.getElementById('log').replaceChildren(); // the demo's log of events: the page's, not the lab's
    });
    if (k === FIRST_OF_EACH) firstHeap = await heapWithoutCode();
    if (process.env.HEAPLOG && k % 10 === 9) console.log(k, await heapWithoutCode());
  }
  assert.deepEqual(seen, { training: 10, tour: 10, animating: 10, loading: 50, ready: 20 });
  await page.waitForTimeout(500); // a removal ends its lab in a microtask; a Worker's close is reported soon after
  assert.equal(workers.size, 0, 'every training run\'s Worker is terminated');
  assert.deepEqual(await counts(), before, 'the core holds no trace and no handle of a removed lab');
  const lastHeap = await heapWithoutCode();
  // (an animation cut short may hold its lab until its last wait ends)
  assert.deepEqual(await held('roundLabs', 10_000), [], 'the rounds whose element is still held');
  // A lab kept alive (its words, views, closures and arrays) is about 50 KB of these: 95 of them would be 5 MB.
  assert.ok(lastHeap - firstHeap < 1024 * 1024, `heap ${(firstHeap / 1e6).toFixed(2)} MB after one round of each kind, ${(lastHeap / 1e6).toFixed(2)} MB after ${ROUNDS}`);
  // Nothing of a removed lab is drawn, heard or timed afterwards.
  assert.deepEqual(problems, []);
  await context.close();
});

test('a lab moved within the page keeps its view; one put back after its removal starts again from its attributes', { timeout: 60_000 }, async () => {
  const context = await env.browser.newContext({ reducedMotion: 'reduce' });
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(`${env.origin}/element-demo.html`);
  await page.waitForSelector('body[data-first-ready][data-second-ready]', { state: 'attached', timeout: 30_000 });
  const first = page.locator('#first .al-frame');
  await page.locator('#first #next').click();
  await page.waitForSelector('#first .al-frame[data-step="weighted-sum"]', { state: 'attached' });
  // A move (removed and put back in one task): the same lab, still on the step the learner reached.
  await page.evaluate(() => document.body.append(document.getElementById('first')));
  await page.waitForTimeout(100);
  assert.equal(await first.getAttribute('data-step'), 'weighted-sum');
  assert.equal(await first.getAttribute('data-ready'), 'true');
  // Removed, then put back later: a new lab, on the step its attribute names.
  await page.evaluate(async () => {
    const lab = document.getElementById('first');
    lab.remove();
    await new Promise((resolve) => { setTimeout(resolve, 50); });
    document.body.append(lab);
    await lab.ready;
  });
  assert.equal(await first.getAttribute('data-step'), 'softmax');
  assert.equal(await page.locator('#first .al-frame').count(), 1, 'one frame in its shadow root, not two');
  await page.locator('#first #next').click();
  await page.waitForSelector('#first .al-frame[data-step="weighted-sum"]', { state: 'attached' });
  assert.deepEqual(problems, []);
  await context.close();
});

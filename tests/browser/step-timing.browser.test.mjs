// When a step to another step is drawn, in real Chromium with the page's clock
// (and so its animation frames) under the test's control. An animated step is
// drawn right after the next frame, not in the click's own task: a click late
// in a frame would otherwise make the next frame late (the view's script and
// its first frame are more than one frame's time on a slow machine). The rail
// answers at once; steps clicked within one frame draw only the last; with
// reduced motion a step is drawn at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { openWithClockPaused, useServedChromium } from './chromium.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const env = useServedChromium(`${ROOT}web`);

async function openAt(step) {
  const { context, page, problems } = await openWithClockPaused(env, `/?step=${step}`); // no frame comes but for runFor()
  // Each time the page draws a step from now on, the step it leaves.
  await page.evaluate(() => {
    window.left = [];
    new MutationObserver((records) => window.left.push(...records.map((r) => r.oldValue)))
      .observe(document.body, { attributes: true, attributeFilter: ['data-step'], attributeOldValue: true });
  });
  return { context, page, problems };
}

/** Clicks Next `times` times in one task; what the page shows when that task is over. */
const clickNext = (page, times = 1) => page.evaluate((n) => {
  for (let k = 0; k < n; k += 1) document.getElementById('next').click();
  return {
    step: document.body.dataset.step,
    title: document.getElementById('step-title').textContent,
    rail: document.querySelector('#step-rail [aria-current="step"]')?.dataset.step,
  };
}, times);

test('an animated step is drawn right after the next frame; the rail answers at once', async () => {
  const { context, page, problems } = await openAt('qkv');
  const title = await page.textContent('#step-title');
  assert.deepEqual(await clickNext(page), { step: 'qkv', title, rail: 'scores' });
  await page.waitForTimeout(150); // no frame meanwhile: nothing drawn
  assert.deepEqual(await page.evaluate(() => [document.body.dataset.step, window.left]), ['qkv', []]);
  await page.clock.runFor(20); // one frame
  await page.waitForFunction(() => document.body.dataset.step === 'scores');
  assert.match(await page.textContent('#step-title'), /^4\. /);
  assert.ok(await page.$('#step-body table[role="grid"]'), 'the Q·Kᵀ table is drawn');
  assert.deepEqual(problems, []);
  await context.close();
});

test('steps clicked within one frame draw only the last; with reduced motion a step is drawn at once', async () => {
  const { context, page, problems } = await openAt('qkv');
  assert.equal((await clickNext(page, 2)).rail, 'scaled');
  await page.clock.runFor(20);
  await page.waitForFunction(() => document.body.dataset.step === 'scaled');
  await page.clock.runFor(100);
  assert.deepEqual(await page.evaluate(() => window.left), ['qkv'], 'Q·Kᵀ, stepped over, is never drawn');
  await page.emulateMedia({ reducedMotion: 'reduce' });
  assert.equal((await clickNext(page)).step, 'softmax');
  assert.deepEqual(problems, []);
  await context.close();
});

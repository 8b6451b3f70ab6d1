// Accessibility: axe-core on every step in light and dark, a keyboard-only
// walk, the live region, and reduced motion.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { useServedChromium, watchProblems } from './chromium.mjs';
import { axeViolations } from './page-helpers.mjs';

const WEB = fileURLToPath(new URL('../../web/', import.meta.url));
import { STEPS } from '../../web/app/steps/index.js';

const STEP_IDS = STEPS.map((s) => s.id);
const env = useServedChromium(WEB);

test('axe-core finds no serious or critical violation on any step, light or dark', async () => {
  for (const colorScheme of ['light', 'dark']) {
    // bypassCSP only so the test can inject axe-core as an inline script.
    const context = await env.browser.newContext({ colorScheme, reducedMotion: 'reduce', bypassCSP: true });
    const page = await context.newPage();
    for (const id of STEP_IDS) {
      await page.goto(`${env.origin}/?step=${id}`);
      await page.waitForSelector('body[data-rendered]', { state: 'attached' });
      assert.deepEqual(await axeViolations(page), [], `${colorScheme} ${id}`);
    }
    await context.close();
  }
});

test('keyboard only: tab to the rail, step with the keys, read a cell, hear the step', async () => {
  const context = await env.browser.newContext({ reducedMotion: 'reduce' });
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(`${env.origin}/`);
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
  // Tab from the top until the first rail button has the focus, then press Enter on Q·Kᵀ.
  for (let k = 0; k < 40; k += 1) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(() => document.activeElement?.dataset.step === 'tokens')) break;
  }
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.step), 'tokens');
  for (let k = 0; k < 3; k += 1) await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.step), 'scores');
  await page.keyboard.press('Enter');
  await page.waitForSelector('body[data-step="scores"]', { state: 'attached' });
  assert.match(await page.textContent('#announcer'), /Step 4 of 9: Q·Kᵀ/);
  // Every step by the arrow keys (focus on the body, not in a grid).
  await page.evaluate(() => document.activeElement.blur());
  await page.keyboard.press('Home');
  for (const id of STEP_IDS.slice(1)) {
    await page.keyboard.press('ArrowRight');
    await page.waitForSelector(`body[data-step="${id}"]`, { state: 'attached' });
  }
  // A focused cell shows its arithmetic and a visible focus ring.
  await page.click('#step-rail button[data-step="softmax"]');
  await page.focus('figure.stage-weights td[tabindex="0"]');
  assert.match(await page.textContent('#tooltip'), /exp\(s − max\) \/ Σ/);
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
  assert.notEqual(outline, 'none');
  assert.deepEqual(problems, []);
  await context.close();
});

test('matrices are tables a screen reader can read; reduced motion makes steps instant', async () => {
  const context = await env.browser.newContext({ reducedMotion: 'reduce' });
  const page = await context.newPage();
  await page.goto(`${env.origin}/?step=scores`);
  await page.waitForSelector('body[data-rendered]', { state: 'attached' });
  const rowHeaders = await page.$$eval('figure.stage-scores tbody th[scope="row"]', (ths) => ths.map((t) => t.textContent));
  assert.equal(rowHeaders[2], '喜');
  const label = await page.getAttribute('figure.stage-scores td[data-i="2"][data-j="3"]', 'aria-label');
  assert.match(label, /^喜, 欢: /);
  assert.equal(await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--motion').trim()), '0ms');
  const t0 = Date.now();
  await page.click('#next');
  await page.waitForSelector('body[data-step="scaled"][data-rendered]', { state: 'attached' });
  assert.ok(Date.now() - t0 < 1000, 'no animation to wait for');
  await context.close();
});

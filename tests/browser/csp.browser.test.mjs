// The strict policy course pages use, default-src 'self'; script-src 'self'
// 'wasm-unsafe-eval': the page, the <attention-lab> element and the offline
// file (under its own, stricter policy) cause no violation and log nothing,
// through their steps, labs and exercises.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { STRICT_CSP } from '../../scripts/serve.mjs';
import { useServedChromium, watchProblems } from './chromium.mjs';
import { STRINGS_ZH } from '../../web/app/strings/zh.js';

const WEB = fileURLToPath(new URL('../../web/', import.meta.url));
const OFFLINE = fileURLToPath(new URL('../../web/generated/attention-lab.html', import.meta.url));
const env = useServedChromium(WEB);

async function visit(url, ready, walk) {
  const context = await env.browser.newContext({ reducedMotion: 'reduce' });
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.addInitScript(() => {
    window.violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.violations.push(`${e.violatedDirective} ${e.blockedURI}`), true);
  });
  const response = await page.goto(url);
  await page.waitForSelector(ready, { state: 'attached', timeout: 30_000 });
  await walk(page);
  await page.waitForTimeout(200);
  const violations = await page.evaluate(() => window.violations);
  await context.close();
  return { response, problems, violations };
}

const ZH_NEXT = STRINGS_ZH['page.nextTitle'];

// Next through every step, a lab opened, an exercise answered (scrolled to: Your turn
// loads when it comes into view), the page in Chinese (its words load then), inside
// `root`, a lab's scope.
async function walkLab(page, root = '') {
  for (let k = 0; k < 8; k += 1) await page.click(`${root} #next`);
  await page.click(`${root} #experiment-tabs button[data-experiment="scaling"]`);
  await page.locator(`${root} .exercise-panel`).scrollIntoViewIfNeeded();
  await page.fill(`${root} #exercise-answer`, '0.5');
  await page.click(`${root} .ex-check`);
  await page.hover(`${root} #token-chips .chip >> nth=2`);
  await page.selectOption(`${root} #lang`, 'zh');
  await page.waitForSelector(`${root} #next[title="${ZH_NEXT}"]`, { state: 'attached' });
}

test('the served page: the policy is the strict one, and nothing is blocked', { timeout: 90_000 }, async () => {
  assert.equal(STRICT_CSP, "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'");
  const { response, problems, violations } = await visit(`${env.origin}/index.html?step=tokens`, 'body[data-ready="true"]', (page) => walkLab(page));
  assert.equal(response.headers()['content-security-policy'], STRICT_CSP);
  assert.deepEqual(violations, []);
  assert.deepEqual(problems, []);
  const icon = await fetch(`${env.origin}/favicon.svg`);
  assert.equal(icon.status, 200, 'the icon is a file of the site, not a data: URL the policy blocks');
});

test('two elements on a course page: nothing is blocked', { timeout: 90_000 }, async () => {
  const { problems, violations } = await visit(`${env.origin}/element-demo.html`, 'body[data-first-ready][data-second-ready]',
    (page) => walkLab(page, '#second'));
  assert.deepEqual(violations, []);
  assert.deepEqual(problems, []);
});

test('the offline file from file://: nothing is blocked by its own policy; its link sets the exercises', { timeout: 90_000 }, async () => {
  const { problems, violations } = await visit(`${pathToFileURL(OFFLINE).href}?step=tokens&lang=zh&exercises=scaled:2:3,output`,
    'body[data-ready="true"]', async (page) => {
      assert.match(await page.textContent('.ex-progress'), /第 1 题，共 2 题/);
      await walkLab(page);
    });
  assert.deepEqual(violations, []);
  assert.deepEqual(problems, []);
});

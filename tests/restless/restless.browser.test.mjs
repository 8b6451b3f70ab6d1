// A restless learner: seeded random actions across the whole page (clicks on whatever can be
// clicked, typing, the menus, keys), quickly, without waiting for anything to finish, as a learner
// clicking everywhere at once would. No page error, no console error may follow. A seed that fails
// is printed with the actions before it, so the run can be repeated (RESTLESS_SEEDS, RESTLESS_ACTIONS;
// RESTLESS_STACKS=1 prints each page error's stack). `npm run test:restless`; not part of `npm test`:
// what it finds depends on timing, so a pass proves little and a failure is a lead for a lifetime bug.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { useServedChromium, watchProblems } from '../browser/chromium.mjs';

const WEB = fileURLToPath(new URL('../../web/', import.meta.url));
const env = useServedChromium(WEB);
const ACTIONS = Number(process.env.RESTLESS_ACTIONS ?? 300);
const SEEDS = (process.env.RESTLESS_SEEDS ?? '3,11').split(',').map(Number);

// mulberry32: a small seeded generator, the same sequence for the same seed.
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SENTENCES = ['我喜欢人工智能', '', 'The animal did not cross the street because it was too tired.', '小猫饿了，它想吃鱼', '<b>x</b>', '😀 emoji', '我[MASK]欢你', 'a'];
const CLICKABLE = 'button:not([disabled]), .chip, th.row-label, .head-thumb, summary, input[type="checkbox"], [role="tab"]';

async function act(page, next, log) {
  const kind = next();
  if (kind < 0.62) {
    const targets = await page.$$(CLICKABLE);
    const visible = [];
    for (const t of targets) if (await t.isVisible().catch(() => false)) visible.push(t);
    if (!visible.length) return;
    const target = visible[Math.floor(next() * visible.length)];
    log.push(`click ${await target.evaluate((el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${el.className} "${el.textContent.trim().slice(0, 20)}"`).catch(() => '?')}`);
    await target.click({ timeout: 500, noWaitAfter: true }).catch(() => {});
  } else if (kind < 0.74) {
    const text = SENTENCES[Math.floor(next() * SENTENCES.length)];
    log.push(`type "${text}"`);
    await page.fill('#sentence', text, { timeout: 500 }).catch(() => {});
  } else if (kind < 0.86) {
    const selects = await page.$$('select');
    const visible = [];
    for (const s of selects) if (await s.isVisible().catch(() => false)) visible.push(s);
    if (!visible.length) return;
    const select = visible[Math.floor(next() * visible.length)];
    const options = await select.evaluate((el) => [...el.options].filter((o) => !o.disabled).map((o) => o.value));
    const value = options[Math.floor(next() * options.length)];
    log.push(`select ${await select.evaluate((el) => el.id)} = ${value}`);
    await select.selectOption(value, { timeout: 500 }).catch(() => {});
  } else {
    const keys = ['ArrowRight', 'ArrowLeft', 'Home', 'Space', 'Tab', 'Enter', 'Escape'];
    const key = keys[Math.floor(next() * keys.length)];
    log.push(`key ${key}`);
    await page.keyboard.press(key).catch(() => {});
  }
  if (next() < 0.3) await page.waitForTimeout(Math.floor(next() * 120));
}

for (const seed of SEEDS) {
  test(`a restless learner, seed ${seed}: ${ACTIONS} random actions and no page error`, { timeout: 240_000 }, async () => {
    // The page's own animations run (no reduced motion): a learner does not wait for them.
    const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'no-preference' });
    const page = await context.newPage();
    const problems = watchProblems(page);
    const dialogs = [];
    page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss().catch(() => {}); });
    page.on('filechooser', () => {});
    if (process.env.RESTLESS_STACKS) page.on('pageerror', (e) => console.log(e.stack));
    await page.goto(`${env.origin}/?s=${encodeURIComponent('我喜欢人工智能')}`);
    await page.waitForSelector('body[data-ready="true"]', { state: 'attached', timeout: 20_000 });
    const next = random(seed);
    const log = [];
    page.on('popup', (p) => p.close().catch(() => {}));
    for (let k = 0; k < ACTIONS; k += 1) {
      await act(page, next, log);
      if (problems.length) break;
    }
    await page.waitForTimeout(1500); // what was deferred runs
    assert.deepEqual(problems, [], `seed ${seed}, after:\n${log.slice(-12).join('\n')}`);
    assert.deepEqual(dialogs, []);
    await context.close();
  });
}

import { launchChromium, watchProblems } from './browser/chromium.mjs';
import { startServer } from '../scripts/serve.mjs';
import { fileURLToPath } from 'node:url';
const server = await startServer({ root: fileURLToPath(new URL('../web/', import.meta.url)), port: 0, host: '127.0.0.1' });
const origin = `http://127.0.0.1:${server.address().port}`;
const browser = await launchChromium();
const all = [];
for (const [name, viewport] of [['desktop', { width: 1280, height: 900 }], ['phone', { width: 390, height: 844 }]]) {
  for (const lang of ['en', 'zh']) {
    const context = await browser.newContext({ viewport, reducedMotion: 'reduce', deviceScaleFactor: 1 });
    const page = await context.newPage();
    const problems = watchProblems(page);
    await page.goto(`${origin}/?lang=${lang}&step=softmax&experiment=train`);
    await page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
    await page.waitForSelector('#train-start');
    await page.fill('#train-steps', '300');
    await page.dispatchEvent('#train-steps', 'change');
    await page.fill('#train-heads', '3');
    await page.dispatchEvent('#train-heads', 'change');
    await page.locator('.training-lab').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `/tmp/shots2/train-knobs-${name}-${lang}.png` });
    await page.fill('#train-heads', '2');
    await page.dispatchEvent('#train-heads', 'change');
    await page.click('#train-compare');
    await page.waitForSelector('.train-verdict:not([data-verdict="pending"])', { timeout: 120000 });
    await page.locator('.train-verdict').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `/tmp/shots2/train-verdict-${name}-${lang}.png` });
    await page.goto(`${origin}/?lang=${lang}&step=tokens&s=${encodeURIComponent('İ cat sat on the mat')}`);
    await page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
    await page.click('.token-step .chip[data-i="2"] button');
    await page.waitForSelector('section.guess[data-mask="0"] figure.guesses li');
    await page.screenshot({ path: `/tmp/shots2/hide-${name}-${lang}.png`, fullPage: false });
    all.push([name, lang, await page.inputValue('#sentence'), problems]);
    await context.close();
  }
}
const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
const page = await context.newPage();
const problems = watchProblems(page);
await page.goto(`${origin}/element-demo.html`);
await page.waitForSelector('body[data-first-ready][data-second-ready]', { state: 'attached' });
await page.screenshot({ path: '/tmp/shots2/element-demo-chromium.png' });
all.push(['element', problems]);
console.log(JSON.stringify(all));
await browser.close(); server.close();

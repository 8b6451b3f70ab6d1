// What a narrow or a wide screen shows whole: the step rail keeps the current step in
// view, the examples menu its placeholder, a wide matrix scrolls by itself (not the step
// around it), and the keys' plane keeps its y axis's caption above the points.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { useServedChromium } from './chromium.mjs';
import { openPage, rendered } from './page-helpers.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const env = useServedChromium(`${ROOT}web`);
const PHONE = { width: 390, height: 844 };

/** The rail as it stands: whether the current step's button lies in its visible box, whether it
 *  scrolls, and how far the page is scrolled. */
function railState() {
  const rail = document.querySelector('.rail ol');
  const box = rail.getBoundingClientRect();
  const at = rail.querySelector('button[aria-current="step"]').getBoundingClientRect();
  return { inside: at.left >= box.left - 1 && at.right <= box.right + 1, scrolls: rail.scrollWidth > rail.clientWidth, pageY: scrollY };
}

/** railState() once the button is inside (the lab scrolls the rail after a paint), or after 3 s. */
async function railView(page) {
  await page.waitForFunction(() => {
    const rail = document.querySelector('.rail ol');
    const box = rail.getBoundingClientRect();
    const at = rail.querySelector('button[aria-current="step"]').getBoundingClientRect();
    return at.left >= box.left - 1 && at.right <= box.right + 1;
  }, null, { timeout: 3000 }).catch(() => {});
  return page.evaluate(railState);
}

test('on a phone the rail brings the current step into view, by the buttons and by the address, without scrolling the page', async () => {
  for (const lang of ['en', 'zh']) {
    const { page, context, problems } = await openPage(env, `?lang=${lang}&step=softmax`, { viewport: PHONE });
    await rendered(page, 'softmax');
    let view = await railView(page);
    assert.ok(view.scrolls, 'the rail is wider than a phone');
    assert.ok(view.inside, `${lang}: softmax is in the rail's view`);
    await page.click('#next');
    await page.click('#next');
    await page.click('#next');
    await rendered(page, 'concat');
    view = await railView(page);
    assert.ok(view.inside, `${lang}: the last step is in the rail's view`);
    await page.evaluate(() => scrollTo(0, 300));
    const pageY = await page.evaluate(() => scrollY);
    await page.click('#restart');
    await rendered(page, 'tokens');
    view = await railView(page);
    assert.ok(view.inside, `${lang}: the first step is in the rail's view`);
    assert.equal(view.pageY, pageY, `${lang}: the page stays where it was`);
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('on a phone the examples menu shows its placeholder whole', async () => {
  for (const lang of ['en', 'zh', 'zh-Hant']) {
    const { page, context } = await openPage(env, `?lang=${lang}`, { viewport: PHONE });
    const { width, needed } = await page.$eval('#presets', (select) => {
      const style = getComputedStyle(select);
      const probe = document.createElement('span');
      probe.style.font = style.font;
      probe.style.whiteSpace = 'nowrap';
      probe.textContent = select.options[select.selectedIndex].text;
      document.body.append(probe);
      const text = probe.getBoundingClientRect().width;
      probe.remove();
      // The text, the select's padding, and room for its arrow (about 1.25 em).
      const padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
      return { width: select.getBoundingClientRect().width, needed: text + padding + 1.25 * parseFloat(style.fontSize) };
    });
    assert.ok(width >= needed, `${lang}: ${width} px for ${needed} px`);
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), PHONE.width);
    await context.close();
  }
});

test('a matrix wider than its step scrolls by itself: the step around it does not', async () => {
  const { page, context } = await openPage(env, '?lang=en&step=softmax');
  await rendered(page, 'softmax');
  const sizes = await page.evaluate(() => {
    const block = document.querySelector('#step-body figure.stage-weights > .table-stack');
    const body = document.getElementById('step-body');
    return { block: [block.scrollWidth, block.clientWidth], body: [body.scrollWidth, body.clientWidth] };
  });
  assert.ok(sizes.block[0] > sizes.block[1], `the weights' table (${sizes.block}) is wider than its step at 1280 px`);
  assert.ok(sizes.body[0] <= sizes.body[1], `the step body (${sizes.body}) does not scroll`);
  await context.close();
});

test('the keys\' plane: the y axis\'s caption sits above every point and label, in both languages', async () => {
  for (const lang of ['en', 'zh']) {
    const { page, context, problems } = await openPage(env, `?lang=${lang}&experiment=geometry`);
    await page.waitForSelector('.geometry-keys');
    const { caption, highest } = await page.evaluate(() => {
      const svg = document.querySelector('.geometry-plane svg');
      const labels = [...svg.querySelectorAll('text.axis-label')];
      const y = labels.at(-1).getBoundingClientRect();
      const marks = [...svg.querySelectorAll('.key circle, .key text, path.query')].map((e) => e.getBoundingClientRect().top);
      return { caption: y.bottom, highest: Math.min(...marks) };
    });
    assert.ok(caption <= highest, `${lang}: caption bottom ${caption}, highest point ${highest}`);
    assert.deepEqual(problems, []);
    await context.close();
  }
});

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

test('the keys\' plane: its captions clear of the points and of each other, inside the picture, and legible on a phone, in both languages', async () => {
  for (const [lang, viewport] of [['en', undefined], ['zh', undefined], ['en', PHONE], ['zh', PHONE]]) {
    const { page, context, problems } = await openPage(env, `?lang=${lang}&experiment=geometry`, viewport ? { viewport } : {});
    await page.waitForSelector('.geometry-keys');
    const r = await page.evaluate(() => {
      const svg = document.querySelector('.geometry-plane svg');
      const box = (e) => e.getBoundingClientRect();
      const [x, y] = [...svg.querySelectorAll('text.axis-label')].map(box);
      const marks = [...svg.querySelectorAll('.key circle, .key text, path.query')].map((e) => box(e).top);
      const labels = [...svg.querySelectorAll('text.axis-label, .key text, .query-label')].map((e) => box(e).height);
      return { picture: box(svg), x, y, query: box(svg.querySelector('.query-label')), highest: Math.min(...marks), smallest: Math.min(...labels) };
    });
    const where = `${lang} at ${viewport?.width ?? 1280} px`;
    assert.ok(r.y.bottom <= r.highest, `${where}: the y caption's bottom ${r.y.bottom}, the highest point ${r.highest}`);
    assert.ok(r.y.top >= r.picture.top, `${where}: the y caption (top ${r.y.top}) is cut by the picture's top (${r.picture.top})`);
    const apart = r.x.bottom <= r.query.top || r.query.bottom <= r.x.top || r.x.right <= r.query.left || r.query.right <= r.x.left;
    assert.ok(apart, `${where}: the x caption ${JSON.stringify(r.x)} overlaps the query's label ${JSON.stringify(r.query)}`);
    // A label's box is its line's height: 14 px and more is text of 11 px and more.
    assert.ok(r.smallest >= 14, `${where}: a label's box is ${r.smallest.toFixed(1)} px high`);
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('on a phone no experiment makes the page scroll sideways: long column names, row labels and the article\'s printed numbers wrap', { timeout: 180_000 }, async () => {
  for (const [lang, query] of [['en', `&s=${encodeURIComponent('the cat sat on the mat because it was tired')}`], ['zh', '']]) {
    const { page, context, problems } = await openPage(env, `?lang=${lang}${query}&experiment=variance`, { viewport: PHONE });
    const ids = await page.$$eval('#experiment-tabs button[data-experiment]', (bs) => bs.map((b) => b.dataset.experiment));
    assert.ok(ids.length >= 14, ids.join());
    const wide = [];
    for (const id of ids) {
      await page.click(`#experiment-tabs button[data-experiment="${id}"]`);
      await page.waitForSelector('.experiment-body .experiment-loading', { state: 'detached' });
      await page.waitForTimeout(300);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      if (width > PHONE.width) wide.push(`${id} ${width}`);
    }
    assert.deepEqual(wide, [], `${lang}: experiments wider than the phone`);
    assert.deepEqual(problems, []);
    await context.close();
  }
});

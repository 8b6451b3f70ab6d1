// The guided tour of the article (?tour=article): its cards drive the lab to
// the article's sentence, 喜 and the head where 喜 looks at 欢; its predict-first
// questions are answered with the core's numbers; Back, Next, Leave, a link
// that reopens a card, Chinese, the element's attribute and a host's message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { loadAttentionLab } from 'attention-lab';
import { CARDS } from '../../web/app/tour/article-tour.js';
import { useServedChromium, waitForParam } from './chromium.mjs';
import { openPage } from './page-helpers.mjs';

const WEB = fileURLToPath(new URL('../../web/', import.meta.url));
const env = useServedChromium(WEB);
const core = await loadAttentionLab();

// The head where 喜 (token 2) gives 欢 (token 3) the most weight, as the core has it.
function articleHead() {
  const trace = core.run('我喜欢人工智能');
  let best = null;
  for (let layer = 0; layer < trace.config.layers; layer += 1) {
    for (let head = 0; head < trace.config.heads; head += 1) {
      const row = trace.softmaxRow(2, { layer, head });
      if (!best || row.probs[3] > best.p) best = { layer, head, p: row.probs[3], argmax: row.argmax, maxProb: row.maxProb, scores: row.scores };
    }
  }
  trace.dispose();
  return best;
}

test('the tour goes through the article card by card, on 喜 and the head that looks at 欢', { timeout: 90_000 }, async () => {
  const head = articleHead();
  const { page, context, problems } = await openPage(env, '?s=hello%20world&model=random&step=softmax');
  assert.equal(await page.isHidden('#tour'), true, 'no tour unless asked');
  await page.click('#tour-start');
  await page.waitForSelector('#tour-title[data-card="sentence"]');
  assert.equal(await page.inputValue('#sentence'), '我喜欢人工智能', 'the article\'s sentence');
  assert.equal(await page.getAttribute('body', 'data-step'), 'tokens');
  assert.equal(await page.inputValue('#opt-model'), 'trained', 'on the trained model');
  await waitForParam(page, 'tour', 'article');

  for (let k = 1; k < CARDS.length; k += 1) {
    await page.click('.tour-next');
    const card = CARDS[k];
    await page.waitForSelector(`#tour-title[data-card="${card.id}"]`);
    await page.waitForSelector(`body[data-step="${card.step}"]`, { state: 'attached' });
    assert.match(await page.textContent('.tour-of'), new RegExp(`${k + 1} of ${CARDS.length}`));
    if (card.follow) {
      assert.equal(await page.textContent('#token-chips .chip[aria-pressed="true"] .text'), '喜');
      assert.match(await page.textContent('#tour'), card.id === 'scores' ? new RegExp(`head ${head.head + 1} of layer ${head.layer + 1}`) : /./);
    }
    if (card.predict === 'attend') {
      const wrong = head.argmax === 1 ? 4 : 1; // a token the row does not peak at
      await page.click(`.tour-choice[data-choice="${wrong}"]`);
      await page.waitForSelector('.tour-feedback.wrong');
      assert.match(await page.textContent('.tour-feedback'), new RegExp(`gives ${['[CLS]', '我', '喜', '欢', '人', '工', '智', '能', '[SEP]'][head.argmax]} the largest weight, ${head.maxProb.toFixed(2)}`));
      await page.click(`.tour-choice[data-choice="${head.argmax}"]`);
      await page.waitForSelector('.tour-feedback.right');
    }
    if (card.predict === 'unscaled') {
      assert.equal(await page.isHidden('.experiment-sides'), true, 'the answer waits for the prediction');
      const unscaled = core.softmaxRow(head.scores, { dK: 1 }).maxProb;
      const scaled = core.softmaxRow(head.scores, { dK: 32 }).maxProb;
      const right = unscaled > scaled + 0.01 ? 'peaked' : unscaled < scaled - 0.01 ? 'flatter' : 'same';
      await page.click(`.tour-choice[data-choice="${right}"]`);
      await page.waitForSelector('.tour-feedback.right');
      assert.match(await page.textContent('.tour-feedback'), new RegExp(`${unscaled.toFixed(3)} without scaling and ${scaled.toFixed(3)} with it`));
      await page.waitForSelector('.experiment-sides');
    }
    if (card.experiment && !card.predict) await page.waitForSelector(`#experiment-tabs button[data-experiment="${card.experiment}"][aria-pressed="true"]`);
  }
  await page.click('.tour-back');
  await page.waitForSelector(`#tour-title[data-card="${CARDS.at(-2).id}"]`);
  await waitForParam(page, 'card', String(CARDS.length - 2));
  // A link to the tour reopens the same card.
  const link = page.url();
  await page.click('.tour-next');
  await page.click('.tour-next'); // Finish
  await page.waitForSelector('#tour', { state: 'hidden' });
  const again = await context.newPage();
  await again.goto(link);
  await again.waitForSelector(`#tour-title[data-card="${CARDS.at(-2).id}"]`);
  await again.click('.tour-leave');
  await again.waitForSelector('#tour', { state: 'hidden' });
  assert.deepEqual(problems, []);
  await context.close();
});

test('the tour in Chinese, on a phone, without a missing word', { timeout: 60_000 }, async () => {
  const { page, context, problems } = await openPage(env, '?lang=zh&tour=article&card=3', { viewport: { width: 390, height: 844 } });
  await page.waitForSelector('#tour-title[data-card="scores"]');
  assert.match(await page.textContent('#tour'), /先猜一猜/);
  assert.equal(await page.evaluate(() => document.getElementById('tour').textContent.includes('⟦')), false);
  const box = await page.locator('#tour').boundingBox();
  assert.ok(box.width <= 390, 'fits the phone');
  const bad = await openPage(env, '?tour=<b>x</b>');
  assert.match(await bad.page.textContent('#input-message'), /tour/);
  assert.equal(await bad.page.isHidden('#tour'), true);
  await bad.context.close();
  assert.deepEqual(problems, []);
  await context.close();
});

test('a course page opens the tour: the element\'s tour attribute, and a framed lab\'s "set" message', { timeout: 90_000 }, async () => {
  const context = await env.browser.newContext({ reducedMotion: 'reduce' });
  const page = await context.newPage();
  await page.addInitScript(() => {
    window.tours = [];
    document.addEventListener('tour', (e) => window.tours.push({ id: e.target.id, ...e.detail }));
  });
  await page.goto(`${env.origin}/element-demo.html`);
  await page.waitForSelector('body[data-first-ready][data-second-ready]', { state: 'attached', timeout: 30_000 });
  await page.evaluate(() => document.getElementById('second').setAttribute('tour', 'article'));
  await page.waitForSelector('#second #tour-title[data-card="sentence"]');
  assert.equal(await page.isHidden('#first #tour'), true, 'only the second takes the tour');
  await page.locator('#second .tour-next').click();
  await page.waitForFunction(() => window.tours.some((t) => t.card === 'embedding'));
  assert.deepEqual(await page.evaluate(() => window.tours.at(-1)), { id: 'second', tour: 'article', card: 'embedding', index: 1, count: 11, finished: false });
  await page.evaluate(() => document.getElementById('second').removeAttribute('tour'));
  await page.waitForSelector('#second #tour', { state: 'hidden' });

  await page.goto(`${env.origin}/embed-demo.html`);
  await page.waitForSelector('body[data-lab-ready="true"]', { state: 'attached', timeout: 30_000 });
  const frame = page.frameLocator('#lab');
  await page.evaluate(() => document.getElementById('lab').contentWindow.postMessage({ protocol: 'attention-lab', type: 'set', tour: 'article', card: 2 }, location.origin));
  await frame.locator('#tour-title[data-card="qkv"]').waitFor();
  await page.evaluate(() => document.getElementById('lab').contentWindow.postMessage({ protocol: 'attention-lab', type: 'set', tour: 'nope' }, location.origin));
  await page.waitForFunction(() => [...document.querySelectorAll('#log li')].some((li) => li.textContent.includes('tour must be')));
  await context.close();
});

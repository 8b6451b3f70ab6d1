// The guided tour of the article (?tour=article): its cards drive the lab to
// the article's sentence, 喜 and the core's article head; its predict-first
// questions are answered with the core's numbers; Back, Next, Leave, a link
// that reopens a card, Chinese, the element's attribute and a host's message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { loadAttentionLab } from 'attention-lab';
import { CARDS } from '../../web/app/tour/article-tour.js';
import { fmt } from '../../web/app/ui/format.js';
import { useServedChromium, waitForParam } from './chromium.mjs';
import { openPage } from './page-helpers.mjs';

const WEB = fileURLToPath(new URL('../../web/', import.meta.url));
const env = useServedChromium(WEB);
const core = await loadAttentionLab();

// The head where 喜 (token 2) gives 欢 (token 3) the most weight, as the core has it.
function articleHead() {
  const trace = core.run('我喜欢人工智能');
  const a = trace.articleHead(2); // the head the lab and the tour open on for 喜
  const row = trace.softmaxRow(2, { layer: a.layer, head: a.head });
  trace.dispose();
  return { layer: a.layer, head: a.head, neighbour: a.neighbour, next: a.next, weight: a.weight, argmax: row.argmax, maxProb: row.maxProb, scores: row.scores };
}

test('the tour goes through the article\'s three points card by card, each answer hidden until predicted', { timeout: 90_000 }, async () => {
  const head = articleHead();
  const { page, context, problems } = await openPage(env, '?s=hello%20world&model=random&step=softmax');
  assert.equal(await page.isHidden('#tour'), true, 'no tour unless asked');
  await page.click('#tour-start');
  await page.waitForSelector('#tour-title[data-card="sentence"]');
  assert.equal(await page.inputValue('#sentence'), '我喜欢人工智能', 'the article\'s sentence');
  assert.equal(await page.getAttribute('body', 'data-step'), 'tokens');
  assert.equal(await page.inputValue('#opt-model'), 'trained', 'on the trained model');
  await waitForParam(page, 'tour', 'article');

  const tokens = ['[CLS]', '我', '喜', '欢', '人', '工', '智', '能', '[SEP]'];
  for (let k = 1; k < CARDS.length; k += 1) {
    await page.click('.tour-next');
    const card = CARDS[k];
    await page.waitForSelector(`#tour-title[data-card="${card.id}"]`);
    await page.waitForSelector(`body[data-step="${card.step}"]`, { state: 'attached' });
    assert.match(await page.textContent('.tour-of'), new RegExp(`${k + 1} of ${CARDS.length}`));
    const text = await page.textContent('#tour');
    assert.doesNotMatch(text, /below|as the article describes/, 'no "below", no claim the article describes this head');
    if (card.follow) {
      assert.equal(await page.textContent('#token-chips .chip[aria-pressed="true"] .text'), '喜');
      if (card.id === 'scores') assert.match(text, new RegExp(`head ${head.head + 1} of layer ${head.layer + 1}`));
    }
    if (card.predict) {
      // The answer is not on screen before the learner answers: not in the card, not in the side panel.
      assert.equal(await page.$('.tour-feedback'), null);
      assert.equal(await page.$('.tour-open'), null, 'the experiment waits for the prediction');
      const probs = await page.$$eval('#detail-body td[data-col="probs"]', (tds) => tds.filter((td) => td.offsetParent !== null).length);
      if (card.step === 'scores') assert.equal(probs, 0, 'the side panel shows no weights before softmax');
    }
    if (card.predict === 'attend') {
      assert.doesNotMatch(await page.textContent('.tour-text'), /欢/, 'the card does not name the answer');
      const wrong = head.argmax === 1 ? 4 : 1; // a token the row does not peak at
      await page.click(`.tour-choice[data-choice="${wrong}"]`);
      await page.waitForSelector('.tour-feedback.wrong');
      const said = await page.textContent('.tour-feedback');
      assert.match(said, new RegExp(`gives “${tokens[head.argmax]}” the largest weight, ${head.maxProb.toFixed(2)}`));
      // Why the lab opens on this head, with the neighbour the core found, before or after (the article's is after: 欢).
      assert.ok(said.includes(`This head looks at the ${head.next ? 'next' : 'previous'} one, “${tokens[head.neighbour]}” (${head.weight.toFixed(2)})`), said);
      // The article's row as it is: the most among the others to 欢, the most of all to 喜 itself.
      assert.ok(said.includes('欢 (0.23)') && said.includes('its largest weight of all stays on 喜 itself (0.40)'), said);
      await page.click(`.tour-choice[data-choice="${head.argmax}"]`);
      await page.waitForSelector('.tour-feedback.right');
    }
    if (card.predict === 'growth') {
      const g = core.varianceGrowth(32, 64);
      await page.click(`.tour-choice[data-choice="${g.growth}"]`);
      await page.waitForSelector('.tour-feedback.right');
      assert.match(await page.textContent('.tour-feedback'), new RegExp(`variance ${g.fromVariance.toFixed(2)} at d_k = 32, ${g.toVariance.toFixed(2)} at d_k = 64`));
    }
    if (card.predict === 'unscaled') {
      const unscaled = core.softmaxRow(head.scores, { dK: 1 }).maxProb;
      const scaled = core.softmaxRow(head.scores, { dK: 32 }).maxProb;
      const right = unscaled > scaled + 0.01 ? 'peaked' : unscaled < scaled - 0.01 ? 'flatter' : 'same';
      await page.click(`.tour-choice[data-choice="${right}"]`);
      await page.waitForSelector('.tour-feedback.right');
      assert.match(await page.textContent('.tour-feedback'), new RegExp(`${unscaled.toFixed(3)} without scaling and ${scaled.toFixed(3)} with it`));
    }
    if (card.id === 'jacobian') {
      const e = core.scalingEffect(head.scores, { dK: 32 });
      assert.equal(await page.getAttribute('.tour-verdict', 'data-verdict'), e.jacobian);
      assert.ok(text.includes(`${fmt(e.unscaledJacobian, 4)} without scaling`), text);
      // The shipped model's 喜 row stays saturated even scaled: the card says so only then (the core's verdict).
      assert.equal(await page.getAttribute('.tour-verdict', 'data-saturation'), e.scaledSaturation);
      assert.equal(text.includes('Even scaled, this row saturates'), e.scaledSaturation === 'saturates');
    }
    if (card.predict === 'maxdiv') {
      const scaled = core.softmaxRow(head.scores, { dK: 32 }).scaled;
      const d = core.divideByMax(scaled);
      await page.click(`.tour-choice[data-choice="${d.kind === 'distribution' ? 'distribution' : 'not'}"]`);
      await page.waitForSelector('.tour-feedback.right');
      assert.ok((await page.textContent('.tour-feedback')).includes(`adds up to ${fmt(d.sum)}`));
    }
    if (card.predict === 'strongest') {
      const trace = core.run('我喜欢人工智能');
      const c = trace.contributions(2, head);
      trace.dispose();
      await page.click(`.tour-choice[data-choice="${c.strongest}"]`);
      await page.waitForSelector('.tour-feedback.right');
      assert.match(await page.textContent('.tour-feedback'), new RegExp(`“${tokens[c.strongest]}”’s term is the longest: \\|p·v\\| = ${c.lengths[c.strongest].toFixed(2)}`));
    }
    if (card.id === 'end') {
      assert.equal(await page.$$eval('.tour-questions li', (lis) => lis.length), 3, 'the article\'s three questions');
      assert.match(text, /Question 3: whose information is in “喜”’s new vector\?/);
      // The question is answered by the whole layer: each head's largest weight for 喜, then their mean beside the article's row.
      await core.loadAfterArticle();
      const trace = core.run('我喜欢人工智能');
      const layerRow = trace.layerRow(2, { layer: head.layer });
      trace.dispose();
      Array.from(layerRow.headTop, (top, h) => assert.ok(text.includes(`head ${h + 1} gives “${tokens[top]}” the most (${fmt(layerRow.headWeight[h])})`), text));
      assert.ok(text.includes(`“喜” gives its largest weight to “${tokens[layerRow.order[0]]}” (${fmt(layerRow.mean[layerRow.order[0]])})`), text);
      assert.match(text, /the residual then adds “喜”’s own x back/);
      // The article's 喜 row beside the layer's mean and this head's: the article keeps 0.40 on 喜 itself.
      assert.match(await page.textContent('.tour-compare thead'), /the heads averaged/);
      assert.match(await page.textContent('.tour-compare'), new RegExp(`喜0\\.40${fmt(layerRow.mean[2])}`));
    }
    if (card.experiment) {
      await page.click(`.tour-open[data-experiment="${card.experiment}"]`);
      await page.waitForSelector(`#experiment-tabs button[data-experiment="${card.experiment}"][aria-pressed="true"]`);
      await page.waitForFunction(() => {
        const r = document.getElementById('experiment-body')?.getBoundingClientRect();
        return r && r.top < innerHeight && r.bottom > 0;
      }, null, { timeout: 5000 });
    }
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
  assert.deepEqual(await page.evaluate(() => window.tours.at(-1)), { id: 'second', tour: 'article', card: 'embedding', index: 1, count: CARDS.length, finished: false });
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

// The labs: reachable from their step and by URL, numbers from the core,
// controls that change what they should, in English and Chinese.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { loadAttentionLab } from 'attention-lab';
import { fmt } from '../../web/app/ui/format.js';
import { useServedChromium, waitForParam, watchProblems } from './chromium.mjs';
import { shownHead } from './page-helpers.mjs';

const env = useServedChromium(fileURLToPath(new URL('../../web/', import.meta.url)));
const core = await loadAttentionLab();
const ROW = [15.3, 22.7, 18.2, 2.1, 1.8, 3.2, 2.9, 5.6, 4.1];

async function open(query, options = {}) {
  const context = await env.browser.newContext({ reducedMotion: 'reduce', ...options });
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(`${env.origin}/${query}`);
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
  // The experiment's chunk, loaded when it opens.
  if (query.includes('experiment=')) await page.waitForSelector('.experiment-body .experiment-loading', { state: 'detached' });
  return { page, context, problems };
}
const column = (page, index) => page.$$eval('.experiment-table tbody tr', (trs, k) => trs.map((tr) => tr.cells[k].textContent), index);

test('textbook: the article\'s row, 42.73 and 0.40, errata from the core, editable', async () => {
  const { page, context, problems } = await open('?experiment=textbook');
  const steps = core.softmaxRow(ROW, { dK: 64 });
  assert.deepEqual(await column(page, 4), Array.from(steps.probs, (p) => fmt(p)));
  assert.equal((await column(page, 4))[1], '0.40');
  assert.equal(await page.textContent('.experiment-table tfoot td.printed'), '42.73');
  assert.equal(await page.textContent('.experiment-table tfoot td[data-col="sum"]'), fmt(steps.expSum));
  assert.match(await page.textContent('.experiment-body'), /prints 42\.73; the exact sum is 42\.735/);
  assert.deepEqual(await page.$$eval('.errata li', (lis) => lis.map((li) => li.dataset.erratum)), ['E1', 'E2', 'E3', 'E4', 'E5', 'E9', 'E6', 'E7', 'E8']);
  assert.deepEqual(await page.$$eval('ul.errata', (uls) => uls.map((ul) => [ul.dataset.kind, ul.children.length])), [['figure', 6], ['inconsistency', 2], ['reasoning', 1]],
    'E6 and E7 are the article\'s two heads, not wrong numbers; E8 its reasoning');
  // E4 computed exactly: 1 − 3.06e−7 rounds to 0.9999997, and the gradient's first entry is −3.06e−7.
  assert.match(await page.textContent('[data-erratum="E4"]'), /computed exactly: \[0\.9999997, 9\.36e−14, 3\.06e−7\]; \[−3\.06e−7, 9\.36e−14, 3\.06e−7\]/);
  // E8: the article's p − one-hot argument named; the Jacobian vanishes without scaling.
  const e8 = core.softmaxRow([20, -10, 5], { jacobian: true });
  assert.match(await page.textContent('[data-erratum="E8"]'), /had the third been right, it would be about −1/);
  assert.match(await page.textContent('[data-erratum="E8"]'), new RegExp(`the Jacobian’s largest entry: ${e8.maxJacobian.toExponential(2).replace('e-', 'e−')} without scaling`));
  const e2 = core.softmaxRow(ROW.slice(0, 5), { dK: 1 });
  assert.ok((await page.textContent('[data-erratum="E2"]')).includes(Array.from(e2.probs, (p) => fmt(p, 6)).join(', ')));
  // Editing a score recomputes, and the printed column goes away.
  await page.fill('.score-input input[aria-label="喜"]', '30');
  await page.press('.score-input input[aria-label="喜"]', 'Enter');
  await page.waitForFunction(() => !document.querySelector('.experiment-table td.printed'));
  const edited = core.softmaxRow([15.3, 30, ...ROW.slice(2)], { dK: 64 });
  assert.equal((await column(page, 4))[1], fmt(edited.probs[1]));
  await page.fill('.score-input input[aria-label="d_k"]', '0');
  await page.press('.score-input input[aria-label="d_k"]', 'Enter');
  await page.waitForSelector('.experiment-result .message.error');
  assert.match(await page.textContent('.experiment-result .message.error'), /d_k must be an integer from 1 to 1024, got 0/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('scaling: a row peaked but far from one-hot: less gradient reaches q·k without ÷√d_k, but more than a tenth, in both languages', async () => {
  const sentence = '我喜欢人工智能';
  const trace = core.run(sentence);
  for (const lang of ['en', 'zh']) {
    const { page, context, problems } = await open(`?lang=${lang}&experiment=scaling&t=4`);
    await page.waitForSelector('.experiment-verdicts p[data-verdict]');
    const effect = core.scalingEffect(trace.softmaxRow(4, await shownHead(page)).scores, { dK: trace.config.dK });
    // 人's row is peaked without ÷√d_k, but at q·k (the scaled path's 1/√d_k counted) a third reaches it.
    assert.equal(effect.jacobian, 'smaller');
    assert.equal(effect.scaledJacobianQk, Math.fround(effect.scaledJacobian / trace.divisor));
    const said = await page.textContent('.experiment-verdicts');
    assert.ok(await page.$('.experiment-verdicts p[data-verdict="smaller"]'), `${lang}: the smaller sentence`);
    assert.ok([effect.unscaledJacobian, effect.scaledJacobian, effect.scaledJacobianQk].every((x) => said.includes(fmt(x, 4))), said);
    assert.doesNotMatch(said, { en: /a tenth or less/, zh: /十分之一或更少/ }[lang]);
    assert.match(said, { en: /but more than a tenth of the scaled path’s/, zh: /仍超过缩放那一路在 q·k 处的十分之一/ }[lang]);
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('scaling: opened from its step, unscaled max weight above the scaled one, target switch', async () => {
  const { page, context, problems } = await open('?step=scaled');
  await page.click('#step-explain .why-link[data-experiment="scaling"]');
  await page.waitForSelector('.experiment-sides');
  await waitForParam(page, 'experiment', 'scaling');
  const figures = await page.$$eval('.experiment-figures', (ps) => ps.map((p) => ({ max: Number(p.dataset.maxProb), entropy: Number(p.dataset.entropy) })));
  const trace = core.run('我喜欢人工智能'); // the trained model, through the head the page shows
  const row = trace.softmaxRow(2, await shownHead(page)).scores;
  assert.equal(figures[0].max, core.softmaxRow(row, { dK: 1 }).maxProb);
  assert.equal(figures[1].max, core.softmaxRow(row, { dK: trace.config.dK }).maxProb);
  assert.ok(figures[0].max > figures[1].max, 'unscaled is peakier');
  assert.ok(figures[0].entropy < figures[1].entropy);
  const before = await page.textContent('.experiment-side:nth-child(2) .experiment-bars:last-of-type');
  await page.selectOption('#experiment-target', '3');
  await page.waitForFunction((b) => document.querySelector('.experiment-side:nth-child(2) .experiment-bars:last-of-type').textContent !== b, before);
  assert.match(await page.textContent('.experiment-side:nth-child(2)'), /right answer were “欢”/);
  // Which gradient vanishes: the core's verdicts, with the answer on the peak and off it.
  const peak = core.softmaxRow(row, { dK: 1 }).argmax;
  // The answer on the peak, and 喜 itself (off the peak).
  for (const target of [peak, 2]) {
    const effect = core.scalingEffect(row, { dK: trace.config.dK, target });
    await page.selectOption('#experiment-target', String(target));
    await page.waitForSelector(`.experiment-verdicts p[data-verdict="${effect.gradient}"]`);
    const said = await page.textContent('.experiment-verdicts');
    assert.ok(said.includes(`largest entry is ${fmt(effect.unscaledJacobian, 4)} without scaling against ${fmt(effect.scaledJacobian, 4)}`), said);
    assert.equal(effect.jacobian, 'vanishes', 'this head’s unscaled row is saturated');
    assert.equal(await page.getAttribute('.experiment-verdicts p[data-verdict="vanishes"]', 'data-verdict'), 'vanishes');
    // Compared at q·k: the scaled Jacobian ÷ √d_k, and how many times smaller, both the core's.
    assert.ok(said.includes(`${fmt(effect.scaledJacobian, 4)} ÷ 5.657 = ${fmt(effect.scaledJacobianQk, 4)}`), said);
    assert.ok(said.includes(`Without ÷√d_k the largest entry is about 1/${effect.jacobianTimes} of that: for the same gradient arriving at the weights`), said);
    assert.equal(effect.jacobianTimes, Math.round(effect.scaledJacobianQk / effect.unscaledJacobian));
    // The head the lab opens on has a spread 喜 row once scaled (largest weight < 0.9): the page does not call it one-hot.
    assert.equal(effect.scaledSaturation, 'spread');
    assert.ok(effect.scaled < 0.9);
    assert.ok(!said.includes('Even scaled, this row saturates'), said);
    // On the peak: smaller without scaling. Off it the core decides (this saturated row: about the same; a spread one: larger).
    if (target === peak) assert.equal(effect.gradient, 'smaller');
    assert.match(said, { smaller: /is smaller without scaling/, larger: /is larger without scaling/, same: /is about the same with or without scaling/ }[effect.gradient]);
    assert.doesNotMatch(said, /every gradient is close to 0/);
    assert.doesNotMatch(said, /null/); // no verdict left out as the word "null"
  }
  // Another token row: the lab follows the selection.
  await page.click('#token-chips .chip >> text=我');
  await page.waitForFunction(() => /row “我”/.test(document.querySelector('.experiment-body .explain').textContent));
  const me = core.scalingEffect(trace.softmaxRow(1, await shownHead(page)).scores, { dK: trace.config.dK });
  assert.equal(await page.$$eval('.experiment-verdicts p[data-saturation]', (ps) => ps.length), me.scaledSaturation === 'saturates' ? 1 : 0);
  assert.deepEqual(problems, []);
  await context.close();
  // A head whose 喜 row stays saturated with ÷√d_k (largest weight ≥ 0.9; the previous-token head, 喜 → 我): the page says so.
  const layer = trace.config.layers - 1;
  const head = Array.from({ length: trace.config.heads }, (_, h) => h)
    .find((h) => core.scalingEffect(trace.softmaxRow(2, { layer, head: h }).scores, { dK: trace.config.dK }).scaledSaturation === 'saturates');
  assert.notEqual(head, undefined);
  const effect = core.scalingEffect(trace.softmaxRow(2, { layer, head }).scores, { dK: trace.config.dK, target: 2 });
  assert.ok(effect.scaled >= 0.9);
  const { page: hot, context: other, problems: hotProblems } = await open(`?step=scaled&experiment=scaling&t=2&layer=${layer}&head=${head}`);
  await hot.selectOption('#experiment-target', '2');
  await hot.waitForSelector('.experiment-verdicts p[data-saturation="saturates"]');
  assert.ok((await hot.textContent('.experiment-verdicts')).includes(`Even scaled, this row saturates: its largest weight, ${fmt(effect.scaled, 3)}, is at least 0.9`));
  assert.deepEqual(hotProblems, []);
  trace.dispose();
  await other.close();
});

test('experiments in Chinese, and a bad experiment name in the link', async () => {
  const { page, context } = await open('?lang=zh&lab=textbook'); // lab=: the older name, still read
  assert.match(await page.textContent('#experiment-tabs'), /缩放开 \/ 关.*课本例题/);
  // The textbook's view is a chunk: it is drawn once that has loaded.
  await page.waitForFunction(() => document.querySelector('.experiment-body')?.textContent.includes('文章先把每个'));
  assert.match(await page.textContent('.experiment-body'), /文章先把每个 e\^x 四舍五入/);
  assert.equal(await page.evaluate(() => document.body.innerText.includes('⟦')), false);
  await context.close();
  const bad = await open('?experiment=<b>nope</b>');
  assert.match(await bad.page.textContent('#input-message'), /Ignored link settings that are not valid: experiment/);
  assert.match(await bad.page.textContent('.experiment-body'), /Pick an experiment/);
  await bad.context.close();
});

test('variance: measured Var(q·k) within 10% of d_k, ≈ 1 after scaling; d_k control', async () => {
  const { page, context, problems } = await open('?step=scores');
  await page.click('#step-explain .why-link[data-experiment="variance"]');
  await page.waitForSelector('.experiment-figures[data-variance]');
  const read = () => page.$eval('.experiment-figures', (p) => ({ v: Number(p.dataset.variance), sv: Number(p.dataset.scaledVariance) }));
  let r = await read();
  const { dK } = core.models.find((m) => m.id === 'trained'); // the page's model: the lab starts at its d_k
  assert.ok(Math.abs(r.v - dK) / dK < 0.1, `variance ${r.v}`);
  assert.ok(Math.abs(r.sv - 1) < 0.1, `scaled variance ${r.sv}`);
  assert.equal(r.v, core.sampleDotProducts(dK, { count: 2000, bins: 40, seed: 42 }).variance);
  await page.fill('#experiment-dk', '8'); // the slider's 9th step: d_k = 256
  await page.dispatchEvent('#experiment-dk', 'input');
  await page.waitForFunction(() => Number(document.querySelector('.experiment-figures').dataset.variance) > 150);
  r = await read();
  assert.ok(Math.abs(r.v - 256) / 256 < 0.1 && Math.abs(r.sv - 1) < 0.1);
  assert.match(await page.textContent('.experiment-figures'), /all-0\.5 vectors give q·k = 64\.00/);
  // The table: the article's 0.5, 1 and 16 for d = 2, 4, 64.
  const half = await page.$$eval('.variance-table tbody tr', (trs) => Object.fromEntries(trs.map((tr) => [tr.cells[0].textContent, tr.cells[4].textContent])));
  assert.deepEqual([half['2'], half['4'], half['64']], ['0.50', '1.00', '16.00']);
  assert.deepEqual(problems, []);
  await context.close();
});

test('temperature and stable softmax labs respond to their controls', async () => {
  const { page, context, problems } = await open('?step=scaled&lab=temperature');
  await page.waitForSelector('#experiment-temperature');
  assert.match(await page.textContent('.experiment-body .explain'), /in nats \(natural-log units\): 0 when one-hot/, 'nats said where first shown');
  const maxAt = () => page.$eval('.experiment-figures', (p) => Number(p.dataset.maxProb));
  const normal = await maxAt();
  await page.fill('#experiment-temperature', '-2');
  await page.dispatchEvent('#experiment-temperature', 'input');
  const cold = await maxAt();
  await page.fill('#experiment-temperature', '2');
  await page.dispatchEvent('#experiment-temperature', 'input');
  const hot = await maxAt();
  assert.ok(cold > 0.99 && cold > normal && normal > hot && hot < 0.2, `${cold} ${normal} ${hot}`);

  await page.click('#experiment-tabs button[data-experiment="stability"]');
  await page.waitForSelector('.experiment-table');
  assert.deepEqual(await page.$$eval('.experiment-table td[data-col="naive"]', (tds) => tds.map((td) => td.textContent)), ['NaN', 'NaN', '0.0000']);
  assert.deepEqual(await page.$$eval('.experiment-table td[data-col="stable"]', (tds) => tds.map((td) => td.textContent)), ['0.7311', '0.2689', '0.0000']);
  assert.match(await page.textContent('.experiment-result .note'), /Overflow/);
  await page.click('.experiment-control button >> text=the article’s row');
  await page.waitForFunction(() => document.querySelectorAll('.experiment-table tbody tr').length === 9);
  const naive = await page.$$eval('.experiment-table td[data-col="naive"]', (tds) => tds.map((td) => td.textContent));
  const stable = await page.$$eval('.experiment-table td[data-col="stable"]', (tds) => tds.map((td) => td.textContent));
  assert.deepEqual(naive, stable);
  assert.match(await page.textContent('.experiment-result .note'), /No overflow/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('context on the trained model: every head’s output and neighbours in the two sentences, as the core has them', async () => {
  const { page, context, problems } = await open('?step=output');
  await page.click('#step-explain .why-link[data-experiment="context"]');
  await page.waitForSelector('.experiment-table tr[data-compare="head-0"]');
  const cos = (id) => page.$eval(`.experiment-table tr[data-compare="${id}"] td[data-cos]`, (td) => Number(td.dataset.cos));
  const a = core.run('我喜欢人工智能');
  const b = core.run('大家都喜欢音乐');
  const j = b.tokens.indexOf('喜');
  assert.ok(Math.abs((await cos('embeddings')) - 1) < 1e-6, 'same embedding row');
  const { layer } = await shownHead(page); // the layer the lab shows: the experiment compares its heads
  // Past the first layer x is the layer before's output, and the text says so; its cosine is of that x.
  assert.equal(layer, 1);
  assert.match(await page.textContent('.experiment-body .explain'), /Layer 2 reads layer 1’s output, in which every token has already mixed in its neighbours/);
  assert.match(await page.textContent('.experiment-table tr[data-compare="x"]'), /x = layer 1’s output/);
  assert.equal(await cos('x'), a.cosineWith(b, 'x', 2, 'x', j, { layer, head: 0 }));
  for (let head = 0; head < a.config.heads; head += 1) {
    assert.equal(await cos(`head-${head}`), a.cosineWith(b, 'output', 2, 'output', j, { layer, head }));
    const mine = a.softmaxRow(2, { layer, head });
    const theirs = b.softmaxRow(j, { layer, head });
    const line = await page.textContent(`.experiment-neighbours li[data-head="${head}"]`);
    assert.ok(line.includes(`“${a.tokens[mine.argmax]}” (${fmt(mine.maxProb)})`) && line.includes(`“${b.tokens[theirs.argmax]}” (${fmt(theirs.maxProb)})`), line);
  }
  a.dispose();
  b.dispose();
  assert.deepEqual(problems, []);
  await context.close();
});

test('context on an English sentence: the other sentence is a partner sentence with the selected token, and the words say token', async () => {
  const sentence = 'the cat sat on the mat because it was tired';
  for (const [t, other] of [[2, 'A cat sat by the door.'], [7, 'The animal slept because it was tired.']]) {
    const { page, context, problems } = await open(`?s=${encodeURIComponent(sentence)}&t=${t}&experiment=context`);
    await page.waitForSelector('.experiment-table tr[data-compare="head-0"]');
    assert.equal(await page.inputValue('#experiment-other'), other);
    const a = core.run(sentence);
    const b = core.run(other);
    const j = b.tokens.indexOf(a.tokens[t]);
    const { layer } = await shownHead(page);
    const cosine = await page.$eval('.experiment-table tr[data-compare="head-0"] td[data-cos]', (td) => Number(td.dataset.cos));
    assert.equal(cosine, a.cosineWith(b, 'output', t, 'output', j, { layer, head: 0 }));
    assert.match(await page.textContent('.experiment-body .explain'), new RegExp(`The selected token “${a.tokens[t]}” in this sentence`));
    assert.doesNotMatch(await page.textContent('.experiment-body'), /character/);
    a.dispose();
    b.dispose();
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('context: same input row, different outputs; mask and position: permuted outputs without positions', async () => {
  const { page, context, problems } = await open('?step=output&model=random');
  await page.click('#step-explain .why-link[data-experiment="context"]');
  await page.waitForSelector('.experiment-table tr[data-compare="output"]');
  const cos = (stage) => page.$eval(`.experiment-table tr[data-compare="${stage}"] td[data-cos]`, (td) => Number(td.dataset.cos));
  assert.ok(Math.abs((await cos('embeddings')) - 1) < 1e-6, 'same embedding row');
  assert.ok((await cos('output')) < 0.999, 'different outputs');
  assert.ok((await cos('output-nopos')) < 0.999, 'different outputs even without positions');
  await page.fill('#experiment-other', '猫');
  await page.press('#experiment-other', 'Enter');
  await page.waitForSelector('.experiment-result .message.notice');
  assert.match(await page.textContent('.experiment-result'), /no token “喜”/);

  await page.click('#experiment-tabs button[data-experiment="mask-position"]');
  await page.waitForSelector('.experiment-side[data-positional="true"]');
  const masked = await page.$$eval('figure.stage-weights[data-causal="true"] td[data-j]', (tds) => tds.map((td) => [Number(td.dataset.i), Number(td.dataset.j), Number(td.dataset.value)]));
  assert.ok(masked.filter(([i, j]) => j > i).every(([, , v]) => v === 0));
  const cosines = (positional) => page.$$eval(`.experiment-side[data-positional="${positional}"] td[data-cos]`, (tds) => tds.map((td) => Number(td.dataset.cos)));
  assert.ok((await cosines(false)).every((c) => Math.abs(c - 1) < 1e-5), 'without positions: the same vectors, permuted');
  assert.ok((await cosines(true)).some((c) => c < 0.999), 'with positions: the order matters');
  assert.doesNotMatch(await page.textContent('.experiment-body'), /null/); // the seeded model has no trained-mask note: nothing in its place
  assert.deepEqual(problems, []);
  await context.close();
});

test('textbook cells explain their arithmetic on hover', async () => {
  const { page, context } = await open('?lab=textbook');
  const titles = await page.$$eval('.experiment-table tbody tr:nth-child(2) td[title]', (tds) => tds.map((td) => td.title));
  assert.deepEqual(titles.slice(0, 2), ['22.70 ÷ √64 = 2.8375', 'e^2.8375 = 17.0730']);
  assert.match(titles[2], /^17\.0730 ÷ 42\.7354 = 0\.3995/);
  await context.close();
});

test('an experiment whose chunk cannot be fetched says so, the lab keeps working, and opening one again loads it', async () => {
  const context = await env.browser.newContext({ reducedMotion: 'reduce' });
  let fail = true;
  await context.route(/chunk-classic-views-\w+\.js$/, (route) => (fail ? route.abort() : route.continue()));
  const page = await context.newPage();
  await page.goto(`${env.origin}/?experiment=variance`);
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
  await page.waitForSelector('.experiment-body .message.error');
  assert.match(await page.textContent('.experiment-body .message.error'), /This experiment could not be loaded \(.+\)\. The rest of the page keeps working\./);
  await page.click('#next');
  await page.waitForSelector('body[data-step="embedding"]', { state: 'attached' });
  fail = false;
  await page.click('#experiment-tabs button[data-experiment="scaling"]');
  await page.waitForSelector('.experiment-sides');
  await page.click('#experiment-tabs button[data-experiment="variance"]');
  await page.waitForSelector('.experiment-figures[data-variance]');
  await context.close();
});

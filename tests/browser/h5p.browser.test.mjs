// The .h5p package (scripts/package-h5p.mjs) played by h5p-standalone, H5P's
// player outside an LMS, in Chromium: the content type starts the lab in H5P's
// frame with the author's settings; an answer gives an xAPI "answered" statement
// (score, success, response, the interaction's definition) that Learning Locker's
// validator accepts, the set's last one "completed"; getCurrentState() is what
// H5P saves, and the content opened again with it comes back where it was.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { loadAttentionLab } from 'attention-lab';
import { startServer } from '../../scripts/serve.mjs';
import { contentParams, h5pEntries } from '../../scripts/package-h5p.mjs';
import { launchChromium, watchProblems } from './chromium.mjs';

const require = createRequire(import.meta.url);
const validate = require('@learninglocker/xapi-validation').default;
const core = await loadAttentionLab();
const SENTENCE = '我喜欢人工智能';

// A host page of h5p-standalone's, the player's files, and the package unpacked beside them. The page
// plays the platform's part: the learner (the statements' actor) and the saved state.
function site(params) {
  const root = mkdtempSync(join(tmpdir(), 'attention-lab-h5p-'));
  cpSync(dirname(require.resolve('h5p-standalone/dist/main.bundle.js')), join(root, 'player'), { recursive: true });
  for (const { name, data } of h5pEntries(params)) {
    mkdirSync(dirname(join(root, 'content', name)), { recursive: true });
    writeFileSync(join(root, 'content', name), data);
  }
  // The platform's answer when it has no saved state for the learner yet.
  writeFileSync(join(root, 'user-data.json'), JSON.stringify({ success: true, data: false }));
  writeFileSync(join(root, 'index.html'), `<!doctype html><html><head><meta charset="utf-8"><title>H5P</title><link rel="icon" href="data:,">
<script src="player/main.bundle.js"></script></head><body><div id="h5p"></div><script>
window.statements = [];
const saved = new URLSearchParams(location.search).get('state');
new H5PStandalone.H5P(document.getElementById('h5p'), { h5pJsonPath: 'content', frameJs: 'player/frame.bundle.js',
  frameCss: 'player/styles/h5p.css', user: { name: 'A learner', mail: 'learner@example.org' }, saveFreq: 30,
  xAPIObjectIRI: 'https://lms.example.org/mod/h5pactivity/view.php?id=7',
  ajax: { contentUserDataUrl: 'user-data.json?content=:contentId&type=:dataType&sub=:subContentId' },
  ...(saved ? { contentUserData: [{ state: saved }] } : {}) })
  .then(() => { H5P.externalDispatcher.on('xAPI', (event) => window.statements.push(event.data.statement)); window.playerReady = true; });
</script></body></html>`);
  return root;
}

let browser;
const servers = []; // closed after the tests, also when one fails
before(async () => { browser = await launchChromium(); });
after(async () => {
  for (const server of servers) server.close();
  await browser?.close();
});

async function play(root, query = '') {
  const server = await startServer({ root, port: 0, host: '127.0.0.1', csp: null }); // as an LMS page: no policy of ours
  servers.push(server);
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  const problems = watchProblems(page);
  page.on('response', (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()} ${r.url()}`); });
  await page.goto(`http://127.0.0.1:${server.address().port}/index.html${query}`);
  await page.waitForFunction(() => window.playerReady === true, null, { timeout: 30_000 });
  const frame = page.frameLocator('iframe.h5p-iframe');
  await frame.locator('attention-lab .al-frame[data-ready="true"]').waitFor({ state: 'attached', timeout: 30_000 })
    .catch((error) => { throw new Error(`${error.message}\n${problems.join('\n')}`); });
  return { server, context, page, problems, frame };
}

test('H5P: the lab in H5P\'s frame, an xAPI statement for each answer, completed with its score, and resumed from its saved state', { timeout: 120_000 }, async () => {
  const params = contentParams({ sentence: SENTENCE, lang: 'zh', step: 'softmax', exercises: 'softmax:2:3,scaled:2:1', mastery: '50' });
  const root = site(params);
  const { context, page, problems, frame } = await play(root);
  const lab = frame.locator('attention-lab .al-frame');
  assert.equal(await lab.getAttribute('data-step'), 'softmax', 'the author\'s first step');
  assert.equal(await lab.getAttribute('lang'), 'zh-CN', 'the author\'s language');
  assert.equal(await frame.locator('attention-lab #sentence').inputValue(), SENTENCE);
  const h5p = () => page.frames().find((f) => f.url().includes('frame') || f !== page.mainFrame());
  const where = { layer: Number(await lab.getAttribute('data-layer')), head: Number(await lab.getAttribute('data-head')) };
  assert.equal(await h5p().evaluate(() => H5P.instances[0].getMaxScore()), 2, 'two exercises in the set');

  // The first exercise answered right, the second wrong.
  const trace = core.run(SENTENCE);
  const first = trace.exercise('softmax', { row: 2, col: 3, ...where });
  const second = trace.exercise('scaled', { row: 2, col: 1, ...where });
  await frame.locator('attention-lab #exercise-answer').fill(first.expected.toPrecision(8));
  await frame.locator('attention-lab .ex-check').click();
  await page.waitForFunction(() => window.statements.length >= 1);
  await frame.locator('attention-lab .ex-next').click();
  await frame.locator('attention-lab #exercise-answer').fill(String(second.expected + 1));
  await frame.locator('attention-lab .ex-check').click();
  await page.waitForFunction(() => window.statements.some((s) => s.verb.id.endsWith('/completed')));
  if (process.env.SCREENSHOTS) await page.screenshot({ path: `${process.env.SCREENSHOTS}/h5p-${params.language}.png` });
  const statements = await page.evaluate(() => window.statements);
  const answered = statements.filter((s) => s.verb.id === 'http://adlnet.gov/expapi/verbs/answered');
  assert.equal(answered.length, 2);
  assert.deepEqual(answered.map((s) => [s.result.score.raw, s.result.score.max, s.result.success]), [[1, 1, true], [0, 1, false]]);
  assert.equal(answered[0].result.response, first.expected.toPrecision(8));
  assert.equal(answered[0].object.definition.interactionType, 'numeric');
  const [lo, hi] = answered[0].object.definition.correctResponsesPattern[0].split('[:]').map(Number);
  assert.ok(lo <= first.expected && first.expected <= hi && hi - lo <= 2.01 * first.tolerance, 'the range the core accepts');
  assert.match(answered[0].object.definition.description['zh-CN'], /我喜欢人工智能/);
  assert.match(answered[0].object.definition.name['en-US'], /softmax weight/);
  assert.equal(answered[0].object.id, 'https://lms.example.org/mod/h5pactivity/view.php?id=7?subContentId=softmax-2-3');
  const completed = statements.find((s) => s.verb.id === 'http://adlnet.gov/expapi/verbs/completed');
  assert.deepEqual([completed.result.score.raw, completed.result.score.max, completed.result.success], [1, 2, true], 'one of two, mastery 50 %');
  for (const s of statements) assert.deepEqual(validate(s).map((w) => w.path.join('.')), [], `a valid xAPI statement: ${s.verb.id}`);
  assert.deepEqual(await h5p().evaluate(() => [H5P.instances[0].getScore(), H5P.instances[0].getMaxScore()]), [1, 2]);

  // What H5P saves, and the content opened again with it: the answers and the lab's place are back.
  const state = await h5p().evaluate(() => JSON.stringify(H5P.instances[0].getCurrentState()));
  await context.close();
  const again = await play(root, `?state=${encodeURIComponent(state)}`);
  await again.frame.locator('attention-lab .ex-dot.right').waitFor({ timeout: 10_000 });
  assert.equal(await again.frame.locator('attention-lab .ex-dot.wrong').count(), 1);
  const h5pAgain = again.page.frames().find((f) => f !== again.page.mainFrame());
  assert.deepEqual(await h5pAgain.evaluate(() => [H5P.instances[0].getScore(), H5P.instances[0].getMaxScore()]), [1, 2]);
  // showSolutions() shows the answer of the exercise not answered right.
  await h5pAgain.evaluate(() => H5P.instances[0].showSolutions());
  await again.frame.locator('attention-lab .ex-feedback.revealed').waitFor({ timeout: 10_000 });
  trace.dispose();
  assert.deepEqual([...problems, ...again.problems], []);
  await again.context.close();
});

test('H5P in traditional Chinese: the editor\'s words made from the simplified, a zh-Hant content tagged zh-hant', () => {
  const files = new Map(h5pEntries(contentParams({ lang: 'zh-Hant' })).map(({ name, data }) => [name.replace(/^H5P\.AttentionLab-[\d.]+\//, ''), String(data)]));
  assert.equal(JSON.parse(files.get('h5p.json')).language, 'zh-hant');
  assert.equal(JSON.parse(files.get('content/content.json')).language, 'zh-Hant');
  const hans = JSON.parse(files.get('language/zh-hans.json')).semantics;
  const hant = JSON.parse(files.get('language/zh-hant.json')).semantics;
  assert.equal(hant.length, hans.length);
  assert.equal(hant[1].label, '實驗室的語言');
  assert.deepEqual(hant[1].options.map((o) => o.label), ['English', '簡體中文', '繁體中文']);
  assert.match(hant[0].description, /文章裡的「我喜欢人工智能」/, 'the sentence as the lab opens on it');
});

// The SCORM 1.2 package (npm run package:scorm): a zip a learning platform
// imports, whose page reports the exercise score and completion through the
// platform's runtime API; driven here by a stand-in runtime in a parent frame.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAttentionLab } from 'attention-lab';
import { startServer } from '../../scripts/serve.mjs';
import { readZip } from '../../scripts/zip.mjs';
import { launchChromium, watchProblems } from './chromium.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURES = fileURLToPath(new URL('./fixtures/lms/', import.meta.url));
const core = await loadAttentionLab();
const folder = mkdtempSync(join(tmpdir(), 'attention-lab-scorm-'));
let browser;
let server;
let origin;
let files;

before(async () => {
  execFileSync(process.execPath, ['scripts/package-scorm.mjs', '--exercises=scaled:2:3,softmax:2:1', '--lang=en',
    '--sentence=我喜欢人工智能', '--mastery=80', `--out=${join(folder, 'lesson.zip')}`], { cwd: ROOT, stdio: 'pipe' });
  files = readZip(readFileSync(join(folder, 'lesson.zip')));
  for (const [name, data] of files) writeFileSync(join(folder, name), data);
  for (const name of ['lms.html', 'lms.js']) copyFileSync(join(FIXTURES, name), join(folder, name));
  server = await startServer({ root: folder, port: 0, host: '127.0.0.1', csp: null });
  origin = `http://127.0.0.1:${server.address().port}`;
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  server?.close();
  rmSync(folder, { recursive: true, force: true });
});

test('the zip holds a SCORM 1.2 manifest whose one SCO is the offline page', async () => {
  assert.deepEqual([...files.keys()].sort(), ['attention-lab.html', 'imsmanifest.xml']);
  const page = await browser.newPage();
  const manifest = await page.evaluate((xml) => {
    const doc = new DOMParser().parseFromString(xml, 'application/xml');
    if (doc.querySelector('parsererror')) return { error: doc.querySelector('parsererror').textContent };
    const resource = doc.getElementsByTagName('resource')[0];
    return {
      version: doc.getElementsByTagName('schemaversion')[0].textContent,
      scormType: resource.getAttributeNS('http://www.adlnet.org/xsd/adlcp_rootv1p2', 'scormtype'),
      href: resource.getAttribute('href'),
      files: [...doc.getElementsByTagName('file')].map((f) => f.getAttribute('href')),
      mastery: doc.getElementsByTagNameNS('http://www.adlnet.org/xsd/adlcp_rootv1p2', 'masteryscore')[0].textContent,
      item: doc.getElementsByTagName('item')[0].getAttribute('identifierref') === resource.getAttribute('identifier'),
    };
  }, files.get('imsmanifest.xml').toString('utf8'));
  assert.deepEqual(manifest, { version: '1.2', scormType: 'sco', href: 'attention-lab.html', files: ['attention-lab.html'], mastery: '80', item: true });
  assert.match(files.get('attention-lab.html').toString('utf8'), /<meta name="attention-lab-link" content="exercises=scaled%3A2%3A3%2Csoftmax%3A2%3A1&amp;s=/);
  await page.close();
});

test('under a platform, the page reports each answer, the score and completion', { timeout: 90_000 }, async () => {
  const trace = core.run('我喜欢人工智能');
  const scaled = trace.exercise('scaled', { row: 2, col: 3 });
  const softmax = trace.exercise('softmax', { row: 2, col: 1 });
  const wrong = softmax.mistakes.find((m) => m.mistake === 'not_normalised');
  const context = await browser.newContext({ reducedMotion: 'reduce' });
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(`${origin}/lms.html?launch=attention-lab.html`);
  await page.waitForFunction(() => document.getElementById('sco')?.contentDocument?.body?.dataset.ready === 'true', null, { timeout: 30_000 });
  const sco = await (await page.$('#sco')).contentFrame();
  const calls = () => page.evaluate(() => window.scormCalls);
  const sets = async () => (await calls()).filter((c) => c[0] === 'LMSSetValue').map(([, k, v]) => [k, v]);
  assert.deepEqual((await calls())[0], ['LMSInitialize', '']);
  assert.deepEqual(await sets(), [['cmi.core.lesson_status', 'incomplete']]);

  await sco.fill('#exercise-answer', scaled.expected.toFixed(4));
  await sco.click('.ex-check');
  await page.waitForFunction(() => window.scormData['cmi.core.score.raw'] === '50');
  await sco.click('.ex-next');
  await sco.fill('#exercise-answer', wrong.value.toPrecision(8));
  await sco.click('.ex-check');
  await page.waitForFunction(() => window.scormData['cmi.core.lesson_status'] === 'failed');
  const data = await page.evaluate(() => window.scormData);
  assert.equal(data['cmi.core.score.raw'], '50', 'one of two right: 50, under the mastery score of 80');
  assert.equal(data['cmi.core.score.min'], '0');
  assert.equal(data['cmi.core.score.max'], '100');
  assert.equal(data['cmi.interactions.0.id'], 'scaled-2-3');
  assert.equal(data['cmi.interactions.0.type'], 'numeric');
  assert.equal(data['cmi.interactions.0.result'], 'correct');
  assert.equal(Number(data['cmi.interactions.0.correct_responses.0.pattern']), scaled.expected);
  assert.equal(data['cmi.interactions.1.id'], 'softmax-2-1');
  assert.equal(data['cmi.interactions.1.result'], 'wrong');
  assert.equal(Number(data['cmi.interactions.1.student_response']), Number(wrong.value.toPrecision(8)));
  assert.ok((await calls()).filter((c) => c[0] === 'LMSCommit').length >= 3, 'committed at the start and after each answer');
  assert.ok(!(await calls()).some((c) => c[0] === 'LMSFinish'));

  // The learner leaves the lesson: the session ends.
  await page.evaluate(() => { document.getElementById('sco').src = 'about:blank'; });
  await page.waitForFunction(() => window.scormCalls.some((c) => c[0] === 'LMSFinish'));
  assert.match((await page.evaluate(() => window.scormData))['cmi.core.session_time'], /^\d{4}:\d{2}:\d{2}\.\d{2}$/);
  assert.deepEqual(problems, []);
  trace.dispose();
  await context.close();
});

test('without a platform, the packaged page is the plain page', { timeout: 60_000 }, async () => {
  const context = await browser.newContext({ reducedMotion: 'reduce' });
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(`${origin}/attention-lab.html`);
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached', timeout: 30_000 });
  assert.match(await page.textContent('.ex-progress'), /Exercise 1 of 2/, 'the packaged set');
  assert.equal(await page.inputValue('#sentence'), '我喜欢人工智能');
  await page.fill('#exercise-answer', '1');
  await page.click('.ex-check');
  await page.waitForFunction(() => document.querySelector('.ex-feedback').textContent !== '');
  assert.deepEqual(problems, []);
  await context.close();
});

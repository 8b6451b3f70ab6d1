// The SCORM packages (npm run package:scorm -- --version 1.2 | 2004): zips a
// learning platform imports, whose page reports the exercises' score and
// completion through the platform's runtime API. Driven here by a real runtime,
// scorm-again, in a launch page as a platform builds one: answer, leave,
// relaunch with the saved data, go on, finish; a wrong answer after passing; a
// runtime that appears late; the data model's limits.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAttentionLab } from 'attention-lab';
import { startServer } from '../../scripts/serve.mjs';
import { readZip } from '../../scripts/zip.mjs';
import { launchChromium, watchProblems } from './chromium.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURES = fileURLToPath(new URL('./fixtures/lms/', import.meta.url));
const RUNTIME = join(ROOT, 'node_modules/scorm-again/dist/');
const VERSIONS = ['1.2', '2004'];
const core = await loadAttentionLab();
const folder = mkdtempSync(join(tmpdir(), 'attention-lab-scorm-'));
const packages = new Map(); // version → the zip's files
let browser;
let server;
let origin;

before(async () => {
  for (const version of VERSIONS) {
    const zip = join(folder, `lesson-${version}.zip`);
    execFileSync(process.execPath, ['scripts/package-scorm.mjs', `--version=${version}`, '--exercises=scaled:2:3,softmax:2:1', '--lang=en', '--step=softmax',
      '--sentence=我喜欢人工智能', '--mastery=80', `--out=${zip}`], { cwd: ROOT, stdio: 'pipe' });
    const files = readZip(readFileSync(zip));
    packages.set(version, files);
    mkdirSync(join(folder, version));
    for (const [name, data] of files) writeFileSync(join(folder, version, name), data);
  }
  // A lesson that opens on the guided tour.
  const tourZip = join(folder, 'lesson-tour.zip');
  execFileSync(process.execPath, ['scripts/package-scorm.mjs', '--tour', '--exercises=scaled:2:3', '--lang=zh', `--out=${tourZip}`], { cwd: ROOT, stdio: 'pipe' });
  mkdirSync(join(folder, 'tour'));
  for (const [name, data] of readZip(readFileSync(tourZip))) writeFileSync(join(folder, 'tour', name), data);
  for (const name of ['lms.html', 'lms.js']) copyFileSync(join(FIXTURES, name), join(folder, name));
  for (const name of ['scorm12.min.js', 'scorm2004.min.js']) copyFileSync(join(RUNTIME, name), join(folder, name));
  server = await startServer({ root: folder, port: 0, host: '127.0.0.1', csp: null });
  origin = `http://127.0.0.1:${server.address().port}`;
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  server?.close();
  rmSync(folder, { recursive: true, force: true });
});

test('each zip holds its version\'s manifest, whose one SCO is the offline page', async () => {
  const page = await browser.newPage();
  for (const version of VERSIONS) {
    const files = packages.get(version);
    assert.deepEqual([...files.keys()].sort(), ['attention-lab.html', 'imsmanifest.xml']);
    const manifest = await page.evaluate((xml) => {
      const doc = new DOMParser().parseFromString(xml, 'application/xml');
      if (doc.querySelector('parsererror')) return { error: doc.querySelector('parsererror').textContent };
      const resource = doc.getElementsByTagName('resource')[0];
      const adlcp = [...resource.attributes].find((a) => a.localName.toLowerCase() === 'scormtype');
      const mastery = doc.getElementsByTagNameNS('http://www.adlnet.org/xsd/adlcp_rootv1p2', 'masteryscore')[0]
        ?? doc.getElementsByTagNameNS('http://www.imsglobal.org/xsd/imsss', 'minNormalizedMeasure')[0];
      return {
        version: doc.getElementsByTagName('schemaversion')[0].textContent,
        scormType: adlcp?.value,
        href: resource.getAttribute('href'),
        files: [...doc.getElementsByTagName('file')].map((f) => f.getAttribute('href')),
        mastery: mastery?.textContent,
        item: doc.getElementsByTagName('item')[0].getAttribute('identifierref') === resource.getAttribute('identifier'),
      };
    }, files.get('imsmanifest.xml').toString('utf8'));
    assert.deepEqual(manifest, { version: version === '1.2' ? '1.2' : '2004 4th Edition', scormType: 'sco', href: 'attention-lab.html',
      files: ['attention-lab.html'], mastery: version === '1.2' ? '80' : '0.80', item: true });
    assert.match(files.get('attention-lab.html').toString('utf8'), /<meta name="attention-lab-link" content="exercises=scaled%3A2%3A3%2Csoftmax%3A2%3A1&amp;s=/);
  }
  await page.close();
});

// What a platform keeps of a session for the next launch of the same attempt.
function relaunchData(version, cmi) {
  if (version === '1.2') {
    return { suspend_data: cmi.suspend_data, core: { entry: cmi.core.exit === 'suspend' ? 'resume' : '', lesson_status: cmi.core.lesson_status,
      score: { raw: cmi.core.score.raw, min: cmi.core.score.min, max: cmi.core.score.max } }, student_data: { mastery_score: '80' } };
  }
  return { suspend_data: cmi.suspend_data, entry: cmi.exit === 'suspend' ? 'resume' : '', completion_status: cmi.completion_status,
    success_status: cmi.success_status, score: { raw: cmi.score.raw, min: cmi.score.min, max: cmi.score.max, scaled: cmi.score.scaled },
    scaled_passing_score: '0.8' };
}
const first = { '1.2': { student_data: { mastery_score: '80' } }, 2004: { scaled_passing_score: '0.8' } };
const statusOf = (version, cmi) => (version === '1.2' ? cmi.core.lesson_status : `${cmi.completion_status}/${cmi.success_status}`);
const scoreOf = (version, cmi) => (version === '1.2' ? cmi.core.score.raw : cmi.score.raw);
const responses = (version, cmi) => Object.values(cmi.interactions).map((n) => (version === '1.2' ? n.student_response : n.learner_response));

for (const version of VERSIONS) {
  test(`SCORM ${version} under scorm-again: answer, leave, relaunch and go on, pass, and a pass stays a pass`, { timeout: 120_000 }, async () => {
    const trace = core.run('我喜欢人工智能');
    const { layer, head } = trace.articleHead(2); // the head the lesson opens on for 喜
    const scaled = trace.exercise('scaled', { row: 2, col: 3, layer, head });
    const softmax = trace.exercise('softmax', { row: 2, col: 1, layer, head });
    const wrong = { value: softmax.expected + 0.5 }; // a wrong answer
    const context = await browser.newContext({ reducedMotion: 'reduce' });
    const page = await context.newPage();
    const problems = watchProblems(page);
    const limit = version === '1.2' ? 4096 : 64000;
    const cmi = () => page.evaluate(() => window.cmi());
    const open = async (saved, delayMs) => {
      await page.goto(`${origin}/lms.html?version=${version}&launch=${version}/attention-lab.html`);
      await page.evaluate(([s, d]) => window.launch(s, d), [saved, delayMs]);
      await page.waitForFunction(() => document.getElementById('sco')?.contentDocument?.body?.dataset.ready === 'true', null, { timeout: 30_000 });
      return (await page.$('#sco')).contentFrame();
    };
    const answer = async (sco, value) => {
      await sco.fill('#exercise-answer', value);
      await sco.click('.ex-check');
    };

    // The platform sets its runtime up a second after the lesson starts loading.
    let sco = await open(first[version], 1000);
    await page.waitForFunction(() => window.lms?.isInitialized?.() ?? false, null, { timeout: 10_000 });
    await answer(sco, scaled.expected.toFixed(4));
    await page.waitForFunction((v) => (v === '1.2' ? window.cmi().core.score.raw : window.cmi().score.raw) === '50', version);
    await sco.click('.ex-next');
    let data = await cmi();
    assert.equal(statusOf(version, data), version === '1.2' ? 'incomplete' : 'incomplete/unknown');
    assert.equal(version === '1.2' ? data.core.exit : data.exit, 'suspend', 'unfinished: suspended');
    assert.ok(data.suspend_data.length <= limit);
    assert.deepEqual(JSON.parse(data.suspend_data).x.results, [[1, String(Number(scaled.expected.toFixed(4)))], null]);
    assert.equal(data.interactions[0].result, 'correct');

    // The learner leaves and comes back: the same exercise, the first one's mark.
    await page.evaluate(() => window.leave());
    await page.waitForFunction(() => !window.lms.isInitialized());
    data = await cmi();
    assert.ok(version === '1.2' ? data.core.session_time : data.session_time, 'the time spent is reported');
    sco = await open(relaunchData(version, data));
    await sco.waitForSelector('.ex-dot.right');
    assert.match(await sco.textContent('.ex-progress'), /Exercise 2 of 2 · 1 right/);
    assert.equal(await sco.inputValue('#sentence'), '我喜欢人工智能');

    // The second answered right: passed with 100; then a wrong answer changes neither.
    await answer(sco, softmax.expected.toFixed(4));
    await page.waitForFunction((v) => (v === '1.2' ? window.cmi().core.lesson_status : window.cmi().success_status) === 'passed', version);
    assert.equal(scoreOf(version, await cmi()), '100');
    await answer(sco, String(wrong.value));
    await sco.waitForSelector('.ex-feedback.wrong');
    await page.waitForFunction(() => Object.keys(window.cmi().interactions).length === 2);
    data = await cmi();
    assert.equal(statusOf(version, data), version === '1.2' ? 'passed' : 'completed/passed', 'a pass stays a pass');
    assert.equal(scoreOf(version, data), '100', 'the best score counts');
    assert.equal(version === '1.2' ? data.core.exit : data.exit, version === '1.2' ? '' : 'normal', 'the set is finished');
    assert.equal(data.interactions[1].result, version === '1.2' ? 'wrong' : 'incorrect');
    assert.ok(responses(version, data).every((r) => r.length <= 255));
    if (version === '2004') assert.equal(data.score.scaled, '1');
    await page.evaluate(() => window.leave());
    await page.waitForFunction(() => !window.lms.isInitialized());
    assert.deepEqual(problems, []);
    trace.dispose();
    await context.close();
  });
}

test('a lesson on the tour: the card and the answers come back on a relaunch; going through completes it', { timeout: 120_000 }, async () => {
  const context = await browser.newContext({ reducedMotion: 'reduce' });
  const page = await context.newPage();
  const problems = watchProblems(page);
  const open = async (saved) => {
    await page.goto(`${origin}/lms.html?version=1.2&launch=tour/attention-lab.html`);
    await page.evaluate((s) => window.launch(s), saved);
    await page.waitForFunction(() => document.getElementById('sco')?.contentDocument?.body?.dataset.ready === 'true', null, { timeout: 30_000 });
    return (await page.$('#sco')).contentFrame();
  };
  let sco = await open(null);
  await sco.waitForSelector('#tour-title[data-card="sentence"]');
  for (let k = 0; k < 3; k += 1) await sco.click('.tour-next');
  await sco.waitForSelector('#tour-title[data-card="scores"]');
  await sco.click('.tour-choice[data-choice="3"]');
  await sco.waitForSelector('.tour-feedback');
  await page.evaluate(() => window.leave());
  await page.waitForFunction(() => !window.lms.isInitialized());
  const cmi = await page.evaluate(() => window.cmi());
  assert.deepEqual(JSON.parse(cmi.suspend_data).c, [3, { scores: 3 }]);
  assert.equal(cmi.core.lesson_status, 'incomplete');
  sco = await open(relaunchData('1.2', cmi));
  await sco.waitForSelector('#tour-title[data-card="scores"]');
  assert.equal(await sco.getAttribute('.tour-choice[data-choice="3"]', 'aria-pressed'), 'true', 'the answer comes back');
  while (await sco.$('#tour-title[data-card="end"]') === null) await sco.click('.tour-next');
  await sco.click('.tour-next'); // Finish
  await page.waitForFunction(() => window.cmi().core.lesson_status === 'completed');
  assert.deepEqual(problems, []);
  await context.close();
});

test('without a platform, the packaged page is the plain page', { timeout: 60_000 }, async () => {
  const context = await browser.newContext({ reducedMotion: 'reduce' });
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(`${origin}/1.2/attention-lab.html`);
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached', timeout: 30_000 });
  assert.match(await page.textContent('.ex-progress'), /Exercise 1 of 2/, 'the packaged set');
  assert.equal(await page.inputValue('#sentence'), '我喜欢人工智能');
  await page.fill('#exercise-answer', '1');
  await page.click('.ex-check');
  await page.waitForFunction(() => document.querySelector('.ex-feedback').textContent !== '');
  assert.deepEqual(problems, []);
  await context.close();
});

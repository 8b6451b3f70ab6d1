// The cmi5 package (scripts/package-cmi5.mjs): its cmi5.xml, and its AU, the
// offline page, launched in Chromium by a platform (fixtures/cmi5-platform.mjs)
// in front of a real LRS, Learning Locker's xAPI statement service. What arrives
// in the LRS, queried back through its statements API, must pass Learning
// Locker's validator and cmi5's rules: per session launched (the platform's),
// initialized first and terminated last, answered for each exercise, passed or
// failed by the mastery score and completed once in the registration; the
// registration, session id and the platform's context template in each; cmi5's
// category on its own statements only. A relaunch goes on where the learner
// left (the AU's state document); a bad launch says so and the lab works alone.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAttentionLab } from 'attention-lab';
import { startServer } from '../../scripts/serve.mjs';
import { cmi5Entries } from '../../scripts/package-cmi5.mjs';
import { lessonPage } from '../../scripts/lesson-package.mjs';
import { launchChromium } from './chromium.mjs';
import { freePort, startLrs, startPlatform } from './fixtures/cmi5-platform.mjs';
import { checkRegistration as checkStatements, verbName } from './fixtures/cmi5-rules.mjs';

const core = await loadAttentionLab();
const SENTENCE = '我喜欢人工智能';
const COURSE = 'https://courses.example.org/attention';
const PUBLISHER_ID = `${COURSE}/lesson`;
const ACTOR = { objectType: 'Agent', name: 'A learner', account: { homePage: 'https://lms.example.org', name: 'learner-42' } };

const folder = mkdtempSync(join(tmpdir(), 'attention-lab-cmi5-'));
const entries = cmi5Entries({ exercises: 'scaled:2:3,softmax:2:1', sentence: SENTENCE, lang: 'en', step: 'softmax', mastery: '80', id: COURSE, tour: false });
let browser;
let server;
let auUrl;
let lrs;

before(async () => {
  for (const { name, data } of entries) writeFileSync(join(folder, name), data);
  server = await startServer({ root: folder, port: 0, host: '127.0.0.1', csp: null }); // the page carries its own policy
  auUrl = `http://127.0.0.1:${server.address().port}/attention-lab.html`;
  lrs = await startLrs();
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  server?.close();
  lrs?.stop();
  rmSync(folder, { recursive: true, force: true });
});

/** A platform for one learner's new enrolment in the lesson, given to action, closed after. */
async function withPlatform(action) {
  const registration = randomUUID();
  const activityId = `https://lms.example.org/activities/${randomUUID()}`;
  const platform = await startPlatform({ lrs, actor: ACTOR, registration, publisherId: PUBLISHER_ID });
  try {
    await action({ platform, registration, activityId });
  } finally {
    await platform.close();
  }
}

/** A page of its own context, with what goes wrong on it collected; 404s only where xAPI answers "no such document yet". */
async function newPage() {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  const problems = [];
  const missing = [];
  page.on('response', (r) => {
    if (r.status() === 404) missing.push(r.url());
    else if (r.status() >= 400) problems.push(`HTTP ${r.status()} ${r.url()}`);
  });
  page.on('console', (msg) => {
    if (msg.type() !== 'error' && msg.type() !== 'warning') return;
    if (/status of 404/.test(msg.text()) && /agents\/profile|attention-lab-progress/.test(msg.location().url)) return;
    problems.push(`console ${msg.type()}: ${msg.text()} (${msg.location().url})`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  const clean = () => [...problems, ...missing.filter((u) => !/agents\/profile|stateId=attention-lab-progress/.test(u)).map((u) => `404 ${u}`)];
  return { context, page, clean };
}

async function openLesson(page, url, state = 'course.connected') {
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached', timeout: 30_000 });
  await page.waitForSelector(`#course-bar[data-state="${state}"]`, { timeout: 20_000 });
}

/** A new session of the platform's, opened in a page of its own: { page, context, clean, launch }. */
async function relaunch(platform, activityId, { state = 'course.connected', query = '', ...options } = {}) {
  const opened = await newPage();
  const launch = await platform.launch({ auUrl, activityId, ...options });
  await openLesson(opened.page, `${launch.url}${query}`, state);
  return { ...opened, launch };
}

/** Finish: back at the platform's return page, nothing having gone wrong on the way. */
async function finish({ page, context, clean }, platform) {
  await page.click('#course-exit');
  await page.waitForURL(`${platform.origin}/return`);
  await page.waitForLoadState('load'); // the return page's own requests (its icon) are done
  assert.deepEqual(clean(), []);
  await context.close();
}

async function answer(page, value) {
  await page.fill('#exercise-answer', String(value));
  await page.click('.ex-check');
  await page.waitForFunction(() => document.querySelector('.ex-feedback')?.textContent !== '');
}

/** The registration's statements in the LRS, checked by cmi5's rules (fixtures/cmi5-rules.mjs), by session. */
const checkRegistration = async (registration, activityId) =>
  checkStatements(await lrs.statements({ registration }), { registration, activityId, actor: ACTOR, publisherId: PUBLISHER_ID });

/** Waits until check() is true (within 15 s), else fails saying what(). */
async function until(check, what) {
  const began = Date.now();
  while (!check()) {
    if (Date.now() - began > 15_000) assert.fail(what());
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits until the platform has received statements with these verbs from the session (in any order). */
const received = (session, ...verbs) => until(() => {
  const got = session.received.map(verbName);
  return verbs.every((v) => got.filter((g) => g === v).length >= verbs.filter((w) => w === v).length);
}, () => `waited for ${verbs.join(', ')}; the session sent ${session.received.map(verbName).join(', ')}`);

test('cmi5.xml: one course and one AU, the page, with moveOn and the mastery score; the page may reach the platform', async () => {
  const page = await browser.newPage();
  const files = new Map(entries.map(({ name, data }) => [name, data]));
  assert.deepEqual([...files.keys()].sort(), ['attention-lab.html', 'cmi5.xml']);
  const structure = await page.evaluate((xml) => {
    const doc = new DOMParser().parseFromString(xml, 'application/xml');
    if (doc.querySelector('parsererror')) return { error: doc.querySelector('parsererror').textContent };
    const root = doc.documentElement;
    const children = (el) => [...el.children].map((c) => c.localName);
    const au = root.children[1];
    return {
      root: [root.localName, root.namespaceURI],
      top: children(root),
      course: [root.children[0].getAttribute('id'), children(root.children[0])],
      au: [au.getAttribute('id'), au.getAttribute('moveOn'), au.getAttribute('masteryScore'), au.getAttribute('launchMethod'), children(au)],
      url: au.querySelector('url').textContent,
      langs: [...au.querySelector('description').children].map((l) => l.getAttribute('lang')),
    };
  }, files.get('cmi5.xml'));
  assert.deepEqual(structure, {
    root: ['courseStructure', 'https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd'],
    top: ['course', 'au'],
    course: [COURSE, ['title', 'description']],
    au: [PUBLISHER_ID, 'CompletedAndPassed', '0.80', 'AnyWindow', ['title', 'description', 'url']],
    url: 'attention-lab.html',
    langs: ['en-US', 'zh-CN', 'zh-TW'],
  });
  const html = files.get('attention-lab.html');
  assert.match(html, /connect-src http: https:/, 'the AU reaches an endpoint it learns at launch');
  assert.match(lessonPage({}, 'test').page, /connect-src 'none'/, 'the plain offline page still fetches nothing');
  assert.match(html, /<meta name="attention-lab-link" content="exercises=scaled%3A2%3A3%2Csoftmax%3A2%3A1&amp;s=.*&amp;step=softmax/);
  await page.close();
});

test('a learner over three launches: resumed each time; failed, then completed, then passed; every statement valid and in cmi5\'s order', { timeout: 180_000 }, async () => withPlatform(async ({ platform, registration, activityId }) => {
  const trace = core.run(SENTENCE);
  const { layer, head } = trace.articleHead(2);
  const scaled = trace.exercise('scaled', { row: 2, col: 3, layer, head });
  const softmax = trace.exercise('softmax', { row: 2, col: 1, layer, head });
  try {
    // 1. The learner prefers Chinese; answers the first exercise right, then closes the window.
    let lesson = await relaunch(platform, activityId, { languagePreference: 'zh-CN,en-US' });
    let { page, launch } = lesson;
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN', "the learner's language preference");
    assert.match(await page.textContent('#course-status'), /已连接到你的课程/);
    await page.waitForFunction(() => !new URL(location.href).searchParams.has('fetch'), null, { timeout: 5000 }); // the one-time launch parameters leave the address bar
    await answer(page, scaled.expected.toFixed(4));
    await received(launch.session, 'answered');
    await page.click('.ex-next');
    await page.goto('about:blank'); // the window goes: where the learner is kept, and terminated, as it goes
    await received(launch.session, 'terminated');
    await until(() => platform.document(activityId, 'attention-lab-progress')?.lab.x.at === 1, () => 'kept as the page went: on the second exercise');
    const kept = platform.document(activityId, 'attention-lab-progress');
    assert.deepEqual(kept.lab.x.results, [[1, String(Number(scaled.expected.toFixed(4)))], null]);
    assert.deepEqual(lesson.clean(), []);
    await lesson.context.close();

    // 2. Relaunched (still in Chinese, the learner's preference): back at the second exercise.
    //    A wrong answer finishes the set at 1 of 2: failed, completed.
    lesson = await relaunch(platform, activityId);
    ({ page, launch } = lesson);
    await page.waitForSelector('.ex-dot.right');
    assert.match(await page.textContent('.ex-progress'), /第 2 题，共 2 题 · 答对 1 题/);
    await answer(page, softmax.expected + 0.5);
    await received(launch.session, 'answered', 'failed', 'completed');
    await answer(page, softmax.expected.toFixed(4)); // right now, but this session has been judged
    await received(launch.session, 'answered', 'answered');
    await finish(lesson, platform);
    assert.equal(launch.session.terminated, true);

    // 3. Relaunched: the set is all right now; answered again, it passes (completed is not sent twice).
    lesson = await relaunch(platform, activityId);
    ({ page, launch } = lesson);
    await page.waitForSelector('.ex-dot.right >> nth=1');
    await answer(page, softmax.expected.toFixed(4));
    await received(launch.session, 'answered', 'passed');
    await finish(lesson, platform);

    const sessions = await checkRegistration(registration, activityId);
    assert.deepEqual(sessions.map((list) => list.map(verbName)), [
      ['launched', 'initialized', 'answered', 'terminated'],
      ['launched', 'initialized', 'answered', 'failed', 'completed', 'answered', 'terminated'],
      ['launched', 'initialized', 'answered', 'passed', 'terminated'],
    ]);
    const [first] = sessions[0].filter((s) => verbName(s) === 'answered');
    assert.equal(first.object.id, `${activityId}/exercises/scaled-2-3`);
    assert.equal(first.object.definition.interactionType, 'numeric');
    const [lo, hi] = first.object.definition.correctResponsesPattern[0].split('[:]').map(Number);
    assert.ok(lo <= scaled.expected && scaled.expected <= hi && hi - lo <= 2.01 * scaled.tolerance, 'the range the core accepts');
    assert.deepEqual(first.result.score, { scaled: 1, raw: 1, min: 0, max: 1 });
    assert.ok(first.context.contextActivities.parent.some((a) => a.id === activityId), 'an exercise of the lesson');
    assert.match(first.object.definition.description['zh-CN'], /我喜欢人工智能/);
    const failed = sessions[1].find((s) => verbName(s) === 'failed');
    assert.deepEqual(failed.result.score, { scaled: 0.5, raw: 1, min: 0, max: 2 });
    assert.equal(sessions[2].find((s) => verbName(s) === 'passed').result.score.scaled, 1);
  } finally {
    trace.dispose();
  }
}));

test('Browse mode: initialized, answered, terminated only, and no progress kept; the tour completes a Normal session', { timeout: 120_000 }, async () => withPlatform(async ({ platform, registration, activityId }) => {
  const browse = await relaunch(platform, activityId, { launchMode: 'Browse', returnURL: null, state: 'course.browse' });
  const { page } = browse;
  await answer(page, '1');
  await page.click('.ex-next');
  await answer(page, '1');
  await received(browse.launch.session, 'answered', 'answered');
  await page.click('#course-exit');
  await page.waitForSelector('#course-bar[data-state="course.ended"]');
  assert.equal(await page.isHidden('#course-exit'), true);
  assert.equal(platform.document(activityId, 'attention-lab-progress'), null, 'Browse keeps nothing');
  assert.deepEqual(browse.clean(), []);
  await browse.context.close();

  const tour = await relaunch(platform, activityId, { query: '&tour=article' });
  await tour.page.waitForSelector('#tour-title[data-card="sentence"]');
  while (await tour.page.$('#tour-title[data-card="end"]') === null) await tour.page.click('.tour-next');
  await tour.page.click('.tour-next'); // Finish
  await received(tour.launch.session, 'completed');
  await finish(tour, platform);

  const sessions = await checkRegistration(registration, activityId);
  assert.deepEqual(sessions.map((list) => list.map(verbName)), [
    ['launched', 'initialized', 'answered', 'answered', 'terminated'],
    ['launched', 'initialized', 'completed', 'terminated'],
  ]);
}));

test('a bad launch is named in the course bar, and the lab works on its own', { timeout: 120_000 }, async () => withPlatform(async ({ platform, activityId }) => {
  // Parameters missing or garbled: nothing is asked of the platform.
  const { page, context, clean } = await newPage();
  const launch = await platform.launch({ auUrl, activityId });
  const url = new URL(launch.url);
  url.searchParams.delete('actor');
  url.searchParams.set('registration', 'not-a-uuid');
  await openLesson(page, url.href, 'course.failed.params');
  assert.match(await page.textContent('#course-status'), /lacks or garbles actor, registration/);
  assert.equal(launch.session.fetched, false);
  await answer(page, '0.5');
  await page.fill('#sentence', '我喜欢猫');
  await page.waitForFunction(() => document.querySelectorAll('#token-chips .chip').length === 6, null, { timeout: 10_000 });
  await page.selectOption('#lang', 'zh');
  await page.waitForFunction(() => /启动链接/.test(document.getElementById('course-status').textContent), null, { timeout: 10_000 });
  assert.deepEqual(clean(), []);

  // The one-time fetch URL used a second time: the platform's words.
  await openLesson(page, launch.url);
  const again = await context.newPage();
  await openLesson(again, launch.url, 'course.failed.token');
  assert.match(await again.textContent('#course-status'), /already been returned/);
  await again.close();

  // A platform that does not answer.
  const dead = new URL(launch.url);
  dead.searchParams.set('fetch', `http://127.0.0.1:${await freePort()}/fetch`);
  const quiet = await context.newPage();
  const refused = [];
  quiet.on('console', (msg) => refused.push(msg.text()));
  await openLesson(quiet, dead.href, 'course.failed.fetch');
  await answer(quiet, '0.5');
  assert.ok(refused.every((text) => /ERR_CONNECTION_REFUSED|Failed to load resource/.test(text)), refused.join('\n'));
  await context.close();
}));

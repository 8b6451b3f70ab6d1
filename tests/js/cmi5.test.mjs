// The cmi5 AU's plain parts: the launch's parameters, the launch data, the
// learner's language, ids; and its session rules against a stand-in platform
// (a fetch that answers as one): what each answer sends, once a session and once
// a registration, Browse mode, Finish. The browser test (cmi5.browser.test.mjs)
// plays the real page against a real LRS.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CMI5_PARAMS, isCmi5Launch } from '../../web/app/host/cmi5-launch.js';
import { connectCmi5 } from '../../web/app/host/cmi5.js';
import { EXTENSION, PROGRESS_STATE, exerciseActivity, isoDuration, preferredLanguage, readCmi5Launch, readLaunchData, uuid } from '../../web/app/host/cmi5-data.js';
import { languageOfTag } from '../../web/app/strings/i18n.js';

const ACTOR = { objectType: 'Agent', account: { homePage: 'https://lms.example.org', name: '42' } };
const REGISTRATION = '760e3480-ba55-4991-94b0-01820dbd23a2';
const launchQuery = (overrides = {}) => new URLSearchParams({ endpoint: 'https://lrs.example.org/xapi', fetch: 'https://lms.example.org/fetch?k=1',
  actor: JSON.stringify(ACTOR), registration: REGISTRATION, activityId: 'https://lms.example.org/a/1', ...overrides }).toString();

test('the launch: none of cmi5\'s parameters is no launch; each missing or garbled one is named', () => {
  assert.equal(readCmi5Launch('?s=我喜欢&step=softmax'), null);
  assert.equal(isCmi5Launch('?s=我喜欢&step=softmax'), false);
  assert.equal(isCmi5Launch('?fetch='), true, 'any of its parameters makes it a launch (to be checked)');
  assert.deepEqual(readCmi5Launch('?fetch=').problems, [...CMI5_PARAMS], 'the adapter checks the same five');
  const { launch } = readCmi5Launch(`?${launchQuery()}`);
  assert.deepEqual(launch, { endpoint: 'https://lrs.example.org/xapi/', fetchUrl: 'https://lms.example.org/fetch?k=1', actor: ACTOR,
    registration: REGISTRATION, activityId: 'https://lms.example.org/a/1' });
  assert.deepEqual(readCmi5Launch('?endpoint=https://lrs.example.org/').problems, ['fetch', 'actor', 'registration', 'activityId']);
  assert.deepEqual(readCmi5Launch(`?${launchQuery({ endpoint: 'javascript:alert(1)', actor: '{"mbox":"mailto:a@b.c"}', registration: 'x', activityId: 'not an iri' })}`).problems,
    ['endpoint', 'actor', 'registration', 'activityId']);
  assert.deepEqual(readCmi5Launch(`?${launchQuery({ actor: '<b>', fetch: 'ftp://x/' })}`).problems, ['fetch', 'actor']);
  assert.ok(readCmi5Launch(`?${launchQuery({ activityId: 'urn:uuid:760e3480-ba55-4991-94b0-01820dbd23a2' })}`).launch, 'a URN is an IRI');
});

test('the launch data, the learner\'s language, ids and durations', () => {
  const template = { extensions: { [EXTENSION.session]: 's1' } };
  assert.deepEqual(readLaunchData({ contextTemplate: template, launchMode: 'Normal', masteryScore: 0.75, returnURL: 'https://lms.example.org/back' }),
    { template, mode: 'Normal', mastery: 0.75, returnUrl: 'https://lms.example.org/back' });
  assert.equal(readLaunchData({ contextTemplate: template, launchMode: 'Review', returnURL: 'javascript:alert(1)' }).returnUrl, null, 'never a javascript: address');
  assert.throws(() => readLaunchData(null), /no contextTemplate/);
  assert.throws(() => readLaunchData({ contextTemplate: {}, launchMode: 'Normal' }), /no session id/);
  assert.throws(() => readLaunchData({ contextTemplate: template, launchMode: 'Play' }), /launchMode "Play"/);
  assert.throws(() => readLaunchData({ contextTemplate: template, launchMode: 'Normal', masteryScore: 80 }), /masteryScore 80/);
  assert.equal(preferredLanguage({ languagePreference: 'fr-FR, zh-TW,en-US' }, languageOfTag), 'zh-Hant');
  assert.equal(preferredLanguage({ languagePreference: 'fr-FR, zh-CN,en-US' }, languageOfTag), 'zh');
  assert.equal(preferredLanguage({ languagePreference: 'en-GB,zh-TW' }, languageOfTag), 'en');
  assert.equal(preferredLanguage({ languagePreference: 'fr-FR' }, languageOfTag), null);
  assert.equal(preferredLanguage(null, languageOfTag), null);
  assert.equal(exerciseActivity('https://lms.example.org/a/1', 'dot-2-3'), 'https://lms.example.org/a/1/exercises/dot-2-3');
  assert.equal(exerciseActivity('https://lms.example.org/a?id=1', 'dot-2-3'), 'https://lms.example.org/a?id=1#/exercises/dot-2-3');
  const ids = new Set(Array.from({ length: 100 }, () => uuid()));
  assert.equal(ids.size, 100);
  for (const id of ids) assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.equal(isoDuration(61_234), 'PT61.23S');
});

// A platform behind a stand-in fetch: its documents, the statements it got, and each request's headers.
function platform({ mode = 'Normal', mastery = 0.8, saved = null, token = { 'auth-token': 'dG9rZW4=' } } = {}) {
  const documents = new Map([['LMS.LaunchData', { contextTemplate: { contextActivities: { grouping: [{ id: 'urn:x:pub' }] },
    extensions: { [EXTENSION.session]: 'session-1' } }, launchMode: mode, masteryScore: mastery, returnURL: 'https://lms.example.org/back' }]]);
  if (saved) documents.set(PROGRESS_STATE, saved);
  const statements = [];
  const requests = [];
  const fetch = async (url, init = {}) => {
    const u = new URL(url);
    requests.push({ url: u, method: init.method ?? 'GET', headers: init.headers ?? {}, keepalive: init.keepalive });
    const json = (status, body) => ({ ok: status < 300, status, json: async () => body });
    if (u.hostname === 'lms.example.org') return json(200, token);
    if (init.headers?.Authorization !== 'Basic dG9rZW4=') return json(401, {});
    if (u.pathname.endsWith('/statements')) {
      statements.push(...JSON.parse(init.body));
      return json(200, []);
    }
    const id = u.searchParams.get('stateId') ?? u.searchParams.get('profileId');
    if (init.method === 'PUT') {
      documents.set(id, JSON.parse(init.body));
      return json(204, null);
    }
    return documents.has(id) ? json(200, documents.get(id)) : json(404, null);
  };
  return { fetch, documents, statements, requests };
}

async function withFetch(stand, action) {
  const original = globalThis.fetch;
  globalThis.fetch = stand.fetch;
  try {
    return await action();
  } finally {
    globalThis.fetch = original;
  }
}

function lessonAndBar() {
  const shown = [];
  const restored = [];
  const win = { listeners: {}, addEventListener(type, f) { this.listeners[type] = f; }, document: { visibilityState: 'visible' },
    went: [], location: { assign(url) { win.went.push(url); } } };
  const lesson = { progress: () => ({ s: '我喜欢', t: 2, p: 'softmax', x: null, c: null }), restore: async (saved) => restored.push(saved),
    useLanguage: async () => {}, languageOf: languageOfTag, sentence: () => '我喜欢' };
  const bar = { show: (key, args) => shown.push([key, args]), exitable() {} };
  return { win, lesson, bar, shown, restored };
}
const answer = (correct, answered, right, count = 2) => ({ exercise: 'softmax', cell: { row: 2, col: 3 }, answer: 0.5, expected: 0.25,
  tolerance: 0.005, correct, revealed: false, set: { index: answered - 1, count, answered, right } });
const settle = () => new Promise((resolve) => setTimeout(resolve, 10));
const verbs = (list) => list.map((s) => s.verb.id.split('/').pop());

test('a session: initialized; answered each time; failed then completed once the set is answered; terminated on Finish', async () => {
  const stand = platform();
  const { win, lesson, bar, shown } = lessonAndBar();
  await withFetch(stand, async () => {
    const launch = readCmi5Launch(`?${launchQuery()}`).launch;
    const session = connectCmi5(win, launch, lesson, bar);
    session.record(answer(true, 1, 1)); // before the session began: sent after initialized
    assert.equal(await session.connected, true);
    await settle();
    session.record(answer(false, 2, 1));
    await settle();
    session.record(answer(true, 2, 2)); // judged already in this session: no passed
    await settle();
    await session.exit();
    assert.deepEqual(verbs(stand.statements), ['initialized', 'answered', 'answered', 'failed', 'completed', 'answered', 'terminated']);
    assert.deepEqual(win.went, ['https://lms.example.org/back']);
    assert.ok(shown.some(([key]) => key === 'course.connected'));
    const failed = stand.statements[3];
    assert.deepEqual(failed.result.score, { scaled: 0.5, raw: 1, min: 0, max: 2 });
    assert.equal(failed.context.extensions[EXTENSION.mastery], 0.8);
    assert.equal(failed.context.extensions[EXTENSION.session], 'session-1', "the template's values stay");
    assert.deepEqual(stand.documents.get(PROGRESS_STATE).completed, true);
    assert.deepEqual(stand.documents.get(PROGRESS_STATE).passed, false);
    const times = stand.statements.map((s) => s.timestamp);
    assert.deepEqual([...times].sort(), times, 'timestamps in order');
    assert.equal(new Set(times).size, times.length);
    session.record(answer(true, 2, 2));
    await settle();
    assert.equal(stand.statements.length, 7, 'nothing after terminated');
  });
});

test('a later session of the same registration: resumed, passes once, never completes twice; Browse sends no verdict', async () => {
  const stand = platform({ saved: { lab: { s: '我喜欢', t: 2 }, completed: true, passed: false } });
  const { win, lesson, bar, restored } = lessonAndBar();
  await withFetch(stand, async () => {
    const session = connectCmi5(win, readCmi5Launch(`?${launchQuery()}`).launch, lesson, bar);
    assert.equal(await session.connected, true);
    assert.deepEqual(restored, [{ s: '我喜欢', t: 2 }]);
    session.record(answer(true, 2, 2));
    await settle();
    session.record(answer(true, 2, 2));
    await settle();
    win.listeners.visibilitychange?.();
    session.finish(); // the page goes
    await settle();
    assert.deepEqual(verbs(stand.statements), ['initialized', 'answered', 'passed', 'answered', 'terminated']);
    assert.equal(stand.requests.at(-1).keepalive, true, 'sent as the page goes');
  });
  const browse = platform({ mode: 'Browse' });
  const other = lessonAndBar();
  await withFetch(browse, async () => {
    const session = connectCmi5(other.win, readCmi5Launch(`?${launchQuery()}`).launch, other.lesson, other.bar);
    await session.connected;
    session.record(answer(true, 2, 2));
    session.tour({ finished: true });
    await settle();
    await session.exit();
    assert.deepEqual(verbs(browse.statements), ['initialized', 'answered', 'terminated']);
    assert.equal(browse.documents.has(PROGRESS_STATE), false, 'Browse keeps no progress');
    assert.ok(other.shown.some(([key]) => key === 'course.browse'));
  });
});

test('the platform\'s refusals: a used fetch URL and missing launch data are named; nothing is sent', async () => {
  const used = platform({ token: { 'error-code': '1', 'error-text': 'The authorization token has already been returned.' } });
  const one = lessonAndBar();
  await withFetch(used, async () => {
    const session = connectCmi5(one.win, readCmi5Launch(`?${launchQuery()}`).launch, one.lesson, one.bar);
    session.record(answer(true, 1, 1));
    assert.equal(await session.connected, false);
    assert.deepEqual(one.shown.at(-1), ['course.failed.token', { detail: 'The authorization token has already been returned. (1)' }]);
  });
  const empty = platform();
  empty.documents.delete('LMS.LaunchData');
  const two = lessonAndBar();
  await withFetch(empty, async () => {
    const session = connectCmi5(two.win, readCmi5Launch(`?${launchQuery()}`).launch, two.lesson, two.bar);
    assert.equal(await session.connected, false);
    assert.deepEqual(two.shown.at(-1), ['course.failed.launchData', { detail: 'no contextTemplate' }]);
    assert.equal(empty.statements.length, 0);
  });
});

test('package:cmi5 refuses bad settings by name, and writes the title as XML text', async () => {
  const { cmi5Entries, cmi5Policy } = await import('../../scripts/package-cmi5.mjs');
  for (const [values, message] of [[{ 'move-on': 'Sometimes' }, /--move-on is one of Passed, Completed/], [{ mastery: '0.8' }, /--mastery is an integer from 0 to 100/],
    [{ id: 'courses/attention' }, /--id is an absolute IRI/], [{ id: 'https://x.org/c?id=1' }, /without \? or #/], [{ exercises: 'sum' }, /not exercises: sum/]]) {
    assert.throws(() => cmi5Entries(values), message);
  }
  const [structure] = cmi5Entries({ title: '<Lesson & "quotes">', id: 'https://your.org/courses/attention' });
  assert.match(structure.data, /<langstring lang="en-US">&lt;Lesson &amp; &quot;quotes&quot;&gt;<\/langstring>/);
  const [traditional] = cmi5Entries({ lang: 'zh-Hant', title: '注意力', id: 'https://your.org/courses/attention' });
  assert.match(traditional.data, /<title>\s*<langstring lang="zh-TW">注意力<\/langstring>/, 'zh-Hant is tagged zh-TW');
  assert.match(traditional.data, /<langstring lang="zh-TW">用真實的數字一步一步地看縮放內積注意力/, 'the description in traditional characters too');
  assert.throws(() => cmi5Entries({ lang: 'zh-TW' }), /--lang is en, zh, zh-Hant, got zh-TW/);
  assert.match(structure.data, /<au id="https:\/\/your.org\/courses\/attention\/lesson" moveOn="CompletedAndPassed" masteryScore="0.80"/);
  assert.throws(() => cmi5Policy('<meta http-equiv="Content-Security-Policy" content="default-src \'self\'">'), /no connect-src 'none'/);
});

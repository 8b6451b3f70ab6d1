// The course kit's plain parts: exercise sets as links write them, the ZIP
// writer and reader, the SCORM packager's checks, and the SCORM adapter against
// a stand-in runtime (the browser test drives the real page).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseExercises as parseSet } from '../../web/app/panels/exercise-set.js';
import { connectScorm, findScormApi, sessionTime, suspendData } from '../../web/app/host/scorm.js';
import { decimal } from '../../web/app/host/interaction.js';
import { crc32, readZip, writeZip } from '../../scripts/zip.mjs';
import { loadAttentionLab } from '../../web/lib/attention-lab.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

test('exercise sets: the core\'s names, cells, the default, and what is ignored', async () => {
  const { exerciseNames: names } = await loadAttentionLab();
  assert.deepEqual(names, ['dot', 'scaled', 'exp', 'softmax', 'output']);
  assert.ok(Object.isFrozen(names));
  const parseExercises = (text) => parseSet(text, names);
  assert.deepEqual(parseExercises('').items.map((i) => i.name), names);
  assert.deepEqual(parseExercises('softmax:2:3, output').items, [{ name: 'softmax', cell: { row: 2, col: 3 } }, { name: 'output', cell: null }]);
  const { items, ignored } = parseExercises('sum,<b>x</b>,dot:1,exp:1:2');
  assert.deepEqual(items, [{ name: 'exp', cell: { row: 1, col: 2 } }]);
  assert.deepEqual(ignored, ['sum', '<b>x</b>', 'dot:1']);
  assert.equal(parseExercises('nothing').items.length, 5, 'nothing valid: the default set');
  assert.equal(parseExercises(Array(30).fill('dot').join(',')).items.length, 20);
});

test('zip: what is written reads back, CRC-32 is the standard one, damage is caught', () => {
  assert.equal(crc32(Buffer.from('123456789')), 0xcbf43926);
  const zip = writeZip([{ name: 'a.txt', data: 'héllo 你好' }, { name: 'dir/b.bin', data: Buffer.from([0, 1, 2, 255]) }]);
  const files = readZip(zip);
  assert.equal(files.get('a.txt').toString('utf8'), 'héllo 你好');
  assert.deepEqual([...files.get('dir/b.bin')], [0, 1, 2, 255]);
  assert.deepEqual(writeZip([{ name: 'a.txt', data: 'x' }]), writeZip([{ name: 'a.txt', data: 'x' }]), 'the same input, the same bytes');
  const damaged = Buffer.from(zip);
  damaged[40] ^= 0xff;
  assert.throws(() => readZip(damaged), /damaged zip|invalid|incorrect/i);
  assert.throws(() => readZip(Buffer.from('not a zip')), /not a zip file/);
});

test('package:scorm refuses bad options with a clear message', () => {
  const folder = mkdtempSync(join(tmpdir(), 'attention-lab-scorm-args-'));
  try {
    const run = (...args) => spawnSync(process.execPath, ['scripts/package-scorm.mjs', ...args, `--out=${join(folder, 'x.zip')}`], { cwd: ROOT, encoding: 'utf8' });
    for (const [args, message] of [[['--exercises=sum'], /not exercises: sum/], [['--lang=fr'], /--lang is en, zh, zh-Hant/],
      [['--mastery=120'], /--mastery is an integer from 0 to 100/], [['--sentence= '], /--sentence is empty/]]) {
      const result = run(...args);
      assert.equal(result.status, 2, args.join(' '));
      assert.match(result.stderr, message);
    }
    const ok = run('--exercises=dot', '--lang=zh-Hant', '--title=<Lesson & "quotes">');
    assert.equal(ok.status, 0, ok.stderr);
    const files = readZip(readFileSync(join(folder, 'x.zip')));
    const manifest = files.get('imsmanifest.xml').toString('utf8');
    assert.match([...files].find(([name]) => name.endsWith('.html'))[1].toString('utf8'), /<meta name="attention-lab-link" content="[^"]*lang=zh-Hant/);
    assert.match(manifest, /<title>&lt;Lesson &amp; &quot;quotes&quot;&gt;<\/title>/, 'the title is escaped for XML');
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

// A window with a SCORM API (1.2 or 2004) `levels` parents up, recording every call.
function windows(levels, { mastery = '', initialize = 'true', version = '1.2', saved = null } = {}) {
  const calls = [];
  const v12 = version === '1.2';
  const data = v12 ? { 'cmi.student_data.mastery_score': mastery, 'cmi.core.lesson_status': 'not attempted', 'cmi.core.entry': saved ? 'resume' : 'ab-initio' }
    : { 'cmi.scaled_passing_score': mastery && String(Number(mastery) / 100), 'cmi.completion_status': 'unknown', 'cmi.entry': saved ? 'resume' : 'ab-initio' };
  if (saved) data['cmi.suspend_data'] = saved;
  const [init, get, set, commit, finish] = v12 ? ['LMSInitialize', 'LMSGetValue', 'LMSSetValue', 'LMSCommit', 'LMSFinish']
    : ['Initialize', 'GetValue', 'SetValue', 'Commit', 'Terminate'];
  const api = {
    [init]: () => { calls.push([init]); return initialize; },
    [get]: (k) => data[k] ?? '',
    [set]: (k, value) => { calls.push([k, value]); data[k] = value; return 'true'; },
    [commit]: () => { calls.push([commit]); return 'true'; },
    [finish]: () => { calls.push([finish]); return 'true'; },
  };
  const top = { [v12 ? 'API' : 'API_1484_11']: api, listeners: {} };
  top.parent = top;
  let win = top;
  for (let k = 0; k < levels; k += 1) win = { parent: win, listeners: {} };
  win.addEventListener = (type, f) => { win.listeners[type] = f; };
  win.document = { visibilityState: 'visible' };
  return { win, calls, data, top };
}
const result = (correct, index, answered, right, count = 2) => ({ exercise: 'softmax', cell: { row: 2, col: 3 }, answer: 0.5,
  expected: 0.25, tolerance: 0.005, correct, set: { index, count, answered, right } });
const where = { s: '我喜欢人工智能', t: 2, p: 'softmax', x: { at: 1, seed: 0, results: [[1, '0.25'], null], revealed: [] } };

test('the SCORM 1.2 adapter: found in a parent, scores against mastery, keeps where the learner is, finishes once', async () => {
  assert.equal(findScormApi({ parent: null }), null);
  const { win, calls, data } = windows(2, { mastery: '60' });
  assert.equal(findScormApi(win).runtime.version, '1.2');
  const session = connectScorm(win, { progress: () => where, onResume: () => assert.fail('not a relaunch') });
  assert.equal(await session.connected, true);
  assert.equal(data['cmi.core.lesson_status'], 'incomplete');
  assert.equal(data['cmi.core.exit'], 'suspend', 'unfinished: the attempt is suspended, not ended');
  session.record(result(true, 0, 1, 1));
  assert.equal(data['cmi.core.score.raw'], '50');
  assert.equal(data['cmi.core.lesson_status'], 'incomplete');
  assert.equal(data['cmi.interactions.0.result'], 'correct');
  assert.deepEqual(JSON.parse(data['cmi.suspend_data']), where, 'saved after each answer');
  session.record(result(false, 1, 2, 1));
  assert.equal(data['cmi.core.lesson_status'], 'failed', '50 is under the mastery score of 60');
  assert.equal(data['cmi.interactions.1.result'], 'wrong');
  assert.equal(data['cmi.core.exit'], '', 'the set is finished: a normal exit');
  session.record(result(true, 1, 2, 2));
  assert.equal(data['cmi.core.lesson_status'], 'passed');
  session.record(result(false, 0, 2, 1));
  assert.equal(data['cmi.core.lesson_status'], 'passed', 'a pass stays a pass');
  assert.equal(data['cmi.core.score.raw'], '100', 'the best score counts');
  win.document.visibilityState = 'hidden';
  win.listeners.visibilitychange();
  assert.match(data['cmi.core.session_time'], /^\d{4}:\d{2}:\d{2}\.\d{2}$/, 'kept when the page is hidden');
  assert.equal(calls.filter((c) => c[0] === 'LMSFinish').length, 0);
  win.listeners.pagehide();
  session.finish();
  assert.equal(calls.filter((c) => c[0] === 'LMSFinish').length, 1);
  const none = windows(0, { initialize: 'false' });
  assert.equal(await connectScorm(none.win, { progress: () => null, onResume() {} }).connected, false, 'a platform that refuses: the plain page');
  const completed = windows(1);
  connectScorm(completed.win, { progress: () => where, onResume() {} }).record(result(true, 0, 2, 2));
  assert.equal(completed.data['cmi.core.lesson_status'], 'completed', 'no mastery score: completed');
  assert.equal(sessionTime(3_723_450), '0001:02:03.45');
});

test('the SCORM 2004 adapter: completion and success apart, a scaled score, a range as the right response', async () => {
  const { win, data, calls } = windows(1, { version: '2004', mastery: '80' });
  const session = connectScorm(win, { progress: () => where, onResume() {} });
  assert.equal(findScormApi(win).runtime.version, '2004');
  assert.equal(await session.connected, true);
  assert.equal(data['cmi.completion_status'], 'incomplete');
  session.record(result(true, 0, 1, 1));
  assert.equal(data['cmi.score.scaled'], '0.5');
  assert.equal(data['cmi.success_status'], 'unknown');
  assert.equal(data['cmi.interactions.0.learner_response'], '0.5');
  assert.equal(data['cmi.interactions.0.correct_responses.0.pattern'], '0.245[:]0.255');
  session.record(result(false, 1, 2, 1));
  assert.deepEqual([data['cmi.completion_status'], data['cmi.success_status'], data['cmi.interactions.1.result']], ['completed', 'failed', 'incorrect']);
  assert.equal(data['cmi.exit'], 'normal');
  assert.match(data['cmi.session_time'], /^PT\d+\.\d\dS$/);
  session.finish();
  assert.equal(calls.filter((c) => c[0] === 'Terminate').length, 1);
});

test('a relaunch goes on from the saved place; a damaged save starts over; a late API is found', async () => {
  const resumed = [];
  const { win } = windows(1, { saved: JSON.stringify(where) });
  await connectScorm(win, { progress: () => where, onResume: (saved) => resumed.push(saved) }).connected;
  assert.deepEqual(resumed, [where]);
  const damaged = windows(1, { saved: '{"s": "我喜' });
  assert.equal(await connectScorm(damaged.win, { progress: () => where, onResume: () => assert.fail('damaged') }).connected, true);
  // The platform sets its API up after the lesson starts: found, and an early answer is reported.
  const late = windows(1);
  const api = late.top.API;
  delete late.top.API;
  const session = connectScorm(late.win, { progress: () => where, onResume() {} });
  session.record(result(true, 0, 1, 1));
  setTimeout(() => { late.top.API = api; }, 300);
  assert.equal(await session.connected, true);
  assert.equal(late.data['cmi.core.score.raw'], '50');
});

test('going through the tour completes the lesson; its score still comes from the exercises', async () => {
  const v12 = windows(1, { mastery: '80' });
  const session = connectScorm(v12.win, { progress: () => where, onResume() {} });
  await session.connected;
  session.tour({ card: 'scores', index: 3, count: 11, finished: false });
  assert.equal(v12.data['cmi.core.lesson_status'], 'incomplete');
  session.tour({ card: 'end', index: 10, count: 11, finished: true });
  assert.equal(v12.data['cmi.core.lesson_status'], 'completed');
  session.record(result(true, 0, 2, 2));
  assert.equal(v12.data['cmi.core.lesson_status'], 'passed');
  const v2004 = windows(1, { version: '2004', mastery: '80' });
  const other = connectScorm(v2004.win, { progress: () => where, onResume() {} });
  await other.connected;
  other.tour({ card: 'end', index: 10, count: 11, finished: true });
  assert.deepEqual([v2004.data['cmi.completion_status'], v2004.data['cmi.success_status']], ['completed', 'unknown']);
});

test('suspend_data stays within the limit: the sentence goes first, then the answers\' text', () => {
  const long = { ...where, s: '很'.repeat(5000) };
  assert.deepEqual(JSON.parse(suspendData(where, 4096)), where);
  const shorter = JSON.parse(suspendData(long, 4096));
  assert.equal(shorter.s, undefined);
  assert.deepEqual(shorter.x, where.x);
  const answers = { ...where, x: { ...where.x, results: Array.from({ length: 20 }, () => [0, '9'.repeat(250)]) } };
  const kept = JSON.parse(suspendData(answers, 4096));
  assert.deepEqual(kept.x.results[0], [0, '']);
  assert.ok(suspendData(answers, 4096).length <= 4096);
  assert.equal(decimal(1e-9), '0');
  assert.equal(decimal(-0.25), '-0.25');
  assert.equal(decimal(1.5e21).includes('e'), false);
});

test('the API: an exercise, a picked cell and a verdict, with bad arguments refused by name', async () => {
  const { loadAttentionLab } = await import('../../web/lib/attention-lab.js');
  const core = await loadAttentionLab();
  const trace = core.run('我喜欢人工智能');
  const cell = trace.pickCell('softmax', { row: 2, seed: 3, head: 1 });
  assert.equal(cell.row, 2);
  const e = trace.exercise('softmax', { ...cell, head: 1 });
  const weights = trace.stage('weights', { head: 1 });
  assert.equal(e.expected, weights.data[cell.row * weights.cols + cell.col], 'the expected value is the stage itself');
  assert.ok(e.expected >= 0.05, 'a key the query attends to');
  assert.deepEqual(e.cell, cell);
  assert.equal(e.a.length, trace.tokens.length);
  assert.ok(Object.isFrozen(e) && Object.isFrozen(e.mistakes));
  const right = trace.checkAnswer('softmax', { ...cell, head: 1 }, e.expected);
  assert.deepEqual({ ...right }, { exercise: 'softmax', cell, answer: e.expected, expected: e.expected, correct: true, mistake: null, tolerance: e.tolerance });
  for (const m of e.mistakes) assert.equal(trace.checkAnswer('softmax', { ...cell, head: 1 }, m.value).mistake, m.mistake);
  const refused = (f, pattern) => assert.throws(f, (error) => error.name === 'AttentionLabError' && error.code === 'invalid_argument' && pattern.test(error.message));
  refused(() => trace.exercise('sum', { row: 1, col: 1 }), /there is no exercise "sum"/);
  refused(() => trace.exercise(7, { row: 1, col: 1 }), /an exercise is named by a string/);
  refused(() => trace.exercise('dot', { row: 1, col: 99 }), /outside scores/);
  refused(() => trace.exercise('dot', { row: 1.5, col: 1 }), /row must be an integer/);
  refused(() => trace.checkAnswer('dot', { row: 1, col: 1 }, '0.5'), /an answer must be a finite number/);
  refused(() => trace.checkAnswer('dot', { row: 1, col: 1 }, NaN), /an answer must be a finite number/);
  refused(() => trace.pickCell('dot', { seed: -0.5 }), /seed must be an integer/);
  trace.dispose();
});

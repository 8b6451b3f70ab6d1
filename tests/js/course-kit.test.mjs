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
import { parseExercises } from '../../web/app/panels/exercise-set.js';
import { connectScorm, findScormApi, sessionTime } from '../../web/app/host/scorm.js';
import { crc32, readZip, writeZip } from '../../scripts/zip.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

test('exercise sets: names, cells, the default, and what is ignored', () => {
  assert.deepEqual(parseExercises('').items.map((i) => i.name), ['dot', 'scaled', 'exp', 'softmax', 'output']);
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
    for (const [args, message] of [[['--exercises=sum'], /not exercises: sum/], [['--lang=fr'], /--lang is en or zh/],
      [['--mastery=120'], /--mastery is an integer from 0 to 100/], [['--sentence= '], /--sentence is empty/]]) {
      const result = run(...args);
      assert.equal(result.status, 2, args.join(' '));
      assert.match(result.stderr, message);
    }
    const ok = run('--exercises=dot', '--title=<Lesson & "quotes">');
    assert.equal(ok.status, 0, ok.stderr);
    const manifest = readZip(readFileSync(join(folder, 'x.zip'))).get('imsmanifest.xml').toString('utf8');
    assert.match(manifest, /<title>&lt;Lesson &amp; &quot;quotes&quot;&gt;<\/title>/, 'the title is escaped for XML');
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

// A window with a SCORM 1.2 API `levels` parents up, recording every call.
function windows(levels, { mastery = '', initialize = 'true' } = {}) {
  const calls = [];
  const data = { 'cmi.student_data.mastery_score': mastery, 'cmi.core.lesson_status': 'not attempted' };
  const api = {
    LMSInitialize: () => { calls.push(['LMSInitialize']); return initialize; },
    LMSGetValue: (k) => data[k] ?? '',
    LMSSetValue: (k, v) => { calls.push([k, v]); data[k] = v; return 'true'; },
    LMSCommit: () => { calls.push(['LMSCommit']); return 'true'; },
    LMSFinish: () => { calls.push(['LMSFinish']); return 'true'; },
  };
  const top = { API: api, listeners: {} };
  top.parent = top;
  let win = top;
  for (let k = 0; k < levels; k += 1) win = { parent: win, listeners: {} };
  win.addEventListener = (type, f) => { win.listeners[type] = f; };
  return { win, calls, data };
}

test('the SCORM adapter: found in a parent, scores against mastery, finishes once', () => {
  assert.equal(findScormApi({ parent: null }), null);
  const { win, calls, data } = windows(2, { mastery: '60' });
  assert.ok(findScormApi(win));
  const session = connectScorm(win);
  assert.equal(data['cmi.core.lesson_status'], 'incomplete');
  const result = (correct, index, answered, right) => ({ exercise: 'softmax', cell: { row: 2, col: 3 }, answer: 0.5, expected: 0.25,
    correct, set: { index, count: 2, answered, right } });
  session.record(result(true, 0, 1, 1));
  assert.equal(data['cmi.core.score.raw'], '50');
  assert.equal(data['cmi.core.lesson_status'], 'incomplete');
  assert.equal(data['cmi.interactions.0.result'], 'correct');
  session.record(result(false, 1, 2, 1));
  assert.equal(data['cmi.core.lesson_status'], 'failed', '50 is under the mastery score of 60');
  assert.equal(data['cmi.interactions.1.result'], 'wrong');
  win.listeners.pagehide();
  session.finish();
  assert.equal(calls.filter((c) => c[0] === 'LMSFinish').length, 1);
  const none = windows(0, { initialize: 'false' });
  assert.equal(connectScorm(none.win), null, 'a platform that refuses the session: the plain page');
  const completed = windows(1);
  connectScorm(completed.win).record(result(true, 0, 2, 2));
  assert.equal(completed.data['cmi.core.lesson_status'], 'completed', 'no mastery score: completed');
  assert.equal(sessionTime(3_723_450), '0001:02:03.45');
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

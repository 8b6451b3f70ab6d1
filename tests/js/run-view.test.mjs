// The one road from a run to the page (web/app/heads/run-view.js): one view per run, layer and
// head; each answer asked of the core once a run; the run-wide ones shared by the run's views; a
// failure (an ended run) asked again, never kept; and every view of the real core's trace answers
// as the trace does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runViews } from '../../web/app/heads/run-view.js';
import { loadAttentionLab } from '../../web/lib/attention-lab.js';

// A stand-in trace that counts what it is asked.
function countingTrace() {
  const asked = [];
  let ended = false;
  const answer = (name) => (...args) => {
    asked.push([name, ...args]);
    if (ended) throw Object.assign(new Error('this trace was disposed'), { code: 'disposed' });
    return { name, args };
  };
  const trace = {
    tokens: ['[CLS]', '我', '[SEP]'], ids: new Int32Array(3), forms: [], spans: [], config: {}, divisor: 1, knockOut: [],
    get disposed() { return ended; },
  };
  for (const name of ['stage', 'softmaxRow', 'headReport', 'articleHead', 'rollout', 'wordAttention']) trace[name] = answer(name);
  return { trace, asked, end: () => { ended = true; } };
}

test('one view per run, layer and head; each answer asked once; the run-wide ones shared', () => {
  const { trace, asked } = countingTrace();
  const viewOf = runViews(trace);
  const a = viewOf({ layer: 1, head: 2 });
  assert.equal(viewOf({ layer: 1, head: 2 }), a, 'the same view for the same head');
  assert.notEqual(viewOf({ layer: 1, head: 3 }), a);
  assert.deepEqual(viewOf({ layer: 1 }).where, { layer: 1 }, 'a layer\'s own view');
  assert.equal(a.viewOf, viewOf, 'a view reaches its run\'s other views');
  assert.equal(a.stage('weights'), a.stage('weights'));
  a.softmaxRow(2);
  a.softmaxRow(2);
  a.softmaxRow(1);
  a.softmaxRow(2, { jacobian: true });
  a.wordAttention([{ from: 1, to: 2 }]);
  a.wordAttention([{ from: 1, to: 2 }]);
  viewOf({ layer: 1, head: 2 }).headReport();
  a.headReport();
  assert.deepEqual(asked, [
    ['stage', 'weights', { layer: 1, head: 2 }],
    ['softmaxRow', 2, { jacobian: false, layer: 1, head: 2 }],
    ['softmaxRow', 1, { jacobian: false, layer: 1, head: 2 }],
    ['softmaxRow', 2, { jacobian: true, layer: 1, head: 2 }],
    ['wordAttention', [{ from: 1, to: 2 }], { layer: 1, head: 2 }],
    ['headReport', { layer: 1, head: 2 }],
  ]);
  asked.length = 0;
  a.articleHead(2);
  viewOf({ layer: 0, head: 0 }).articleHead(2);
  viewOf({ layer: 0 }).rollout({ words: [] });
  a.rollout({ words: [] });
  assert.deepEqual(asked, [['articleHead', 2], ['rollout', { words: [] }]], 'run-wide answers are shared by its views');
  // Another run: other views, asked again.
  assert.notEqual(runViews(trace)({ layer: 1, head: 2 }), a);
});

test('an ended run: its views throw the trace\'s error each time, and keep none of it', () => {
  const { trace, asked, end } = countingTrace();
  const view = runViews(trace)({ layer: 0, head: 0 });
  view.stage('weights'); // kept while the run lives
  end();
  assert.equal(view.disposed, true);
  assert.throws(() => view.stage('weights'), { code: 'disposed' });
  assert.throws(() => view.stage('weights'), { code: 'disposed' });
  assert.equal(asked.length, 3, 'what was kept is not answered, and a failure is not kept');
});

test('the real core: a view answers as its trace does, for a head and for a layer', async () => {
  const core = await loadAttentionLab();
  const trace = core.run('我喜欢人工智能');
  const viewOf = runViews(trace);
  const where = { layer: 1, head: 2 };
  assert.deepEqual(viewOf(where).stage('weights').data, trace.stage('weights', where).data);
  assert.deepEqual(viewOf(where).softmaxRow(2).probs, trace.softmaxRow(2, where).probs);
  assert.deepEqual(viewOf({ layer: 1 }).stage('layerOutput').data, trace.stage('layerOutput', { layer: 1 }).data);
  assert.deepEqual(viewOf(where).headReport(), trace.headReport(where));
  trace.dispose();
  assert.throws(() => viewOf(where).stage('q'), { code: 'disposed' });
});

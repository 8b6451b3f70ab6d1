// Export → Python (web/app/steps/export-python.js): the script runs with
// Debian's python3-numpy, and every number it prints is the core's, for the
// trained model's heads and the seeded head with and without the causal mask
// and the scaling.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAttentionLab } from 'attention-lab';
import { PYTHON_STAGES, toPython } from '../../web/app/steps/export-python.js';
import { runViews } from '../../web/app/heads/run-view.js';

const core = await loadAttentionLab();
// Debian's interpreter, where python3-numpy is (setup.sh installs it); another python3 on the PATH may lack NumPy.
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
const dir = mkdtempSync(join(tmpdir(), 'attention-lab-python-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the script; its stages as { id: { rows, cols, values } } and its last line. */
function runScript(source, name) {
  const file = join(dir, `${name}.py`);
  writeFileSync(file, source);
  const out = execFileSync(PYTHON, [file], { encoding: 'utf8' }).trim().split('\n');
  const stages = {};
  let current = null;
  for (const line of out.slice(0, -1)) {
    const head = /^# (\w+) (\d+)x(\d+)$/.exec(line);
    if (head) {
      current = stages[head[1]] = { rows: Number(head[2]), cols: Number(head[3]), values: [] };
    } else {
      current.values.push(...line.split(' ').map((x) => (x === '-inf' ? -Infinity : Number(x))));
    }
  }
  return { stages, last: out.at(-1) };
}

// Each printed number against the core's: within 1e-5 of the largest magnitude in its matrix
// (the script computes in float64 from the core's float32 inputs; the core in float32).
function assertSame(printed, m, what) {
  assert.deepEqual([printed.rows, printed.cols], [m.rows, m.cols], what);
  let top = 0;
  for (const v of m.data) if (Number.isFinite(v)) top = Math.max(top, Math.abs(v));
  m.data.forEach((v, k) => {
    const p = printed.values[k];
    if (v === -Infinity) assert.equal(p, -Infinity, `${what}[${k}]`);
    else assert.ok(Math.abs(p - v) <= 1e-5 * top, `${what}[${k}]: ${p} against the core's ${v}`);
  });
}

const cases = [
  ['trained, layer 1 head 1', '我喜欢人工智能', {}, { layer: 0, head: 0 }],
  ['trained, layer 2 head 4', 'Attention is all you need.', {}, { layer: 1, head: 3 }],
  ['seeded, causal', '我喜欢人工智能', { model: 'random', causal: true }, { layer: 0, head: 0 }],
  ['seeded, not scaled', 'the cat sat', { model: 'random', scale: false, dK: 8, dModel: 16 }, { layer: 0, head: 0 }],
];

for (const [name, sentence, options, where] of cases) {
  test(`Export → Python prints the core's stages: ${name}`, () => {
    const trace = core.run(sentence, options);
    const view = runViews(trace)(where);
    const source = toPython(view, `Sentence: ${JSON.stringify(sentence)}; ${name}.`);
    assert.match(source, /^# Attention Lab: one head of softmax\(Q·Kᵀ\/√d_k\)·V, computed again with NumPy\.\n/);
    const { stages, last } = runScript(source, name.replace(/\W+/g, '-'));
    assert.deepEqual(Object.keys(stages), [...PYTHON_STAGES]);
    for (const id of PYTHON_STAGES) assertSame(stages[id], view.stage(id), `${name} ${id}`);
    assert.equal(last, '# the weights of every row add up to 1: True');
    trace.dispose();
  });
}

test('Export → Python: the learner’s text stays in a comment and in string literals', () => {
  const sentence = 'a"b\'c\n# import os\\ """';
  const trace = core.run(sentence, { model: 'random' });
  const view = runViews(trace)({ layer: 0, head: 0 });
  const source = toPython(view, `Sentence: ${JSON.stringify(sentence)}; the seeded head.`);
  assert.ok(!source.includes('\n# import os'), 'a newline in the text does not start a line of code');
  const { stages } = runScript(source, 'hostile');
  assertSame(stages.output, view.stage('output'), 'hostile output');
  // The tokens survive as Python strings: the script can print them back.
  const tokens = execFileSync(PYTHON, ['-c', `${source.split('\nimport numpy as np\n')[1].split('\n# The head')[0]}\nimport json\nprint(json.dumps(tokens))`],
    { encoding: 'utf8', env: { ...process.env, PYTHONIOENCODING: 'utf-8' } });
  assert.deepEqual(JSON.parse(tokens), [...trace.tokens]);
  trace.dispose();
});

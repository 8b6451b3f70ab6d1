// The npm package as a course author gets it: `npm pack` (its prepack builds
// the wasm, glue, element and page), installed from the tarball into an empty
// folder, imported and run by Node 20 with no build step, and typed course
// code (tests/types/course.ts) compiled with `tsc --strict` against it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAttentionLab } from '../../web/lib/attention-lab.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const run = (command, args, cwd) => execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 });

test('npm pack → npm install in an empty folder → import, run and type-check', { timeout: 600_000 }, async (t) => {
  const folder = mkdtempSync(join(tmpdir(), 'attention-lab-package-'));
  t.after(() => rmSync(folder, { recursive: true, force: true }));
  const output = run('npm', ['pack', '--json', '--pack-destination', folder], root);
  const packed = JSON.parse(output.slice(output.search(/^\[\s*\{/m))); // after what prepack's build printed
  const { filename, files } = packed[0];
  const paths = files.map((f) => f.path);
  for (const needed of ['package.json', 'LICENSE', 'web/lib/attention-lab.js', 'web/types/attention-lab.d.ts', 'web/types/after-article.d.ts', 'web/types/exercises.d.ts', 'web/types/row-maths.d.ts', 'web/types/element.d.ts',
    'web/generated/attention-lab-core.wasm', 'web/generated/attention-lab-element.js', 'web/generated/app.css', 'web/generated/later.css',
    'web/generated/attention-lab.html', 'web/models/trained.almodel', 'web/lib/training.js', 'web/lib/training-worker.js',
    'web/types/training.d.ts', 'web/generated/attention-lab-trainer.wasm', 'web/models/training-text.txt', 'web/generated/attention-lab-models.wasm']) {
    assert.ok(paths.includes(needed), `the tarball carries ${needed}`);
  }
  assert.ok(!paths.some((p) => /^(cpp|tests|build|node_modules|bench|scripts)\//.test(p)), `only the whitelist: ${paths.join(', ')}`);

  const app = join(folder, 'course');
  run('mkdir', ['-p', app]);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'a-course', version: '1.0.0', private: true, type: 'module' }));
  run('npm', ['install', join(folder, filename), '--no-audit', '--no-fund', '--offline', '--loglevel=error'], app);
  assert.ok(existsSync(join(app, 'node_modules/attention-lab/web/generated/attention-lab.html')));

  // Plain JavaScript, no build step.
  const script = "import { loadAttentionLab } from 'attention-lab';\n"
    + "const core = await loadAttentionLab();\nconst trace = core.run('我喜欢人工智能');\n"
    + "console.log(JSON.stringify({ tokens: trace.tokens, weights: Array.from(trace.stage('weights', { head: 1 }).data) }));\n";
  writeFileSync(join(app, 'course.mjs'), script);
  const installed = JSON.parse(run(process.execPath, ['course.mjs'], app));
  const core = await loadAttentionLab();
  const here = core.run('我喜欢人工智能');
  assert.deepEqual(installed.tokens, [...here.tokens]);
  assert.deepEqual(installed.weights, Array.from(here.stage('weights', { head: 1 }).data));
  here.dispose();

  // A BERT checkpoint opens from the installed package too (its own module, loaded when asked for).
  const checkpoint = join(folder, 'bert');
  run('/usr/bin/python3', [join(root, 'tests/bert/reference.py'), 'make', checkpoint, '--preset', 'small', '--seed', '2'], root);
  writeFileSync(join(app, 'bert.mjs'), "import { openAsBlob } from 'node:fs';\nimport { loadAttentionLab } from 'attention-lab';\n"
    + 'const core = await loadAttentionLab();\nconst files = {};\n'
    + `for (const name of ['config.json', 'vocab.txt', 'model.safetensors']) files[name] = await openAsBlob(${JSON.stringify(checkpoint)} + '/' + name);\n`
    + "const info = await core.loadModel('bert', files);\n"
    + "console.log(JSON.stringify({ layers: info.layers, tokens: core.run('我喜欢人工智能', { model: 'bert' }).tokens }));\n");
  const bert = JSON.parse(run(process.execPath, ['bert.mjs'], app));
  assert.deepEqual(bert, { layers: 3, tokens: ['[CLS]', ...'我喜欢人工智能', '[SEP]'] });

  // Typed course code, strict, against the package's declarations.
  copyFileSync(join(root, 'tests/types/course.ts'), join(app, 'course.ts'));
  const tsc = join(root, 'node_modules/typescript/bin/tsc');
  run(process.execPath, [tsc, '--strict', '--noEmit', '--skipLibCheck', 'false', '--target', 'es2022', '--module', 'nodenext',
    '--moduleResolution', 'nodenext', '--lib', 'es2022,dom', 'course.ts'], app);
  // …and the same code compiled, then run: the types describe what the API returns.
  run(process.execPath, [tsc, '--strict', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext',
    '--lib', 'es2022,dom', '--outDir', 'out', 'course.ts'], app);
  writeFileSync(join(app, 'out/run.mjs'), "import { lesson } from './course.js';\nimport { readFileSync } from 'node:fs';\n"
    + "const text = readFileSync(new URL('../node_modules/attention-lab/web/models/training-text.txt', import.meta.url), 'utf8');\n"
    + 'console.log(await lesson(text));\n');
  const summary = JSON.parse(run(process.execPath, ['out/run.mjs'], app));
  assert.deepEqual(summary, { right: true, wrong: 'no_scale', rows: 9, n: 9, code: 'empty_text', trained: 3, heads: 2 });
  assert.ok(readdirSync(folder).includes(filename));
});

test('tsc catches misuse: a wrong exercise name is a type error', { timeout: 120_000 }, () => {
  const folder = mkdtempSync(join(tmpdir(), 'attention-lab-types-'));
  try {
    writeFileSync(join(folder, 'bad.ts'), "import type { Trace } from '../../web/types/attention-lab.js';\n"
      + "export function f(trace: Trace): void { trace.exercise('sum', { row: 1, col: 1 }); }\n");
    copyFileSync(join(folder, 'bad.ts'), join(root, 'tests/types/bad.tmp.ts'));
    const tsc = join(root, 'node_modules/typescript/bin/tsc');
    const result = spawnSync(process.execPath, [tsc, '--strict', '--noEmit', '--target', 'es2022', '--module', 'nodenext',
      '--moduleResolution', 'nodenext', 'tests/types/bad.tmp.ts'], { cwd: root, encoding: 'utf8' });
    assert.notEqual(result.status, 0);
    assert.match(result.stdout, /Argument of type '"sum"' is not assignable/);
  } finally {
    rmSync(join(root, 'tests/types/bad.tmp.ts'), { force: true });
    rmSync(folder, { recursive: true, force: true });
  }
});

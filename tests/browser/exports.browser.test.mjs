// Exports: each file's content matches the trace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadAttentionLab } from 'attention-lab';
import { fmt } from '../../web/app/ui/format.js';
import { useServedChromium, watchProblems } from './chromium.mjs';

const WEB = fileURLToPath(new URL('../../web/', import.meta.url));
const core = await loadAttentionLab();
const env = useServedChromium(WEB);

/** The page at `query`, drawn, in a context that accepts downloads. */
async function openForDownloads(query) {
  const context = await env.browser.newContext({ acceptDownloads: true, reducedMotion: 'reduce' });
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(`${env.origin}/${query}`);
  await page.waitForSelector('body[data-rendered]', { state: 'attached' });
  return { context, page, problems };
}

async function exported(page, kind) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.click(`#export-${kind}`)]);
  return { name: file.suggestedFilename(), bytes: readFileSync(await file.path()) };
}

test('CSV, LaTeX, JSON, Python and PNG exports hold the trace\'s numbers', async () => {
  const trace = core.run('我喜欢人工智能', { model: 'random', causal: true });
  const { context, page, problems } = await openForDownloads('?step=scaled&causal=1');

  const csv = await exported(page, 'csv');
  assert.equal(csv.name, 'attention-lab-scaled.csv');
  const lines = csv.bytes.toString('utf8').trim().split('\r\n');
  assert.equal(lines[0], '# scaled (9 x 9)');
  assert.equal(lines[1], ',[CLS],我,喜,欢,人,工,智,能,[SEP]');
  const masked = trace.stage('masked');
  const maskedStart = lines.indexOf('# masked (9 x 9)');
  for (let i = 0; i < 9; i += 1) {
    const cells = lines[maskedStart + 2 + i].split(',');
    assert.equal(cells[0], trace.tokens[i]);
    cells.slice(1).forEach((text, j) => assert.equal(Number(text), masked.data[i * 9 + j]));
  }

  const tex = (await exported(page, 'latex')).bytes.toString('utf8');
  assert.match(tex, /% masked \(9 x 9\)\n\\begin\{bmatrix\}/);
  const firstRow = tex.split('\\begin{bmatrix}\n')[2].split(' \\\\')[0].trim().split(' & ');
  assert.deepEqual(firstRow, Array.from(masked.data.subarray(0, 9), (v) => (v === -Infinity ? '-\\infty' : fmt(v).replace('−', '-'))));

  const json = JSON.parse((await exported(page, 'json')).bytes.toString('utf8'));
  assert.deepEqual(json.tokens, [...trace.tokens]);
  assert.deepEqual(json.config, { ...trace.config });
  assert.deepEqual(Object.keys(json.stages), [...core.stageNames]);
  for (const id of core.stageNames) {
    const expected = Array.from(trace.stage(id).data, (v) => (v === -Infinity ? null : v));
    assert.deepEqual(json.stages[id].data, expected, id);
  }

  // Python: the seeded head's numbers and the article's steps (tests/js/export-python.test.mjs runs such a script).
  const python = await exported(page, 'python');
  assert.equal(python.name, 'attention-lab-head.py');
  const script = python.bytes.toString('utf8');
  assert.match(script, /^# Attention Lab: one head of softmax/);
  assert.match(script, /# Sentence: "我喜欢人工智能"; the seeded random head \(seed 42, d_model 768, d_k 64\)\./);
  assert.match(script, /masked = np\.where\(np\.triu/, 'the causal mask of this run');
  const x = trace.stage('x');
  assert.ok(script.includes(`X = np.array([\n    [${Array.from(x.data.subarray(0, x.cols), String).join(', ')}],`), 'X, the core\'s numbers');

  const png = await exported(page, 'png');
  assert.equal(png.name, 'attention-lab-scaled.png');
  assert.deepEqual([...png.bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.ok(png.bytes.length > 5000);
  // The tokens stage exports its token list.
  await page.click('#step-rail button[data-step="tokens"]');
  const tokens = (await exported(page, 'csv')).bytes.toString('utf8').trim().split('\r\n');
  assert.equal(tokens[0], 'index,token,id');
  assert.equal(tokens[3], `2,喜,${trace.ids[2]}`);
  assert.deepEqual(problems, []);
  trace.dispose();
  await context.close();
});

test('with the trained model, exports are of the selected head; the concat step exports its layer', async () => {
  const trace = core.run('我喜欢人工智能');
  const where = { layer: 0, head: 1 };
  const { context, page, problems } = await openForDownloads('?step=softmax&layer=0&head=1');

  const csv = await exported(page, 'csv');
  assert.equal(csv.name, 'attention-lab-softmax-layer1-head2.csv');
  const lines = csv.bytes.toString('utf8').trim().split('\r\n');
  const weights = trace.stage('weights', where);
  lines[2].split(',').slice(1).forEach((text, j) => assert.equal(Number(text), weights.data[j]));

  const file = await exported(page, 'json');
  assert.equal(file.name, 'attention-lab-trace-layer1-head2.json');
  const json = JSON.parse(file.bytes.toString('utf8'));
  assert.deepEqual(json.head, where);
  assert.deepEqual(json.config, { ...trace.config });
  for (const id of core.stageNames) assert.deepEqual(json.stages[id].data, Array.from(trace.stage(id, where).data), id);
  assert.deepEqual(Object.keys(json.layerStages), [...core.layerStageNames]);
  assert.deepEqual(json.layerStages.concat.data, Array.from(trace.stage('concat', { layer: 0 }).data));
  assert.deepEqual(json.layerStages.layerOutput.data, Array.from(trace.stage('layerOutput', { layer: 0 }).data));
  const python = await exported(page, 'python');
  assert.equal(python.name, 'attention-lab-layer1-head2.py');
  assert.match(python.bytes.toString('utf8'), /# Sentence: "我喜欢人工智能"; the trained model, layer 1, head 2\./);

  await page.click('#step-rail button[data-step="concat"]');
  await page.waitForSelector('body[data-step="concat"][data-rendered]', { state: 'attached' });
  const concat = await exported(page, 'csv');
  assert.equal(concat.name, 'attention-lab-concat-layer1.csv');
  const text = concat.bytes.toString('utf8');
  assert.match(text, /^# concat \(9 x 128\)/);
  assert.match(text, /# wo \(128 x 128\)/);
  assert.match(text, /# projected \(9 x 128\)/);
  assert.deepEqual(problems, []);
  trace.dispose();
  await context.close();
});

test('SVG: a vector figure of the step: every cell a rectangle in the page\'s colour, its value, every head, the selected row', async () => {
  const { makeScale } = await import('../../web/app/matrix/colors.js');
  const hex = (rgb) => `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
  const sentence = '我喜欢<b>AI</b>&"猫"';
  const { context, page, problems } = await openForDownloads(`?step=softmax&s=${encodeURIComponent(sentence)}`);
  const svg = await exported(page, 'svg');
  const trace = core.run(sentence);
  const where = await page.$eval('body', (b) => ({ layer: Number(b.dataset.layer), head: Number(b.dataset.head) }));
  assert.equal(svg.name, `attention-lab-softmax-layer${where.layer + 1}-head${where.head + 1}.svg`);
  const source = svg.bytes.toString('utf8');
  // Parsed by the browser as XML (a stray < or & from the sentence would break it), and drawn as an image.
  const read = await page.evaluate(async (text) => {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    if (doc.querySelector('parsererror')) return { error: doc.querySelector('parsererror').textContent };
    const matrix = (g) => ({ stage: g.dataset.stage, rows: Number(g.dataset.rows), cols: Number(g.dataset.cols),
      cells: [...g.querySelectorAll('rect.cell')].map((r) => ({ i: Number(r.dataset.i), j: Number(r.dataset.j), fill: r.getAttribute('fill') })),
      values: [...g.querySelectorAll('text')].map((t) => t.textContent) });
    return { title: doc.querySelector('title').textContent,
      matrices: [...doc.querySelectorAll('g.matrix')].map(matrix),
      row: [...doc.querySelectorAll('g.softmax-row text')].map((t) => t.textContent) };
  }, source);
  assert.equal(read.error, undefined);
  // Drawn as an image by the browser (a page of its own: the lab's CSP admits no blob: images).
  const blank = await context.newPage();
  await blank.setContent(`<img src="data:image/svg+xml;base64,${svg.bytes.toString('base64')}">`);
  const width = await blank.$eval('img', async (img) => { await img.decode(); return img.naturalWidth; });
  assert.ok(width > 600, `drawn ${width} px wide`);
  await blank.close();
  assert.match(read.title, /^Attention Lab — 我喜欢<b>AI<\/b>&"猫" · softmax · layer \d, head \d$/);
  assert.doesNotMatch(source, /<b>/, 'the sentence is text, escaped');
  const n = trace.tokens.length;
  // Every head of the layer, small; then the selected head's weights, each cell in the page's colour, with its value.
  const heads = read.matrices.filter((m) => m.stage.startsWith('weights-head-'));
  assert.equal(heads.length, trace.config.heads);
  const [main] = read.matrices.filter((m) => m.stage === 'weights');
  const weights = trace.stage('weights', where);
  assert.equal(main.cells.length, n * n);
  const scale = makeScale('sequential', weights.min, weights.max);
  for (const c of main.cells) assert.equal(c.fill, hex(scale.rgb(weights.data[c.i * n + c.j])), `cell ${c.i} ${c.j}`);
  for (let k = 0; k < n * n; k += 1) assert.ok(main.values.includes(fmt(weights.data[k])), fmt(weights.data[k]));
  heads.forEach((m, head) => {
    const w = trace.stage('weights', { layer: where.layer, head });
    const s = makeScale('sequential', w.min, w.max);
    assert.deepEqual(m.cells.map((c) => c.fill), Array.from(w.data, (v) => hex(s.rgb(v))), `head ${head + 1}`);
  });
  // The side panel's row: the selected token through softmax, its probabilities the core's.
  const row = trace.softmaxRow(2, where);
  for (const p of row.probs) assert.ok(read.row.includes(fmt(p)), fmt(p));
  assert.ok(read.row.includes(fmt(row.expSum)));
  // The tokens step has no matrix: a notice, as for PNG.
  await page.click('#step-rail button[data-step="tokens"]');
  await page.waitForSelector('body[data-step="tokens"]', { state: 'attached' });
  await page.click('#export-svg');
  await page.waitForSelector('#input-message:not([hidden])');
  trace.dispose();
  assert.deepEqual(problems, []);
  await context.close();
});

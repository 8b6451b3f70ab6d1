// Exports for teaching material: the current step's matrices as CSV, as LaTeX
// bmatrix and as PNG, and the whole trace as JSON. The numbers are the trace's
// own, written out; only their text form is made here. A chunk the page loads at the first click
// on an export: the page's colours, number format and head names come in as `tools`
// ({ makeScale, fmt, headNumber }), so the chunk shares no module with the first load.
import { labelsFor, toSvg } from './export-svg.js';
import { toPython } from './export-python.js';

const csvField = (text) => (/[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);
const csvNumber = (v) => (v === -Infinity ? '-Infinity' : String(v));

/** CSV: per stage a comment line, a header of column labels, then labelled rows (full precision). */
export function toCsv(trace, stageIds) {
  const lines = [];
  if (stageIds.length === 0) {
    lines.push('index,token,id');
    trace.tokens.forEach((t, i) => lines.push(`${i},${csvField(t)},${trace.ids[i]}`));
  }
  for (const id of stageIds) {
    const m = trace.stage(id);
    const { rows, cols } = labelsFor(m, trace.tokens);
    lines.push(`# ${id} (${m.rows} x ${m.cols})`, ['', ...cols].map(csvField).join(','));
    for (let i = 0; i < m.rows; i += 1) {
      const row = Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols), csvNumber);
      lines.push([csvField(rows[i]), ...row].join(','));
    }
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** LaTeX: one bmatrix per stage (2 decimals, written by fmt), with the tokens in a comment. */
export function toLatex(trace, stageIds, fmt) {
  const latexNumber = (v) => (v === -Infinity ? '-\\infty' : fmt(v, 2).replace('−', '-'));
  const blocks = [`% Attention Lab: ${trace.tokens.join(' ')}`];
  for (const id of stageIds) {
    const m = trace.stage(id);
    const rows = [];
    for (let i = 0; i < m.rows; i += 1) {
      rows.push(`  ${Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols), latexNumber).join(' & ')}`);
    }
    blocks.push(`% ${id} (${m.rows} x ${m.cols})\n\\begin{bmatrix}\n${rows.join(' \\\\\n')}\n\\end{bmatrix}`);
  }
  return `${blocks.join('\n\n')}\n`;
}

const plain = (m) => ({ rows: m.rows, cols: m.cols, data: Array.from(m.data, (v) => (v === -Infinity ? null : v)) });

/** JSON of the whole trace; −∞ (masked cells) is written as null. A trained
 *  model's trace (seen through one head, see head-names.js) gives that head's
 *  stages, which head it is, and its layer's own stages (layerStageNames). */
export function toJson(trace, stageNames, layerStageNames = []) {
  const stages = {};
  for (const id of stageNames) stages[id] = plain(trace.stage(id));
  const layer = {};
  for (const id of layerStageNames) layer[id] = plain(trace.viewOf({ layer: trace.where.layer }).stage(id));
  return JSON.stringify({
    generator: 'Attention Lab',
    note: 'Each stage is row-major: data[i * cols + j]. null stands for −∞ (a masked score).',
    tokens: [...trace.tokens],
    ids: Array.from(trace.ids),
    config: { ...trace.config },
    ...(layerStageNames.length ? { head: { ...trace.where }, knockOut: trace.knockOut.map((k) => ({ ...k })) } : {}),
    stages,
    ...(layerStageNames.length ? { layerStages: layer } : {}),
  }, null, 1);
}

/** A PNG of the stage's first matrix: coloured cells, numbers when they fit, token labels. */
export function toPng(trace, stageId, sequential, { makeScale, fmt }) {
  const m = trace.stage(stageId);
  const { rows, cols } = labelsFor(m, trace.tokens);
  const cell = m.cols <= 24 && m.rows <= 24 ? 56 : Math.max(2, Math.floor(1600 / Math.max(m.cols, m.rows)));
  const withText = cell >= 40;
  const margin = withText ? 90 : 10;
  const canvas = document.createElement('canvas');
  canvas.width = margin + m.cols * cell + 10;
  canvas.height = margin + m.rows * cell + 40;
  const ctx = canvas.getContext('2d');
  const scale = makeScale(sequential ? 'sequential' : 'diverging', m.min, m.max);
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.font = '16px "Noto Sans CJK SC", "WenQuanYi Micro Hei", sans-serif';
  ctx.textBaseline = 'middle';
  ctx.fillStyle = '#1d1f24';
  if (withText) {
    ctx.textAlign = 'center';
    cols.forEach((c, j) => ctx.fillText(c, margin + j * cell + cell / 2, margin - 18));
    ctx.textAlign = 'right';
    rows.forEach((r, i) => ctx.fillText(r, margin - 8, margin + i * cell + cell / 2));
  }
  for (let i = 0; i < m.rows; i += 1) {
    for (let j = 0; j < m.cols; j += 1) {
      const v = m.data[i * m.cols + j];
      ctx.fillStyle = scale.css(v);
      ctx.fillRect(margin + j * cell, margin + i * cell, cell - (withText ? 2 : 0), cell - (withText ? 2 : 0));
      if (withText) {
        ctx.fillStyle = scale.text(v);
        ctx.textAlign = 'center';
        ctx.font = '14px ui-monospace, "DejaVu Sans Mono", monospace';
        ctx.fillText(fmt(v), margin + j * cell + cell / 2 - 1, margin + i * cell + cell / 2);
      }
    }
  }
  ctx.fillStyle = '#5d6370';
  ctx.textAlign = 'left';
  ctx.font = '14px sans-serif';
  ctx.fillText(`${stageId} (${m.rows} × ${m.cols}), values ${fmt(m.min)} … ${fmt(m.max)} — Attention Lab`, 10, canvas.height - 18);
  return new Promise((resolve) => { canvas.toBlob(resolve, 'image/png'); });
}

/** Offers a Blob or text as a file download. */
export function download(name, content, type) {
  const blob = content instanceof Blob ? content : new Blob([content], { type });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Saves the step's matrices (or the whole trace) as kind: png, svg, csv, latex or json, or the head as a Python script.
 *  noMatrix() is called when the step has none for png/svg/latex (the tokens step).
 *  figure: { sentence, selected, t } for the SVG's title and row; tools: { makeScale, fmt, headNumber }. */
export async function exportView(kind, step, trace, { stageNames, layerStageNames }, noMatrix, trained, figure, tools) {
  const { headNumber } = tools;
  const ids = trained || !step.ofLayer ? step.matrices : []; // the seeded head has no layer around it
  const layer = trained ? `-layer${trace.where.layer + 1}` : '';
  const head = trained ? `${layer}-head${headNumber(trace.where.head)}` : '';
  const base = `attention-lab-${step.id}${step.ofLayer ? layer : head}`;
  if (kind === 'json') download(`attention-lab-trace${head}.json`, toJson(trace, stageNames, trained ? layerStageNames : []), 'application/json');
  else if (kind === 'python') {
    const { config, where } = trace;
    const which = trained ? `the trained model, layer ${where.layer + 1}, head ${headNumber(where.head)}`
      : `the seeded random head (seed ${config.seed}, d_model ${config.dModel}, d_k ${config.dK})`;
    download(`attention-lab${trained ? head : '-head'}.py`, toPython(trace, `Sentence: ${JSON.stringify(figure.sentence)}; ${which}.`), 'text/x-python');
  }
  else if (kind === 'csv') download(`${base}.csv`, toCsv(trace, ids), 'text/csv');
  else if (ids.length === 0) noMatrix();
  else if (kind === 'latex') download(`${base}.tex`, toLatex(trace, ids, tools.fmt), 'application/x-tex');
  else if (kind === 'svg') {
    download(`${base}.svg`, toSvg(trace, ids, { step: step.id, stepLabel: step.label(figure.t), trained, ...figure, tools }), 'image/svg+xml');
  }
  else if (kind === 'png') download(`${base}.png`, await toPng(trace, ids.at(-1), ids.at(-1) === 'weights', tools));
}

// Export → SVG: the current step as a vector figure for slides and papers:
// each of its matrices as cells (<rect>) in the page's colours with their
// values where the page's tables show them, the token labels and a legend;
// on the softmax step of a trained model every head of the layer as small
// multiples; and the side panel's row (the selected token through softmax).
// Every number is the trace's own; this only lays them out. All text is
// escaped: tokens are what the learner typed. A chunk of its own (with exports.js): the page's
// colours, number format and head names come in as `tools` ({ makeScale, fmt, headNumber }),
// so the chunk shares no module with the first load.

const FONT = "'Noto Sans CJK SC', 'WenQuanYi Micro Hei', 'DejaVu Sans', sans-serif";
const MONO = "'DejaVu Sans Mono', ui-monospace, monospace";
const INK = '#1d1f24';
const MUTED = '#5d6370';
const TEXT_LIMIT = 24; // values are written in the cells up to 24 × 24, as the page's tables show them

const escape = (text) => String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
const hex = (rgb) => `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
const text = (x, y, content, { size = 13, anchor = 'start', fill = INK, font = FONT, weight = null } = {}) =>
  `<text x="${x}" y="${y}" font-family="${font}" font-size="${size}" text-anchor="${anchor}" fill="${fill}"${weight ? ` font-weight="${weight}"` : ''} dominant-baseline="middle">${escape(content)}</text>`;

/** A matrix's row and column labels: the tokens where a side has one entry per token, else 1, 2, …. */
export const labelsFor = (m, tokens) => ({
  rows: m.rows === tokens.length ? tokens : Array.from({ length: m.rows }, (_, i) => String(i + 1)),
  cols: m.cols === tokens.length ? tokens : Array.from({ length: m.cols }, (_, j) => String(j + 1)),
});

/** One matrix as a group at (x, y): labels, cells, values, legend. Returns { svg, width, height }. */
export function matrixSvg(m, { id, tokens, sequential, x = 0, y = 0, cell: given = null, labels = true, values = null, tools }) {
  const { makeScale, fmt } = tools;
  const cell = given ?? (m.cols <= TEXT_LIMIT && m.rows <= TEXT_LIMIT ? 62 : Math.max(2, Math.floor(900 / Math.max(m.cols, m.rows))));
  const withValues = values ?? (m.cols <= TEXT_LIMIT && m.rows <= TEXT_LIMIT);
  const names = labelsFor(m, tokens);
  const left = labels ? 80 : 0;
  const top = labels ? 26 : 0;
  const scale = makeScale(sequential ? 'sequential' : 'diverging', m.min, m.max);
  const parts = [`<g class="matrix" data-stage="${escape(id)}" data-rows="${m.rows}" data-cols="${m.cols}" transform="translate(${x} ${y})">`];
  if (labels) {
    names.cols.forEach((c, j) => parts.push(text(left + j * cell + cell / 2, top - 12, c, { anchor: 'middle', size: 12 })));
    names.rows.forEach((r, i) => parts.push(text(left - 8, top + i * cell + cell / 2, r, { anchor: 'end', size: 12 })));
  }
  const gap = cell >= 8 ? 1 : 0;
  for (let i = 0; i < m.rows; i += 1) {
    for (let j = 0; j < m.cols; j += 1) {
      const v = m.data[i * m.cols + j];
      const cx = left + j * cell;
      const cy = top + i * cell;
      parts.push(`<rect class="cell" data-i="${i}" data-j="${j}" x="${cx}" y="${cy}" width="${cell - gap}" height="${cell - gap}" fill="${hex(scale.rgb(v))}"/>`);
      if (withValues) parts.push(text(cx + (cell - gap) / 2, cy + (cell - gap) / 2, fmt(v), { anchor: 'middle', size: 11, font: MONO, fill: scale.text(v) }));
    }
  }
  const width = left + m.cols * cell;
  let height = top + m.rows * cell;
  if (labels) { // the legend: the scale from its low end to its high end, and the matrix's range
    const steps = 24;
    const barWidth = Math.min(240, Math.max(120, width - left));
    const barY = height + 12;
    for (let k = 0; k < steps; k += 1) {
      const v = scale.lo + ((scale.hi - scale.lo) * (k + 0.5)) / steps;
      parts.push(`<rect class="legend" x="${left + (barWidth * k) / steps}" y="${barY}" width="${barWidth / steps + 0.5}" height="10" fill="${hex(scale.rgb(v))}"/>`);
    }
    parts.push(text(left, barY + 24, `${fmt(scale.lo)}`, { size: 11, fill: MUTED, font: MONO }),
      text(left + barWidth, barY + 24, `${fmt(scale.hi)}`, { size: 11, fill: MUTED, font: MONO, anchor: 'end' }),
      text(left + barWidth + 12, barY + 5, `${id} · ${fmt(m.min)} … ${fmt(m.max)}`, { size: 11, fill: MUTED, font: MONO }));
    height = barY + 34;
  }
  parts.push('</g>');
  return { svg: parts.join(''), width: Math.max(width, labels ? left + 420 : 0), height };
}

// The side panel's row: the selected token's scores through softmax, as the article's table.
function rowSvg(row, tokens, selected, { x, y, t, fmt }) {
  const columns = [['key', t('detail.key')], ['score', t('detail.raw')], ['scaled', t('detail.divided', { d: fmt(row.divisor, row.divisor % 1 ? 3 : 0) })],
    ['exp', t('detail.exp')], ['share', t('detail.share')], ['prob', t('detail.prob')]];
  const widths = [90, 90, 80, 100, 90, 150];
  const lineHeight = 22;
  const parts = [`<g class="softmax-row" data-row="${selected}" transform="translate(${x} ${y})">`,
    text(0, 0, t('detail.title', { token: tokens[selected] }), { size: 14, weight: 'bold' })];
  let at = 0;
  columns.forEach(([, name], k) => {
    parts.push(text(at + (k ? widths[k] - 6 - (k === columns.length - 1 ? 60 : 0) : 0), 26, name, { size: 12, anchor: k ? 'end' : 'start', weight: 'bold' }));
    at += widths[k];
  });
  const cells = (j) => [tokens[j], fmt(row.scores[j]), fmt(row.scaled[j]), fmt(row.exps[j]), fmt(row.shares[j]), fmt(row.probs[j])];
  for (let j = 0; j < tokens.length; j += 1) {
    const cy = 26 + (j + 1) * lineHeight;
    let cx = 0;
    cells(j).forEach((value, k) => {
      const last = k === cells(j).length - 1;
      parts.push(text(cx + (k ? widths[k] - 6 - (last ? 60 : 0) : 0), cy, value, { size: 12, anchor: k ? 'end' : 'start', font: k ? MONO : FONT,
        weight: j === selected && !k ? 'bold' : null }));
      if (last) parts.push(`<rect class="bar" x="${cx + widths[k] - 60}" y="${cy - 6}" width="${(54 * Math.min(1, Math.max(0, row.probs[j]))).toFixed(2)}" height="12" fill="#d97706"/>`);
      cx += widths[k];
    });
  }
  const sumY = 26 + (tokens.length + 1) * lineHeight;
  parts.push(text(0, sumY, 'Σ', { size: 12, weight: 'bold' }), text(90 + 90 + 80 + 100 - 6, sumY, fmt(row.expSum), { size: 12, anchor: 'end', font: MONO }),
    text(600 - 66, sumY, fmt(row.probSum, 2), { size: 12, anchor: 'end', font: MONO }), '</g>');
  return { svg: parts.join(''), width: 600, height: sumY + 14 };
}

/**
 * The step as one SVG document. trace: the run seen through the selected head (heads/run-view.js);
 * stageIds: the step's matrices; { step, stepLabel, sentence, selected, trained, t, tools }.
 */
export function toSvg(trace, stageIds, { step, stepLabel, sentence, selected, trained, t, tools }) {
  const { headNumber } = tools;
  const where = trained ? t('svg.where', { layer: trace.where.layer + 1, head: headNumber(trace.where.head) }) : '';
  const blocks = [];
  let y = 64;
  const add = ({ svg, width, height }) => {
    blocks.push({ svg, width });
    y += height + 36;
  };
  if (step === 'softmax' && trained && trace.config.heads > 1) { // every head of the layer, small, as the page's grid
    const n = trace.tokens.length;
    const cell = Math.max(3, Math.min(14, Math.floor(160 / n)));
    const parts = [];
    for (let head = 0; head < trace.config.heads; head += 1) {
      const w = trace.viewOf({ layer: trace.where.layer, head }).stage('weights');
      const x = 20 + head * (n * cell + 24);
      parts.push(matrixSvg(w, { id: `weights-head-${head + 1}`, tokens: trace.tokens, sequential: true, x, y: y + 18, cell, labels: false, values: false, tools }).svg,
        text(x, y + 28 + n * cell, t('svg.head', { n: headNumber(head) }), { size: 12, weight: head === trace.where.head ? 'bold' : null }));
    }
    blocks.push({ svg: `<g class="heads">${parts.join('')}</g>`, width: 20 + trace.config.heads * (n * cell + 24) });
    y += 18 + n * cell + 40;
  }
  for (const id of stageIds) {
    const m = trace.stage(id);
    blocks.push({ svg: text(20, y, `${id} (${m.rows} × ${m.cols})`, { size: 14, weight: 'bold' }), width: 0 });
    y += 16;
    add(matrixSvg(m, { id, tokens: trace.tokens, sequential: id === 'weights', x: 20, y, tools }));
  }
  if (['scores', 'scaled', 'softmax'].includes(step) && selected !== null) add(rowSvg(trace.softmaxRow(selected), trace.tokens, selected, { x: 20, y, t, fmt: tools.fmt }));
  const width = Math.ceil(Math.max(640, ...blocks.map((b) => b.width + 40)));
  const height = Math.ceil(y);
  const title = `Attention Lab — ${sentence} · ${stepLabel}${where ? ` · ${where}` : ''}`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
<title>${escape(title)}</title>
<rect width="100%" height="100%" fill="#ffffff"/>
${text(20, 28, title, { size: 16, weight: 'bold' })}
${blocks.map((b) => b.svg).join('\n')}
</svg>
`;
}

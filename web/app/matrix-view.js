// The one matrix renderer every stage view shares. Small matrices become a
// table with the numbers printed in coloured cells; large ones a canvas of
// coloured pixels (numbers on hover). Values come from the trace as they are.
import { makeScale } from './colors.js';
import { h, sleep } from './dom.js';
import { fmt } from './format.js';
import { t } from './i18n.js';
import { hideTooltip, showTooltip } from './tooltip.js';

export const TABLE_LIMIT = 24;      // rows and columns up to this: a table with numbers
const COMPACT_LIMIT = 4096;         // cells up to this (and one side > TABLE_LIMIT): table of colours

/**
 * renderMatrix(m, options) → { element, scale, reveal(): Promise }
 *   m: { rows, cols, data, min, max } from trace.stage()
 *   options.caption, options.rowLabels, options.colLabels
 *   options.scale: 'diverging' | 'sequential'
 *   options.selectedRow: index to outline; options.onRowLabel(i)
 *   options.explain(i, j): tooltip text for a cell
 *   options.previous: an earlier matrix of the same shape; cells then show its
 *     value first and cross-fade to the new one during reveal()
 *   options.sums: per-row values shown in an extra Σ column (options.previousSums:
 *     what that column shows before the cross-fade)
 *   options.stageId: used as a CSS class and data attribute
 *   options.onCell(i, j): called when a cell is hovered or focused
 */
export function renderMatrix(m, options = {}) {
  const scale = makeScale(options.scale ?? 'diverging', m.min, m.max);
  const useTable = m.rows <= TABLE_LIMIT && m.cols <= TABLE_LIMIT;
  const compact = !useTable && m.rows * m.cols <= COMPACT_LIMIT && m.cols <= 128;
  const body = useTable || compact ? table(m, scale, options, !useTable) : canvas(m, scale, options);
  const caption = options.caption
    ? h('div', { class: 'caption' }, options.caption, h('span', { class: 'shape' }, `${m.rows} × ${m.cols}`))
    : null;
  const element = h('figure', {
    class: `matrix-block stage-${options.stageId ?? 'matrix'}`,
    dataset: { stage: options.stageId ?? '' },
  }, caption, body.element);
  return { element, scale, reveal: body.reveal };
}

function cellLabel(options, i, j) {
  const r = options.rowLabels?.[i] ?? i;
  const c = options.colLabels?.[j] ?? j;
  return `${r}, ${c}`;
}

function table(m, scale, options, compact) {
  const prevScale = options.previous ? makeScale(options.scale ?? 'diverging', options.previous.min, options.previous.max) : null;
  const colLabel = (j) => String(options.colLabels?.[j] ?? j + 1);
  const head = h('tr', {}, h('td', {}),
    Array.from({ length: m.cols }, (_, j) => h('th', { scope: 'col' },
      compact ? h('span', { class: 'visually-hidden' }, colLabel(j)) : colLabel(j))),
    options.sums ? h('th', { scope: 'col' }, 'Σ') : null);
  const rows = [];
  for (let i = 0; i < m.rows; i += 1) {
    const label = h('th', {
      scope: 'row',
      class: `row-label${i === options.selectedRow ? ' selected' : ''}`,
      onclick: options.onRowLabel ? () => options.onRowLabel(i) : undefined,
      title: options.onRowLabel ? t('page.followRow') : undefined,
    }, options.rowLabels?.[i] ?? i);
    const cells = [];
    for (let j = 0; j < m.cols; j += 1) {
      const v = m.data[i * m.cols + j];
      const td = h('td', {
        class: compact ? 'compact' : undefined,
        tabindex: '-1',
        dataset: { i, j, value: v },
        'aria-label': `${cellLabel(options, i, j)}: ${fmt(v)}`,
      });
      if (prevScale) {
        const old = options.previous.data[i * m.cols + j];
        td.append(h('span', { class: 'old' }, fmt(old)), h('span', { class: 'new waiting' }, fmt(v)));
        td.style.backgroundColor = prevScale.css(old);
        td.style.color = prevScale.text(old);
      } else {
        if (!compact) td.textContent = fmt(v);
        td.style.backgroundColor = scale.css(v);
        td.style.color = scale.text(v);
      }
      cells.push(td);
    }
    let sum = null;
    if (options.sums) {
      sum = h('td', { class: 'sum', dataset: { i } });
      if (prevScale && options.previousSums) {
        sum.append(h('span', { class: 'old' }, fmt(options.previousSums[i])), h('span', { class: 'new waiting' }, fmt(options.sums[i])));
      } else {
        sum.textContent = fmt(options.sums[i]);
      }
    }
    rows.push(h('tr', { class: i === options.selectedRow ? 'selected' : undefined, dataset: { row: i } }, label, cells, sum));
  }
  const el = h('table', { class: `matrix${compact ? ' compact' : ''}`, role: 'grid' }, h('thead', {}, head), h('tbody', {}, rows));
  wireTableCells(el, m, options);
  // The first cell is the grid's one tab stop; arrows move inside the grid.
  el.querySelector('td[data-j]')?.setAttribute('tabindex', '0');

  const allCells = () => el.querySelectorAll('td[data-j], td.sum');
  const reveal = async ({ animate, stagger = 60, mode = 'rows' }) => {
    if (!animate) {
      finishCells(allCells(), scale, m, prevScale);
      return;
    }
    if (mode === 'rows' && prevScale) {
      // Row by row, each row turns from the previous values into the new ones.
      await sleep(500);
      for (const tr of el.tBodies[0].rows) {
        finishCells(tr.querySelectorAll('td'), scale, m, prevScale);
        await sleep(stagger);
      }
    } else if (mode === 'rows') {
      for (const tr of el.tBodies[0].rows) tr.querySelectorAll('td').forEach((td) => td.classList.add('pending'));
      await sleep(30);
      for (const tr of el.tBodies[0].rows) {
        tr.querySelectorAll('td').forEach((td) => td.classList.remove('pending'));
        await sleep(stagger);
      }
    } else if (prevScale) {
      // Two steps: the new values first keep the previous colour scale, so a
      // shrinking range shows as fading colours; then the scale is re-fitted.
      await sleep(300);
      finishCells(allCells(), prevScale, m, prevScale);
      await sleep(motionMs() + 900);
      finishCells(allCells(), scale, m, prevScale);
    }
    await sleep(motionMs());
  };
  return { element: el, reveal };
}

function finishCells(cells, scale, m, prevScale) {
  if (!prevScale) return;
  for (const td of cells) {
    td.querySelector('.old')?.classList.add('gone');
    td.querySelector('.new')?.classList.remove('waiting');
    if (td.dataset.j === undefined) continue; // the Σ column keeps its plain look
    const v = m.data[Number(td.dataset.i) * m.cols + Number(td.dataset.j)];
    td.style.backgroundColor = scale.css(v);
    td.style.color = scale.text(v);
  }
}

function motionMs() {
  const value = getComputedStyle(document.documentElement).getPropertyValue('--motion');
  return Number.parseFloat(value) || 0;
}

function wireTableCells(el, m, options) {
  const explain = (td) => {
    const i = Number(td.dataset.i);
    const j = Number(td.dataset.j);
    return options.explain ? options.explain(i, j) : `${cellLabel(options, i, j)} = ${fmt(m.data[i * m.cols + j])}`;
  };
  const point = (td) => {
    showTooltip(explain(td), td);
    options.onCell?.(Number(td.dataset.i), Number(td.dataset.j));
  };
  el.addEventListener('mouseover', (event) => {
    const td = event.target.closest('td[data-j]');
    if (td) point(td);
  });
  el.addEventListener('mouseleave', hideTooltip);
  el.addEventListener('focusin', (event) => {
    const td = event.target.closest('td[data-j]');
    if (td) point(td);
  });
  el.addEventListener('focusout', hideTooltip);
  el.addEventListener('keydown', (event) => {
    const td = event.target.closest('td[data-j]');
    if (!td) return;
    const moves = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    event.stopPropagation();
    const i = Math.min(m.rows - 1, Math.max(0, Number(td.dataset.i) + move[0]));
    const j = Math.min(m.cols - 1, Math.max(0, Number(td.dataset.j) + move[1]));
    const next = el.querySelector(`td[data-i="${i}"][data-j="${j}"]`);
    td.setAttribute('tabindex', '-1');
    next.setAttribute('tabindex', '0');
    next.focus();
  });
}

/** A canvas with one pixel per entry, stretched; hover shows the value. */
export function heatCanvas(m, scale, { height, explain, onCell } = {}) {
  const canvas = h('canvas', { class: 'heat' });
  canvas.width = m.cols;
  canvas.height = m.rows;
  const ctx = canvas.getContext('2d');
  const image = ctx.createImageData(m.cols, m.rows);
  for (let t = 0; t < m.rows * m.cols; t += 1) image.data.set([...scale.rgb(m.data[t]), 255], t * 4);
  ctx.putImageData(image, 0, 0);
  if (height) canvas.style.height = height;
  canvas.addEventListener('mousemove', (event) => {
    const r = canvas.getBoundingClientRect();
    const j = Math.min(m.cols - 1, Math.floor(((event.clientX - r.left) / r.width) * m.cols));
    const i = Math.min(m.rows - 1, Math.floor(((event.clientY - r.top) / r.height) * m.rows));
    const text = explain ? explain(i, j) : `(${i}, ${j}) = ${fmt(m.data[i * m.cols + j])}`;
    showTooltip(text, { x: event.clientX, y: event.clientY });
    onCell?.(i, j);
  });
  canvas.addEventListener('mouseleave', hideTooltip);
  return canvas;
}

function canvas(m, scale, options) {
  const pixels = heatCanvas(m, scale, {
    onCell: options.onCell,
    explain: options.explain ?? ((i, j) => `${cellLabel(options, i, j)} = ${fmt(m.data[i * m.cols + j])}`),
  });
  // At most 640 × 480 CSS pixels and 12 pixels a cell; square matrices keep square cells.
  let cellW = Math.min(12, 640 / m.cols);
  let cellH = Math.min(12, Math.max(1, 480 / m.rows));
  if (m.rows === m.cols) cellW = cellH = Math.min(cellW, cellH);
  pixels.style.width = `${Math.round(m.cols * cellW)}px`;
  pixels.style.height = `${Math.round(m.rows * cellH)}px`;
  pixels.setAttribute('role', 'img');
  pixels.setAttribute('aria-label', t('matrix.canvas', { rows: m.rows, cols: m.cols, min: fmt(m.min), max: fmt(m.max) }));
  const reveal = async ({ animate }) => {
    if (!animate) return;
    pixels.animate?.([{ opacity: 0 }, { opacity: 1 }], { duration: motionMs() || 1, easing: 'ease-out' });
    await sleep(motionMs());
  };
  return { element: pixels, reveal };
}

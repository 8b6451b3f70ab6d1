// A matrix too big for printed numbers, as one canvas of coloured cells.
import { makeScale } from './colors.js';
import { h, on, sleep } from '../ui/dom.js';
import { fmt } from '../ui/format.js';
import { cellAt, heatCanvas, hoverCells, keptCanvas } from './heat-canvas.js';
import { cellLabel, MOVES } from './matrix-table.js';
import { motionMs } from './matrix-transitions.js';
import { hideTooltip, showTooltip } from '../ui/tooltip.js';

// A matrix too big for printed numbers: one canvas of coloured cells (at most
// 640 × 480 CSS pixels, 12 a cell, square matrices with square cells). It is
// one tab stop: arrow keys walk a cursor over the cells, and each cell's text
// goes to the tooltip and to a polite live region for screen readers.
export function canvas(m, scale, options) {
  const explain = options.explain ?? ((i, j) => `${cellLabel(options, i, j)} = ${fmt(m.data[i * m.cols + j])}`);
  // Kept for the matrix's values and colours (see keptCanvas): a step shown
  // again, or one the warm-up drew, takes its canvas as it is, without setting
  // up and painting a new one in the frame of the step.
  const pixels = keptCanvas(m.data, `matrix ${scale.kind} ${scale.lo} ${scale.hi}`, () => heatCanvas(m, scale));
  hoverCells(pixels, m, { onCell: options.onCell, explain });
  let cellW = Math.min(12, 640 / m.cols);
  let cellH = Math.min(16, Math.max(1, 480 / m.rows));
  if (m.rows === m.cols) cellW = cellH = Math.min(cellW, cellH);
  const size = { width: `${Math.round(m.cols * cellW)}px`, height: `${Math.round(m.rows * cellH)}px` };
  Object.assign(pixels.style, size);
  pixels.setAttribute('role', 'img');
  pixels.setAttribute('aria-label', options.t('matrix.canvas', { rows: m.rows, cols: m.cols, min: fmt(m.min), max: fmt(m.max) }));
  pixels.tabIndex = 0;
  const cursor = h('span', { class: 'cell-cursor', hidden: true });
  const live = h('span', { class: 'visually-hidden', 'aria-live': 'polite' });
  const selected = options.selectedRow ?? -1;
  const mark = selected >= 0 && selected < m.rows
    ? h('span', { class: 'row-mark', style: { top: `${selected * cellH}px`, height: `${cellH}px` } })
    : null;
  // data-atomic: a redraw replaces the frame whole (its handlers hold its parts).
  const frame = h('div', { class: 'pixels', 'data-atomic': true }, pixels, mark, cursor, live);
  // Rows tall enough for text get their token beside them (a click follows it).
  const labels = options.rowLabels && cellH >= 11
    ? h('div', { class: 'row-labels', 'aria-hidden': 'true', style: { height: size.height } },
      Array.from({ length: m.rows }, (_, i) => h('span', {
        class: i === selected ? 'selected' : undefined,
        style: { height: `${cellH}px`, lineHeight: `${cellH}px` },
        title: options.onRowLabel ? options.t('page.followRow') : undefined,
        onclick: options.onRowLabel ? () => options.onRowLabel(i) : undefined,
      }, options.rowLabels[i])))
    : null;

  let at = [Math.min(m.rows - 1, Math.max(0, options.selectedRow ?? 0)), 0];
  const point = ([i, j]) => {
    at = [i, j];
    const box = pixels.getBoundingClientRect();
    const w = box.width / m.cols;
    const hgt = box.height / m.rows;
    Object.assign(cursor.style, { left: `${j * w}px`, top: `${i * hgt}px`, width: `${Math.max(w, 3)}px`, height: `${Math.max(hgt, 3)}px` });
    cursor.hidden = false;
    const text = explain(i, j);
    showTooltip(text, cursor);
    live.textContent = text;
    options.onCell?.(i, j);
  };
  on(pixels, 'mousedown', (event) => { at = cellAt(pixels, m, event); }); // a click focuses that cell
  on(pixels, 'focus', () => point(at));
  on(pixels, 'blur', () => {
    cursor.hidden = true;
    hideTooltip(pixels);
  });
  on(pixels, 'keydown', (event) => {
    const move = MOVES[event.key];
    if (!move) return;
    event.preventDefault();
    event.stopPropagation();
    point([Math.min(m.rows - 1, Math.max(0, at[0] + move[0])), Math.min(m.cols - 1, Math.max(0, at[1] + move[1]))]);
  });

  // One element animates, whatever the size: rows sweep in from the top, or
  // the previous values (in their own colours) fade out over the new ones.
  const reveal = async ({ animate, stagger = 60, mode = 'rows' }) => {
    if (!animate || !pixels.animate) return;
    await null; // on the page first (the frame is moved in whole: no live() needed)
    const ms = motionMs(pixels) || 1;
    if (options.previous) {
      // Layers over the final picture, faded out one by one: the previous
      // values, then (mode 'fade', as the table does) the new values still on
      // the previous colour scale, so a shrinking range shows as paling colours.
      const prevScale = makeScale(options.scale ?? 'diverging', options.previous.min, options.previous.max);
      const layers = [heatCanvas(options.previous, prevScale)];
      if (mode === 'fade') layers.push(heatCanvas(m, prevScale));
      for (const layer of layers) {
        layer.classList.add('before');
        Object.assign(layer.style, size);
      }
      pixels.after(...[...layers].reverse());
      await sleep(300);
      for (const layer of layers) {
        await layer.animate([{ opacity: 1 }, { opacity: 0 }], { duration: ms + 600, fill: 'forwards' }).finished;
        layer.remove();
      }
    } else if (mode === 'rows') {
      const sweep = Math.max(ms, Math.min(m.rows * stagger, 1500));
      await pixels.animate([{ clipPath: 'inset(0 0 100% 0)' }, { clipPath: 'inset(0 0 0 0)' }], { duration: sweep }).finished;
    } else {
      await pixels.animate([{ opacity: 0 }, { opacity: 1 }], { duration: ms, easing: 'ease-out' }).finished;
    }
  };
  return { element: labels ? h('div', { class: 'pixels-with-labels', 'data-atomic': true }, labels, frame) : frame, reveal };
}

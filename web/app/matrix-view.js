// The one matrix renderer every stage view shares. Small matrices become a
// table with the numbers printed in coloured cells; larger ones a canvas of
// coloured cells (numbers on hover and, cell by cell, from the keyboard):
// thousands of table cells would cost the browser far more to lay out and
// animate than one canvas. Values come from the trace as they are.
import { makeScale } from './colors.js';
import { h, live, on, sleep } from './dom.js';
import { fmt } from './format.js';
import { t } from './i18n.js';
import { cellAt, heatCanvas, hoverCells, keptCanvas } from './heat-canvas.js';
import { hideTooltip, showTooltip } from './tooltip.js';

export const TABLE_LIMIT = 24;      // rows and columns up to this: a table with numbers

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
 *   options.arriving: reveal() will bring the table's rows in one by one (mode
 *     'rows'): they are built as they come (see arrivingRows)
 */
export function renderMatrix(m, options = {}) {
  const scale = makeScale(options.scale ?? 'diverging', m.min, m.max);
  const useTable = m.rows <= TABLE_LIMIT && m.cols <= TABLE_LIMIT;
  const body = useTable ? table(m, scale, options) : canvas(m, scale, options);
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

function table(m, scale, options) {
  const colLabel = (j) => String(options.colLabels?.[j] ?? j + 1);
  const head = h('tr', {}, h('td', {}),
    Array.from({ length: m.cols }, (_, j) => h('th', { scope: 'col' }, colLabel(j))),
    options.sums ? h('th', { scope: 'col' }, 'Σ') : null);
  const label = (i) => h('th', {
    scope: 'row',
    class: `row-label${i === options.selectedRow ? ' selected' : ''}`,
    onclick: options.onRowLabel ? () => options.onRowLabel(i) : undefined,
    title: options.onRowLabel ? t('page.followRow') : undefined,
  }, options.rowLabels?.[i] ?? i);
  const row = (i) => {
    const cells = [];
    for (let j = 0; j < m.cols; j += 1) {
      const v = m.data[i * m.cols + j];
      cells.push(h('td', {
        tabindex: '-1',
        dataset: { i, j, value: v },
        'aria-label': `${cellLabel(options, i, j)}: ${fmt(v)}`,
        style: { backgroundColor: scale.css(v), color: scale.text(v) },
      }, fmt(v)));
    }
    const sum = options.sums ? h('td', { class: 'sum', dataset: { i } }, fmt(options.sums[i])) : null;
    return h('tr', { class: i === options.selectedRow ? 'selected' : undefined, dataset: { row: i } }, label(i), cells, sum);
  };
  const arrivals = options.arriving && m.rows > 1 ? arrivingRows(m, options, row, label) : null;
  const rows = arrivals?.rows ?? Array.from({ length: m.rows }, (_, i) => row(i));
  const el = h('table', { class: 'matrix', role: 'grid' }, h('thead', {}, head), h('tbody', {}, rows));
  wireTableCells(el, m, options);
  // The first cell is the grid's one tab stop; arrows move inside the grid.
  el.querySelector('td[data-j]')?.setAttribute('tabindex', '0');

  // The cells always hold their final numbers and colours. A transition from
  // options.previous lays covers over them — a second table of the previous
  // values in their own colours, stacked over the first in one grid cell — and
  // fades the covers out: opacity only, which the compositor animates without
  // restyling a cell per frame, one layer for the whole table or one per row
  // (a fade per cell made the compositor set up 81 layers at once). The two
  // tables share their headers, labels and reserved column widths (each
  // column's widest number over both, in ch: the numbers are monospaced), so
  // each cover lies exactly on its cell with nothing measured: the step's task
  // forces no layout.
  const stack = h('div', { class: 'table-stack' }, el);
  // Each column as wide as its widest number before or after (the first row's cells).
  let widths = null;
  const reserve = (table) => {
    const text = (data, sums) => (i, j) => (j < m.cols ? fmt(data[i * m.cols + j]) : sums ? fmt(sums[i]) : '');
    const values = [text(m.data, options.sums), text(options.previous.data, options.previousSums)];
    widths ??= Array.from({ length: m.cols + (options.sums ? 1 : 0) }, (_, j) => {
      let most = 0;
      for (const value of values) for (let i = 0; i < m.rows; i += 1) most = Math.max(most, value(i, j).length);
      return most;
    });
    [...table.tBodies[0].rows[0].cells].slice(1).forEach((td, j) => { td.style.minWidth = reservedWidth(widths[j]); });
  };
  // Covers showing `data` (and `sums`, if any) in the previous colours, over
  // the page's table or under another cover.
  const covers = (data, sums, under = null) => {
    const colours = makeScale(options.scale ?? 'diverging', options.previous.min, options.previous.max);
    const page = live(el);
    const rows = [...page.tBodies[0].rows].map((tr, i) => {
      const cells = [];
      for (let j = 0; j < m.cols; j += 1) {
        const v = data[i * m.cols + j];
        cells.push(h('td', { style: { backgroundColor: colours.css(v), color: colours.text(v) } }, fmt(v)));
      }
      const sum = options.sums ? h('td', { class: sums ? 'sum' : 'sum blank' }, sums ? fmt(sums[i]) : '') : null;
      return h('tr', { class: tr.classList.contains('selected') ? 'selected' : undefined }, tr.cells[0].cloneNode(true), cells, sum);
    });
    const table = h('table', { class: 'matrix covers', 'aria-hidden': 'true' }, page.tHead.cloneNode(true), h('tbody', {}, rows));
    reserve(page);
    reserve(table);
    if (under) under.before(table);
    else page.after(table);
    return table;
  };
  const gone = (cover) => cover.classList.add('gone');
  const reveal = async ({ animate, stagger = 60, mode = 'rows' }) => {
    if (!animate) {
      arrivals?.fill();
      return;
    }
    await null; // the page's redraw morphs the new view in first; the animation plays on the page's table
    if (arrivals && (mode !== 'rows' || options.previous)) arrivals.fill(); // only a plain row-by-row reveal brings them
    if (mode === 'rows' && options.previous) {
      // Row by row, the previous values give way to the new ones.
      const covering = covers(options.previous.data, options.previousSums);
      await sleep(500);
      for (const tr of covering.tBodies[0].rows) {
        gone(tr);
        await sleep(stagger);
      }
      await sleep(motionMs());
      covering.remove();
      return;
    }
    if (mode === 'rows' && arrivals) {
      const turn = arrivals.start(live(el));
      let tr = live(el).tBodies[0].rows[0];
      tr.classList.add('pending');
      await sleep(30);
      for (let i = 0; i < m.rows; i += 1) {
        tr.classList.remove('pending');
        // The next row comes in hidden now, one frame before its own fade.
        if (i + 1 < m.rows && !(tr = arrivals.bring(i + 1, turn))) return; // a newer drawing took this table over
        await sleep(stagger);
      }
      arrivals.done(turn);
    } else if (mode === 'rows') {
      const rows = [...live(el).tBodies[0].rows];
      for (const tr of rows) tr.classList.add('pending');
      await sleep(30);
      for (const tr of rows) {
        tr.classList.remove('pending');
        await sleep(stagger);
      }
    } else if (options.previous) {
      // Two steps: the new values first on the previous colour scale, so a
      // shrinking range shows as fading colours; then the scale is re-fitted.
      // The middle layer goes in under the first one a few frames later: two
      // layers of covers in the step's first frame made it twice as heavy.
      const first = covers(options.previous.data, options.previousSums);
      await sleep(150);
      if (!first.isConnected) return; // a newer drawing took this table over
      const middle = covers(m.data, null, first);
      await sleep(150);
      gone(first);
      await sleep(motionMs() + 900);
      gone(middle);
      await sleep(motionMs());
      first.remove();
      middle.remove();
      return;
    }
    await sleep(motionMs());
  };
  return { element: stack, reveal };
}

// A table that appears row by row (options.arriving: the view will reveal it
// so) is built as its first row and stand-ins for the others (the row's
// label, hidden, and one empty cell across, at the row's height), so the
// step's own task and first frame build, style and lay out a few dozen
// elements instead of the whole table; each row is built and takes its
// stand-in's place just before its fade. The first row's cells reserve each
// column's widest number (monospaced digits: a width in ch), so no column
// widens as the rows come in.
const TURNS = new WeakMap(); // the page's table → the reveal now bringing its rows

function arrivingRows(m, options, row, label) {
  const widest = Array.from({ length: m.cols }, (_, j) => {
    let most = 0;
    for (let i = 0; i < m.rows; i += 1) most = Math.max(most, fmt(m.data[i * m.cols + j]).length);
    return most;
  });
  if (options.sums) widest.push(Math.max(...Array.from(options.sums, (v) => fmt(v).length)));
  const first = row(0);
  const reserved = [...first.cells].slice(1);
  reserved.forEach((td, j) => { td.style.minWidth = reservedWidth(widest[j]); });
  const standIns = Array.from({ length: m.rows - 1 }, (_, k) => h('tr', { class: 'stand-in pending', 'aria-hidden': 'true', dataset: { row: k + 1 } },
    label(k + 1), h('td', { colspan: widest.length })));
  return {
    rows: [first, ...standIns],
    /** Claims the page's table for one reveal; a later reveal of the same table takes it over. */
    start(table) {
      const turn = {};
      TURNS.set(table, turn);
      return turn;
    },
    /** Builds row i and puts it, hidden, in its stand-in's place; null once a newer drawing has taken the table over. */
    bring(i, turn) {
      const standIn = live(standIns[i - 1]);
      if (!standIn.isConnected || TURNS.get(standIn.closest('table')) !== turn || !standIn.classList.contains('stand-in')) return null;
      const tr = row(i);
      tr.classList.add('pending');
      standIn.replaceWith(tr);
      return tr;
    },
    done(turn) {
      const kept = live(first);
      if (TURNS.get(kept.closest('table')) === turn) [...kept.cells].slice(1).forEach((td) => { td.style.minWidth = ''; });
    },
    /** No reveal after all: every row built at once, in the table as built. */
    fill() {
      standIns.forEach((standIn, k) => live(standIn).replaceWith(row(k + 1)));
      [...live(first).cells].slice(1).forEach((td) => { td.style.minWidth = ''; });
    },
  };
}

// A column's width kept for numbers of up to `chars` characters (the numbers
// are monospaced: a width in ch, plus the cell's padding), and never below a
// cell's own minimum width (app.css).
const reservedWidth = (chars) => `max(3.4rem, calc(${chars}ch + 0.6rem))`;

function motionMs() {
  // The page sets --motion inline (speed, reduced motion); reading the inline
  // value forces no style recalculation, unlike getComputedStyle.
  const root = document.documentElement;
  const value = root.style.getPropertyValue('--motion') || getComputedStyle(root).getPropertyValue('--motion');
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
  // Through on(): a redraw that keeps this table swaps in its new handlers.
  on(el, 'mouseover', (event) => {
    const td = event.target.closest('td[data-j]');
    if (td) point(td);
  });
  on(el, 'mouseleave', hideTooltip);
  on(el, 'focusin', (event) => {
    const td = event.target.closest('td[data-j]');
    if (td) point(td);
  });
  on(el, 'focusout', hideTooltip);
  on(el, 'keydown', (event) => {
    const td = event.target.closest('td[data-j]');
    if (!td) return;
    const moves = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    event.stopPropagation();
    const i = Math.min(m.rows - 1, Math.max(0, Number(td.dataset.i) + move[0]));
    const j = Math.min(m.cols - 1, Math.max(0, Number(td.dataset.j) + move[1]));
    const next = event.currentTarget.querySelector(`td[data-i="${i}"][data-j="${j}"]`);
    if (!next) return; // a row not yet in (see arrivingRows)
    td.setAttribute('tabindex', '-1');
    next.setAttribute('tabindex', '0');
    next.focus();
  });
}

const MOVES = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };

// A matrix too big for printed numbers: one canvas of coloured cells (at most
// 640 × 480 CSS pixels, 12 a cell, square matrices with square cells). It is
// one tab stop: arrow keys walk a cursor over the cells, and each cell's text
// goes to the tooltip and to a polite live region for screen readers.
function canvas(m, scale, options) {
  const explain = options.explain ?? ((i, j) => `${cellLabel(options, i, j)} = ${fmt(m.data[i * m.cols + j])}`);
  // Kept for the matrix's values and colours (see keptCanvas): a stage shown
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
  pixels.setAttribute('aria-label', t('matrix.canvas', { rows: m.rows, cols: m.cols, min: fmt(m.min), max: fmt(m.max) }));
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
        title: options.onRowLabel ? t('page.followRow') : undefined,
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
    hideTooltip();
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
    const ms = motionMs() || 1;
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

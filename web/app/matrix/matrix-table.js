// A matrix as a table: the numbers printed in coloured cells, a row label per
// token (a click follows it), a Σ column when asked, and a grid the arrow keys
// walk. Its transitions: matrix-transitions.js.
import { h, on } from '../ui/dom.js';
import { fmt } from '../ui/format.js';
import { arrivingRows, tableReveal } from './matrix-transitions.js';
import { hideTooltipOf, showTooltip } from '../ui/tooltip.js';

/** The arrow keys' moves in a grid of cells: [rows, columns]. */
export const MOVES = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };

export function cellLabel(options, i, j) {
  const r = options.rowLabels?.[i] ?? i;
  const c = options.colLabels?.[j] ?? j;
  return `${r}, ${c}`;
}

export function table(m, scale, options) {
  const colLabel = (j) => String(options.colLabels?.[j] ?? j + 1);
  const head = h('tr', {}, h('td', {}),
    Array.from({ length: m.cols }, (_, j) => h('th', { scope: 'col' }, colLabel(j))),
    options.sums ? h('th', { scope: 'col' }, 'Σ') : null);
  const label = (i) => h('th', {
    scope: 'row',
    class: `row-label${i === options.selectedRow ? ' selected' : ''}`,
    onclick: options.onRowLabel ? () => options.onRowLabel(i) : undefined,
    title: options.onRowLabel ? options.t('page.followRow') : undefined,
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

  const stack = h('div', { class: 'table-stack' }, el);
  return { element: stack, reveal: tableReveal(el, m, options, arrivals) };
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
  on(el, 'mouseleave', hideTooltipOf);
  on(el, 'focusin', (event) => {
    const td = event.target.closest('td[data-j]');
    if (td) point(td);
  });
  on(el, 'focusout', hideTooltipOf);
  on(el, 'keydown', (event) => {
    const td = event.target.closest('td[data-j]');
    if (!td) return;
    const move = MOVES[event.key];
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

// The one matrix renderer every step's view shares. Small matrices become a
// table with the numbers printed in coloured cells (matrix-table.js); larger
// ones a canvas of coloured cells, numbers on hover and, cell by cell, from the
// keyboard (matrix-canvas.js): thousands of table cells would cost the browser
// far more to lay out and animate than one canvas. Values come from the trace
// as they are.
import { makeScale } from './colors.js';
import { h } from '../ui/dom.js';
import { canvas } from './matrix-canvas.js';
import { table } from './matrix-table.js';

export const TABLE_LIMIT = 24;      // rows and columns up to this: a table with numbers

/**
 * renderMatrix(m, options) → { element, scale, reveal(): Promise }
 *   m: { rows, cols, data, min, max } from trace.stage()
 *   options.t: the lab's words (t(key, params), strings/i18n.js)
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

// How a matrix table changes on screen: covers of the previous values faded
// out over the new ones, and rows that arrive one by one. Animations touch
// only opacity (the compositor runs them); nothing here measures a cell.
import { makeScale } from './colors.js';
import { h, live, sleep } from '../ui/dom.js';
import { fmt } from '../ui/format.js';

/** reveal({ animate, stagger, mode }) for a table el of m (matrix-table.js);
 *  arrivals: arrivingRows(…) when its rows come in one by one, else null. */
export function tableReveal(el, m, options, arrivals) {
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
      await sleep(motionMs(el));
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
      await sleep(motionMs(el) + 900);
      gone(middle);
      await sleep(motionMs(el));
      first.remove();
      middle.remove();
      return;
    }
    await sleep(motionMs(el));
  };
  return reveal;
}

// A table that appears row by row (options.arriving: the view will reveal it
// so) is built as its first row and stand-ins for the others (the row's
// label, hidden, and one empty cell across, at the row's height), so the
// step's own task and first frame build, style and lay out a few dozen
// elements instead of the whole table; each row is built and takes its
// stand-in's place just before its fade. The first row's cells reserve each
// column's widest number (monospaced digits: a width in ch), so no column
// widens as the rows come in.
// Shared by every lab: keyed by the page's table, the reveal now bringing its rows.
const TURNS = new WeakMap();

export function arrivingRows(m, options, row, label) {
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
export const reservedWidth = (chars) => `max(3.4rem, calc(${chars}ch + 0.6rem))`;

/** How long the lab `el` is in animates a change: --motion on its frame. */
export function motionMs(el) {
  // The lab sets --motion inline on its frame (speed, reduced motion); reading
  // the inline value forces no style recalculation, unlike getComputedStyle.
  const root = live(el).closest('.al-frame') ?? el.ownerDocument.body;
  const value = root.style.getPropertyValue('--motion') || getComputedStyle(root).getPropertyValue('--motion');
  return Number.parseFloat(value) || 0;
}

// Heat maps drawn as pixels: a canvas with one pixel per value (stretched;
// hover names the value), canvases kept for their trace, and one-row strips
// (a hard-stop gradient when short). Colours come from the page's scales of
// the core's numbers; nothing here computes a value.
import { h, on, repaintable } from '../ui/dom.js';
import { fmt } from '../ui/format.js';
import { hideTooltipOf, showTooltip } from '../ui/tooltip.js';

// Shared by every lab: keyed by the canvas, how to paint it when it appears.
const UNPAINTED = new WeakMap();

/** A canvas with one pixel per entry, stretched; hover shows the value.
 *  later: leave the pixels for paintCanvas() (an animation that shows canvases
 *  one by one then fills each as it appears, not all in one frame).
 *  inPlace: painted where it lands (dom.js, repaintable): a redraw paints the
 *  page's canvas of the same size in its place instead of adding a new one. */
export function heatCanvas(m, scale, { height, explain, onCell, later = false, inPlace = false } = {}) {
  const canvas = h('canvas', { class: 'heat' });
  canvas.width = m.cols;
  canvas.height = m.rows;
  const paintInto = (target) => {
    const image = new ImageData(m.cols, m.rows);
    scale.fill(m.data, image.data, m.rows * m.cols);
    target.getContext('2d').putImageData(image, 0, 0);
  };
  const paint = () => paintInto(canvas);
  if (inPlace) repaintable(canvas, paintInto);
  else if (later) UNPAINTED.set(canvas, paint);
  else paint();
  if (height) canvas.style.height = height;
  hoverCells(canvas, m, { explain, onCell });
  return canvas;
}

/** Hover on a heat canvas names the value under the pointer (explain(i, j) or
 *  the bare value) and calls onCell(i, j). Through on(): a kept canvas shown
 *  again answers with the handlers of the view that shows it now. */
export function hoverCells(canvas, m, { explain, onCell } = {}) {
  on(canvas, 'mousemove', (event) => {
    // The canvas under the pointer: a canvas repainted in place answers with these handlers.
    const [i, j] = cellAt(event.currentTarget, m, event);
    const text = explain ? explain(i, j) : `(${i}, ${j}) = ${fmt(m.data[i * m.cols + j])}`;
    showTooltip(text, { x: event.clientX, y: event.clientY }, event.currentTarget);
    onCell?.(i, j);
  });
  on(canvas, 'mouseleave', hideTooltipOf);
}

// One row of values as a strip. Up to GRADIENT_LIMIT values it is a plain
// element painted with a hard-stop gradient: no canvas, so nothing to set up
// or to hand to the compositor when a step shows it (a canvas new on screen
// costs milliseconds in that frame's commit). Longer rows (the gradient's text
// grows with them) are a canvas kept for `source` under `key` (see keptCanvas).
const GRADIENT_LIMIT = 128;

export function heatStrip(data, scale, { source, key, explain }) {
  const n = data.length;
  const text = (j) => (explain ? explain(j) : `(0, ${j}) = ${fmt(data[j])}`);
  if (n > GRADIENT_LIMIT) {
    const m = { rows: 1, cols: n, data };
    const canvas = keptCanvas(source, key, () => heatCanvas(m, scale));
    hoverCells(canvas, m, { explain: (_, j) => text(j) });
    return canvas;
  }
  const edge = (k) => `${((k * 100) / n).toFixed(4)}%`;
  const stops = Array.from(data, (v, k) => `${scale.css(v)} ${edge(k)} ${edge(k + 1)}`);
  const strip = h('div', { class: 'heat-strip', style: { backgroundImage: `linear-gradient(to right, ${stops.join(', ')})` } });
  strip.addEventListener('mousemove', (event) => {
    const x = event.clientX - strip.getBoundingClientRect().left - strip.clientLeft;
    const j = Math.min(n - 1, Math.max(0, Math.floor((x / strip.clientWidth) * n)));
    showTooltip(text(j), { x: event.clientX, y: event.clientY }, strip);
  });
  strip.addEventListener('mouseleave', hideTooltipOf);
  return strip;
}

// Canvases drawn for a trace's matrices, kept for the next time the same
// view is drawn: the warm-up draws every step once out of sight, and a
// browser's first drawing on a new canvas sets up its pixels' storage (a few
// ms each on a slow machine), which a step's animation would otherwise pay
// for each strip as it appears.
// Shared by every lab: keyed by the matrix a canvas shows (a lab's own trace).
const KEPT = new WeakMap();
const KEPT_PER_SOURCE = 256; // e.g. a 40-token sentence's strips for six followed tokens
// Canvases handed out since this task began: a view that shows the same matrix
// twice gets two canvases, not one moved from the first place to the second.
// Shared by every lab: emptied at the end of each task.
const HANDED = new Set();
function handOut(canvas) {
  if (!HANDED.size) queueMicrotask(() => HANDED.clear());
  HANDED.add(canvas);
  return canvas;
}

/**
 * keptCanvas(source, key, make, { later }) → the canvas made by make() for
 * (source, key) before, when it is not on the page, or else a new one.
 *   source: an object that lives as long as what the canvas shows (a matrix
 *     of the trace); key: a string for the rest of what it shows.
 *   later: the caller paints it as it appears (paintCanvas); otherwise a kept
 *     canvas left unpainted by a cut-short animation is painted now.
 */
export function keptCanvas(source, key, make, { later = false } = {}) {
  let byKey = KEPT.get(source);
  if (!byKey) KEPT.set(source, (byKey = new Map()));
  const kept = byKey.get(key);
  if (kept && !kept.isConnected && !HANDED.has(kept)) {
    kept.classList.remove('pending'); // from an animation cut short
    for (const running of kept.getAnimations?.() ?? []) running.cancel();
    if (!later) paintCanvas(kept);
    return handOut(kept);
  }
  const made = make();
  byKey.delete(key);
  byKey.set(key, made);
  if (byKey.size > KEPT_PER_SOURCE) byKey.delete(byKey.keys().next().value); // the oldest
  return handOut(made);
}

/** Fills a canvas made with { later: true } (once; nothing for one already painted). */
export function paintCanvas(canvas) {
  const paint = UNPAINTED.get(canvas);
  UNPAINTED.delete(canvas);
  paint?.();
}

/** The [row, column] of the cell under a mouse event on a matrix canvas. */
export function cellAt(canvas, m, event) {
  const r = canvas.getBoundingClientRect();
  return [Math.min(m.rows - 1, Math.max(0, Math.floor(((event.clientY - r.top) / r.height) * m.rows))),
    Math.min(m.cols - 1, Math.max(0, Math.floor(((event.clientX - r.left) / r.width) * m.cols)))];
}

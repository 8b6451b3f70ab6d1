// The first time a step is drawn costs several times what later times cost:
// its code runs before the JavaScript engine has optimised it, and each font
// size and weight it uses is looked up in the system for the first time (tens
// of milliseconds on a slow machine: dropped frames just as its animation
// starts). While the learner reads the first step, each other step is drawn
// once out of sight and thrown away: the first ones (the steps Next leads to)
// each right after a frame is painted, the rest in idle time. Anything the
// page draws afterwards (a click, a key, an edit, a host message) stops it.
import { afterNextPaint, h } from '../ui/dom.js';

// Only whole idle periods (a browser grants at most 50 ms): one step's
// drawing is a single task that must not delay a frame.
const ENOUGH_IDLE_MS = 40;
// Sentences longer than this are not warmed up: one step's drawing would not
// fit in an idle period.
const MAX_TOKENS = 64;

/** One lab's warm-up; frame: the lab's frame (data-warm-up says how it went).
 *  Returns { start(host, tokens, draws, { urgent }), stop() }. */
export function createWarmUp(frame) {
  let current = null;
  const stop = () => {
    if (!current) return;
    frame.dataset.warmUp = current.queue.length ? 'stopped' : 'done';
    current.stopped = true;
    current.box.remove();
    current = null;
  };
  return {
    /** Stops a warm-up in progress (before the lab draws anything itself). */
    stop,
    start(host, tokens, draws, options) {
      stop();
      current = warmUp(frame, host, tokens, draws, options, stop);
    },
  };
}

/**
 * Calls each of `draws` (functions that fill a detached element, and may
 * return a promise), laying the result out inside `host` where it cannot be
 * seen, then drops it. `tokens`: the sentence's length. The first `urgent`
 * draws each run in a task of their own right after the next paint, whether or
 * not the browser grants idle time (it may grant none for seconds: headless
 * Chromium gives none while the pointer rests on a button just clicked, and a
 * busy machine few whole periods), so the step a click on Next shows first is
 * ready within a few frames of the first view; the rest wait for idle periods
 * (where a browser has no requestIdleCallback, they are not drawn).
 */
function warmUp(frame, host, tokens, draws, { urgent = 0 }, stop) {
  const idle = typeof requestIdleCallback === 'function'; // not in every browser: then the urgent ones only
  const queue = idle ? [...draws] : draws.slice(0, urgent);
  if (!queue.length || tokens > MAX_TOKENS) return null;
  const run = { stopped: false, queue, box: h('div', { class: 'warm-up', 'aria-hidden': 'true' }) };
  frame.dataset.warmUp = 'running';
  let left = urgent;
  const next = () => {
    if (left > 0) {
      left -= 1;
      afterNextPaint().then(() => step(null));
    } else requestIdleCallback(step);
  };
  // deadline: an idle period's, or null for an urgent draw.
  const step = (deadline) => {
    if (run.stopped) return;
    if (deadline && deadline.timeRemaining() < ENOUGH_IDLE_MS) {
      requestIdleCallback(step);
      return;
    }
    const fill = queue.shift();
    const sheet = h('div');
    try {
      Promise.resolve(fill(sheet)).catch(() => {});
      host.append(run.box);
      run.box.replaceChildren(sheet);
      run.box.getBoundingClientRect(); // lays it out now: fonts found, text shaped
    } catch {
      // a warm-up is an optimisation only; the real drawing reports its own errors
    }
    run.box.remove();
    run.box.replaceChildren();
    if (queue.length) next();
    else stop();
  };
  next();
  return run;
}

// Functions the bench runs inside the page (page.evaluate / addInitScript):
// they see only the page, so each is self-contained. And the control page for
// dropped frames.

// Runs in the page before its own scripts: when body[data-ready] turns true,
// records when the frame that paints the drawn view is presented, as the
// floor's first contentful paint is measured: the largest-contentful-paint
// entry that frame makes (the view is drawn in one task, so in one frame, and
// its largest text is larger than anything of the page before it). Also the
// end of that frame on the main thread (__afterPaint: a task posted from its
// requestAnimationFrame runs after its style, layout and paint), which waits
// too for whatever the page posted before it, such as the warm-up's first
// drawing; it stands in for the presentation if no entry comes within a second.
export function markFirstPaint() {
  const entries = [];
  let ready = Infinity; // when the view was drawn
  const done = (t, by) => {
    if (window.__firstPaint) return;
    window.__firstPaintBy = by;
    window.__firstPaint = t;
  };
  const settle = () => {
    const presented = entries.find((t) => t >= ready);
    if (presented !== undefined && window.__afterPaint) done(presented, 'presentation');
  };
  new PerformanceObserver((list) => {
    entries.push(...list.getEntries().map((e) => e.startTime));
    settle();
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  new MutationObserver((_, observer) => {
    if (document.body?.dataset.ready !== 'true') return;
    observer.disconnect();
    ready = performance.now();
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        window.__afterPaint = performance.now();
        settle();
        setTimeout(() => done(window.__afterPaint, 'main thread'), 1000);
      };
      channel.port2.postMessage(0);
    });
  }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-ready'] });
}

// An edit that recomputes and repaints, without the typing debounce: a
// switch (the trained model's knock-out switch of a head, or the seeded
// head's causal mask) takes the same path as a keystroke (core run, then one
// redraw). Measured from the change to the end of the frame that paints the
// result. Each edit waits a random part of a frame first: keystrokes arrive at
// any point of the display's cycle, while back-to-back measurements would all
// start at the same point of it and measure one phase only.
export function editToPaint([flip, selector]) {
  return new Promise((start) => { setTimeout(start, Math.random() * (1000 / 60)); }).then(() => {
    const box = document.querySelector(selector);
    box.checked = flip;
    const before = document.body.dataset.rendered;
    const t0 = performance.now();
    box.dispatchEvent(new Event('change'));
    return new Promise((resolve) => {
      const check = () => {
        if (document.body.dataset.rendered === before) {
          requestAnimationFrame(check);
          return;
        }
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve(performance.now() - t0);
        channel.port2.postMessage(0);
      };
      requestAnimationFrame(check);
    });
  });
}

// Walks through every step with its animation (as the Next button does) and
// records each frame's timestamp; a gap of k frame intervals is k − 1 dropped.
export async function animationFrames() {
  const stamps = [];
  let recording = true;
  const tick = (t) => {
    stamps.push(t);
    if (recording) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  // Each step's own script: from the page's 'step' mark (the drawing starts
  // right after the frame the click fell in) through the microtasks it queues
  // (a few hops cover the view's first await), before any frame can run. The
  // step attribute changes in that script: its observer runs as the script's
  // first microtask is over. Far less noisy than dropped frames, which come in
  // bursts on a shared machine.
  const script = {};
  const steps = []; // [click time, step]: a dropped frame counts for the last step before it
  let firstWait;
  const timeStep = new MutationObserver(async () => {
    const step = document.body.dataset.step;
    const start = performance.getEntriesByName('attention-lab:step').at(-1)?.startTime;
    for (let hop = 0; hop < 8; hop += 1) await null;
    script[step] = performance.now() - start;
  });
  timeStep.observe(document.body, { attributes: true, attributeFilter: ['data-step'] });
  for (let k = 1; k < document.querySelectorAll('#step-rail button').length; k += 1) {
    const before = document.body.dataset.rendered;
    const clicked = performance.now();
    document.getElementById('next').click();
    await new Promise((resolve) => {
      const check = () => (document.body.dataset.rendered !== before ? resolve() : setTimeout(check, 20));
      check();
    });
    steps.push([clicked, document.body.dataset.step]);
    // The first click's wait: until its step's drawing starts (a frame, and a
    // warm-up drawing already under way finishes first).
    if (k === 1) firstWait = performance.getEntriesByName('attention-lab:step').find((e) => e.startTime >= clicked).startTime - clicked;
  }
  recording = false;
  timeStep.disconnect();
  return { stamps, steps, script, firstWait }; // counted by countFrames() (page.mjs)
}

// The control for dropped frames on this machine: nine strips like the
// embedding step's, sliding and fading back and forth without end (opacity and
// transform: the compositor runs it), and no script but the frame recorder.
// Any frame it drops is the machine's (the browser's other threads and
// processes, other tenants), not a page's work.
export const CONTROL_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>control</title><style>
body { font: 16px system-ui, sans-serif; margin: 1rem; }
.strip { height: 1.1rem; margin: 0.25rem 0; background: linear-gradient(90deg, #b35806, #fff, #542788);
  animation: slide 1.2s ease-in-out infinite alternate; }
@keyframes slide { from { opacity: 0.2; transform: translateX(-1.5rem); } to { opacity: 1; transform: none; } }
</style></head><body><h1>control</h1>${'<div class="strip"></div>'.repeat(9)}</body></html>`;

/** rAF stamps for `seconds` on the page at hand, to count as a walk's are. */
export function controlFrames(seconds) {
  return new Promise((done) => {
    const stamps = [];
    const start = performance.now();
    const tick = (t) => {
      stamps.push(t);
      if (t - start < seconds * 1000) requestAnimationFrame(tick);
      else done({ stamps, steps: [] });
    };
    requestAnimationFrame(tick);
  });
}

// Tiny DOM helpers. Text always goes in as text nodes: nothing the user typed
// is ever parsed as HTML (no innerHTML anywhere in the page).

/** h('td', { class: 'x', dataset: { i: 1 }, onclick: fn }, 'text', child) */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') el.className = value;
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key === 'style') Object.assign(el.style, value);
    else if (key.startsWith('on')) on(el, key.slice(2), value);
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function clear(el, ...children) {
  el.replaceChildren();
  append(el, children); // as h()'s: null, undefined and false are nothing (the DOM's append writes "null")
  return el;
}

// ---- event handlers that an update can swap ------------------------------------
// An element gets one listener per event type, which calls the handler kept in
// a table on the element; morph() swaps that table, so an element kept on the
// page answers with the handler of the view that replaced it.
const HANDLERS = Symbol('handlers');

function dispatch(event) {
  this[HANDLERS][event.type]?.call(this, event);
}

/** Sets el's one handler for an event type (replacing an earlier one). */
export function on(el, type, handler) {
  el[HANDLERS] ??= {};
  if (!(type in el[HANDLERS])) el.addEventListener(type, dispatch);
  el[HANDLERS][type] = handler;
}

// ---- updating in place ------------------------------------------------------
// Drawing a view again after an edit builds it afresh, detached; morph() then
// makes the page's copy look like it by changing only what differs: changed
// numbers, colours and classes, rows added or removed. Elements that stay keep
// their layout (the browser lays out a few changed texts instead of a new
// table), their focus and their scroll position. A canvas, or an element
// marked data-atomic (its handlers hold references to its own children), is
// swapped whole.

/** Makes live's children match fresh's, taking nodes from fresh as needed. */
export function morphChildren(live, fresh) {
  let old = live.firstChild;
  let node = fresh.firstChild;
  while (node) {
    const next = node.nextSibling; // read first: the node may move to live
    if (!old) {
      live.append(node);
      paintArrived(node);
    } else if (sameKind(old, node)) {
      morph(old, node);
      old = old.nextSibling;
    } else {
      const after = old.nextSibling;
      old.replaceWith(node);
      paintArrived(node);
      old = after;
    }
    node = next;
  }
  while (old) {
    const after = old.nextSibling;
    old.remove();
    old = after;
  }
  return live;
}

// Which page element each freshly built element was morphed into: an
// animation that goes on after the morph finds the element on the page.
// Shared by every lab: keyed by the built element.
const LIVE = new WeakMap();

/** The element on the page that el was morphed into (el itself if it was moved in whole). */
export const live = (el) => LIVE.get(el) ?? el;

function sameKind(a, b) {
  if (a.nodeType !== b.nodeType || a.nodeName !== b.nodeName) return false;
  if (a.nodeType !== Node.ELEMENT_NODE) return true;
  if (a.nodeName === 'CANVAS') return Boolean(b[REPAINT]) && a.hasAttribute('data-repaint') && a.width === b.width && a.height === b.height;
  return !a.hasAttribute('data-atomic') && !b.hasAttribute('data-atomic');
}

// ---- canvases painted where they land --------------------------------------------
// A new canvas on the page costs the browser a new drawing surface, in the
// frame that shows it; a redraw that only changes a canvas's pixels should
// not. A canvas marked repaintable is painted only where it lands: into the
// page's canvas of the same size in its place (which stays), or itself when it
// is new on the page.
const REPAINT = Symbol('repaint');

/** Marks a canvas whose pixels paint(target) draws into a target canvas. */
export function repaintable(canvas, paint) {
  canvas.dataset.repaint = '';
  canvas[REPAINT] = paint;
  return canvas;
}

// A subtree that has just arrived on the page: its repaintable canvases paint themselves.
function paintArrived(node) {
  if (node.nodeType !== Node.ELEMENT_NODE) return;
  const canvases = node.nodeName === 'CANVAS' ? [node] : node.querySelectorAll('canvas[data-repaint]');
  for (const canvas of canvases) {
    canvas[REPAINT]?.(canvas);
    delete canvas[REPAINT];
  }
}

// Attribute names and values as strings (element.attributes would make an
// Attr object for each, which costs more than the whole comparison).
function morph(live, fresh) {
  if (live.nodeType !== Node.ELEMENT_NODE) {
    if (live.data !== fresh.data) live.data = fresh.data;
    return;
  }
  LIVE.set(fresh, live);
  for (const name of live.getAttributeNames()) {
    if (!fresh.hasAttribute(name)) live.removeAttribute(name);
  }
  for (const name of fresh.getAttributeNames()) {
    const value = fresh.getAttribute(name);
    if (live.getAttribute(name) === value) continue;
    // Inline style through CSSOM: the page's CSP (style-src 'self') refuses a
    // style attribute set as text.
    if (name === 'style') live.style.cssText = fresh.style.cssText;
    else live.setAttribute(name, value);
  }
  const handlers = fresh[HANDLERS];
  if (live[HANDLERS] || handlers) {
    for (const type of Object.keys(live[HANDLERS] ?? {})) {
      if (!handlers || !(type in handlers)) live[HANDLERS][type] = undefined;
    }
    for (const type of Object.keys(handlers ?? {})) on(live, type, handlers[type]);
  }
  if (fresh[REPAINT]) fresh[REPAINT](live);
  if (live.firstChild || fresh.firstChild) morphChildren(live, fresh);
}

/** Resolves after ms, or at once when `signal` (an AbortSignal, optional) aborts: its timer is then cleared. */
export const sleep = (ms, signal) => new Promise((resolve) => {
  const aborted = () => { clearTimeout(timer); resolve(); };
  const timer = setTimeout(() => { signal?.removeEventListener('abort', aborted); resolve(); }, ms);
  signal?.addEventListener('abort', aborted, { once: true });
});

/** Resolves right after the next frame is painted (a task posted from its
 *  animation-frame callback runs once that frame's style, layout and paint
 *  are done), or after `limit` ms where no frames come (a hidden tab). */
export function afterNextPaint(limit = 100) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, limit);
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => { clearTimeout(timer); resolve(); };
      channel.port2.postMessage(0);
    });
  });
}

// The browser's setting, the same for every lab: one MediaQueryList, read live
// (matchMedia parses its query anew on each call).
const REDUCED_MOTION = globalThis.matchMedia?.('(prefers-reduced-motion: reduce)') ?? null;
export const prefersReducedMotion = () => REDUCED_MOTION?.matches ?? false;

/** Sets an element's text unless it already reads so (a same-text write still costs a layout). */
export function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

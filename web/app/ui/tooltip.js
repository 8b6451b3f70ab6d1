// One tooltip for each lab: cell arithmetic on hover and keyboard focus. The
// lab is the one the element under the pointer (or focus) belongs to: its
// tooltip is the element with id "tooltip" in the same document or shadow root.
const tipOf = (from) => from.getRootNode().getElementById?.('tooltip') ?? null;

/** Shows text beside anchor (an element, or a pointer's { x, y }); from: an
 *  element of the lab (the anchor itself, or the element under the pointer). */
export function showTooltip(text, anchor, from = anchor) {
  const el = tipOf(from);
  if (!el) return;
  el.textContent = text;
  el.hidden = false;
  const box = el.getBoundingClientRect();
  let x;
  let y;
  if (anchor instanceof Element) {
    const r = anchor.getBoundingClientRect();
    x = r.left;
    y = r.bottom + 6;
  } else {
    x = anchor.x + 14;
    y = anchor.y + 14;
  }
  x = Math.max(4, Math.min(x, window.innerWidth - box.width - 4));
  if (y + box.height > window.innerHeight - 4) y = Math.max(4, y - box.height - 30);
  el.style.left = `${x}px`;
  el.style.top = `${y}px`;
}

/** Hides the tooltip of the lab `from` (an element of it, or its scope) belongs to. */
export function hideTooltip(from) {
  const el = from && tipOf(from);
  if (el) el.hidden = true;
}

/** A handler that hides the tooltip of the lab its event happens in. */
export const hideTooltipOf = (event) => hideTooltip(event.currentTarget);

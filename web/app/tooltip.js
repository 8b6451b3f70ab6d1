// One tooltip for each lab: cell arithmetic on hover and keyboard focus.
import { byId } from './instance.js';

const tip = () => byId('tooltip');

export function showTooltip(text, anchor) {
  const el = tip();
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

export function hideTooltip() {
  tip().hidden = true;
}

// The message line under the sentence: errors from the core (the last good
// view stays) and notices about the link that opened the page. Shown as text.
import { byId } from './instance.js';

const line = () => byId('input-message');

export function showMessage(text, kind = 'error') {
  const el = line();
  el.textContent = text;
  el.className = `message ${kind}`;
  el.hidden = false;
}

export function hideMessage() {
  line().hidden = true;
}

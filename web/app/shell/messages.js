// A lab's message line under the sentence: errors from the core (the last good
// view stays) and notices about the link that opened the lab. Shown as text.

/** el: the lab's message line. Returns { show(text, kind), hide() }. */
export function createMessageLine(el) {
  return {
    show(text, kind = 'error') {
      el.textContent = text;
      el.className = `message ${kind}`;
      el.hidden = false;
    },
    hide() {
      el.hidden = true;
    },
  };
}

// The Code switch under the step view: the article's PyTorch for the step shown and the core's C++
// that computed it (steps/code-view.js, a chunk loaded the first time the switch is turned on).
// Until the chunk is there nothing deferred touches a run: once it arrives the lab draws again.
import { h } from '../ui/dom.js';
import { fmt } from '../ui/format.js';
import { translator } from '../strings/i18n.js';
import { ensureLaterStyles } from '../ui/later-styles.js';

/** container: where the code goes; button: the switch (aria-pressed); redraw(): draws the lab again.
 *  Returns { get open(), set(open), render(ctx, step), dispose() }. */
export function createCodePanel(container, button, { redraw }) {
  let open = false;
  let view = null;
  let loading = null;
  let disposed = false;
  const load = () => (loading ??= import('./code-view.js').then(({ createCodeView }) => {
    if (disposed) return;
    view = createCodeView({ h, fmt, translator });
    redraw();
  }, () => { loading = null; }));
  return {
    get open() { return open; },
    set(value) {
      open = Boolean(value);
      button.setAttribute('aria-pressed', String(open));
      container.hidden = !open;
      if (open) ensureLaterStyles(container);
      if (open && !view) load();
    },
    render(ctx, step) {
      if (open && view) view.render(container, ctx, step);
    },
    dispose() { disposed = true; },
  };
}

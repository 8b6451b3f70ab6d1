// An experiment whose view is a chunk of its own, loaded the first time it
// opens (the first load stays as light as it was), and kept while the lab
// lives: made once and updated with each view, ended with the lab.
import { h } from '../ui/dom.js';

/**
 * id, label(t): the experiment's; load(ctx): the chunk (and what it needs of the core), a promise of make(element, { hooks, current }) →
 * { update(ctx), dispose() } (current(): the latest view context); words: { loading, failed } (keys
 * of the lab's words, failed with {error}); className: the element's (experiment-<id> if not given).
 * Returns the experiment: { id, label, create(ctx, hooks) → { element, update(ctx), dispose() } }.
 */
export function lazyExperiment({ id, label, load, words, className = `experiment-${id}` }) {
  return {
    id,
    label,
    create(ctx, hooks) {
      const element = h('div', { class: className }, h('p', { class: 'hint experiment-loading', role: 'status' }, ctx.t(words.loading)));
      let view = null;
      let latest = ctx;
      let disposed = false;
      load(ctx).then((make) => {
        if (disposed) return;
        view = make(element, { hooks, current: () => latest });
        // Its run may have ended while the chunk loaded: the lab's next drawing updates it.
        if (!latest.view.disposed) view.update(latest);
      }, (error) => {
        if (disposed) return;
        element.replaceChildren(h('p', { class: 'message error', role: 'alert' }, latest.t(words.failed, { error: String(error?.message ?? error) })));
      });
      return {
        element,
        update(next) {
          latest = next;
          view?.update(next);
        },
        dispose() {
          disposed = true;
          view?.dispose();
          view = null;
        },
      };
    },
  };
}

/**
 * An experiment drawn afresh each time it is shown (render(body, ctx)) whose code is a chunk:
 * load() → a promise of its { render(body, ctx) }. Until the chunk is there the body says it is
 * loading; then the latest body it was given is drawn, unless the panel has drawn something else
 * there since. A failed load says so and is tried again the next time.
 */
export function lazyRendered({ id, label, load }) {
  let view = null;
  let loading = null;
  return {
    id,
    label,
    render(body, ctx) {
      if (view) {
        view.render(body, ctx);
        return;
      }
      const waiting = h('p', { class: 'hint experiment-loading', role: 'status' }, ctx.t('experiments.loading'));
      body.append(waiting);
      (loading ??= load()).then((loaded) => {
        view = loaded;
        // The body was drawn over, or its run has ended (a new one is being drawn): not drawn from it.
        if (waiting.parentNode !== body || ctx.view.disposed) return;
        waiting.remove();
        view.render(body, ctx);
      }, (error) => {
        loading = null;
        if (waiting.parentNode !== body) return;
        waiting.replaceWith(h('p', { class: 'message error', role: 'alert' }, ctx.t('experiments.loadFailed', { error: String(error?.message ?? error) })));
      });
    },
  };
}

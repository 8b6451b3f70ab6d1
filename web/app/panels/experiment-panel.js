// The Why? experiments below the step view: their tabs, and the open
// experiment, drawn again only when what it shows has changed (not on every step).
import { ensureLaterStyles } from '../ui/later-styles.js';
import { clear, h, morphChildren } from '../ui/dom.js';
import { EXPERIMENTS, experimentIndex } from '../experiments/index.js';

/**
 * tabs, body: the panel's elements; context(): what an experiment draws from
 * (the lab's view context: its run, selected token, words and core);
 * changed(): the open experiment changed; hooks: what an experiment that
 * keeps its own state may call on the lab ({ loadModel(id, bytes) }).
 * Returns { id, select(id), open(id, scroll), renderTabs(t), render(force), dispose() }.
 */
export function createExperimentPanel({ tabs, body, context, changed, hooks }) {
  let id = null;
  const kept = new Map(); // experiments with a create(): made once, kept while the lab lives
  let drawnFor = null; // [experiment, run, selected token, language] it was drawn for
  const panel = {
    get id() { return id; },
    /** Sets the open experiment without drawing it (the lab draws it with its first view). */
    select(next) {
      id = next;
    },
    renderTabs(t) {
      clear(tabs).append(...EXPERIMENTS.map((experiment) => h('button', {
        type: 'button',
        dataset: { experiment: experiment.id },
        'aria-pressed': String(experiment.id === id),
        onclick: () => panel.open(experiment.id === id ? null : experiment.id),
      }, experiment.label(t))));
    },
    render(force = false) {
      const ctx = context();
      const key = [id, ctx.view, ctx.selected, ctx.lang, ctx.wordGroups, ctx.byWords];
      if (!force && drawnFor && key.every((v, k) => v === drawnFor[k])) return;
      drawnFor = key;
      if (!id) {
        morphChildren(body, h('div', {}, h('p', { class: 'hint' }, ctx.t('experiments.none'))));
        return;
      }
      const experiment = EXPERIMENTS[experimentIndex(id)];
      ensureLaterStyles(body);
      if (experiment.create) {
        if (!kept.has(id)) kept.set(id, experiment.create(ctx, hooks));
        const instance = kept.get(id);
        if (instance.element.parentNode !== body) clear(body).append(instance.element);
        instance.update(ctx);
        return;
      }
      experiment.render(clear(body), ctx);
    },
    open(next, scroll = false) {
      panel.select(next);
      panel.renderTabs(context().t);
      panel.render(true);
      changed();
      if (scroll) body.scrollIntoView({ block: 'nearest' });
    },
    /** Ends the experiments kept (their runs, workers and timers). */
    dispose() {
      for (const instance of kept.values()) instance.dispose();
      kept.clear();
    },
  };
  return panel;
}

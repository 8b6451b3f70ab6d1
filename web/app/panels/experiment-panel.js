// The Why? experiments below the step view: their tabs, and the open
// experiment, drawn again only when what it shows has changed (not on every step).
import { clear, h, morphChildren } from '../ui/dom.js';
import { EXPERIMENTS, experimentIndex } from '../experiments/index.js';

/**
 * tabs, body: the panel's elements; context(): what an experiment draws from
 * (the lab's view context: its run, selected token, words and core);
 * changed(): the open experiment changed.
 * Returns { id, select(id), open(id, scroll), renderTabs(t), render(force) }.
 */
export function createExperimentPanel({ tabs, body, context, changed }) {
  let id = null;
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
      const key = [id, ctx.headView, ctx.selected, ctx.lang];
      if (!force && drawnFor && key.every((v, k) => v === drawnFor[k])) return;
      drawnFor = key;
      if (!id) {
        morphChildren(body, h('div', {}, h('p', { class: 'hint' }, ctx.t('experiments.none'))));
        return;
      }
      EXPERIMENTS[experimentIndex(id)].render(clear(body), ctx);
    },
    open(next, scroll = false) {
      panel.select(next);
      panel.renderTabs(context().t);
      panel.render(true);
      changed();
      if (scroll) body.scrollIntoView({ block: 'nearest' });
    },
  };
  return panel;
}

// The Why? labs below the step view: their tabs, and the open lab, drawn again
// only when what it shows has changed (not on every step).
import { clear, h, morphChildren } from './dom.js';
import { language, t } from './i18n.js';
import { LABS, labIndex } from './labs/index.js';

/**
 * tabs, body: the panel's elements; context(): what a lab draws from (the
 * trace, the selected token, the API); changed(): the open lab changed.
 * Returns { id, select(id), open(id, scroll), renderTabs(), render(force) }.
 */
export function createLabPanel({ tabs, body, context, changed }) {
  let id = null;
  let drawnFor = null; // [lab, trace, selected token, language] it was drawn for
  const panel = {
    get id() { return id; },
    /** Sets the open lab without drawing it (the page draws it with its first view). */
    select(next) {
      id = next;
      panel.renderTabs();
    },
    renderTabs() {
      clear(tabs).append(...LABS.map((lab) => h('button', {
        type: 'button',
        dataset: { lab: lab.id },
        'aria-pressed': String(lab.id === id),
        onclick: () => panel.open(lab.id === id ? null : lab.id),
      }, lab.label())));
    },
    render(force = false) {
      const ctx = context();
      const key = [id, ctx.trace, ctx.selected, language()];
      if (!force && drawnFor && key.every((v, k) => v === drawnFor[k])) return;
      drawnFor = key;
      if (!id) {
        morphChildren(body, h('div', {}, h('p', { class: 'hint' }, t('labs.none'))));
        return;
      }
      LABS[labIndex(id)].render(clear(body), ctx);
    },
    open(next, scroll = false) {
      panel.select(next);
      panel.render(true);
      changed();
      if (scroll) body.scrollIntoView({ block: 'nearest' });
    },
  };
  return panel;
}

// The two rows the learner steers by: the token chips (a click follows a
// token) and the step rail with the formula part the current step computes.
import { clear, h, morphChildren } from '../ui/dom.js';
import { STEPS } from '../steps/index.js';

/** The sentence's tokens as chips with their ids; onSelect(i) follows token i; t: the lab's words. */
export function renderChips(container, { tokens, ids, selected, onSelect, t }) {
  const chips = tokens.map((token, i) => h('li', {},
    h('button', {
      type: 'button',
      class: token === '[UNK]' ? 'chip unk' : 'chip',
      'aria-pressed': String(i === selected),
      title: token === '[UNK]' ? `${t('page.follow', { token, i })} — ${t('page.unk')}` : t('page.follow', { token, i }),
      onclick: () => onSelect(i),
    }, h('span', { class: 'text' }, token), h('span', { class: 'id' }, String(ids[i])))));
  morphChildren(container, h('ol', {}, chips));
}

/** One button a step; onPick(k) shows step k; t: the lab's words. */
export function renderRail(container, onPick, t) {
  clear(container).append(...STEPS.map((step, k) => h('li', {},
    h('button', { type: 'button', dataset: { step: step.id }, onclick: () => onPick(k) }, step.label(t)))));
}

/** Marks step k (and those before it) on the rail, and its part of the formula. */
export function updateRail(container, formula, k) {
  container.querySelectorAll('button').forEach((button, i) => {
    if (i === k) button.setAttribute('aria-current', 'step');
    else button.removeAttribute('aria-current');
    button.classList.toggle('done', i < k);
  });
  const part = STEPS[k].inFormula ? STEPS[k].id : null;
  formula.querySelectorAll('[data-step]').forEach((el) => el.classList.toggle('current', el.dataset.step === part));
}

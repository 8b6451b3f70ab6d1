// The two rows the learner steers by: the token chips (a click follows a
// token) and the step rail with the formula part the current step computes.
import { clear, h, morphChildren } from '../ui/dom.js';
import { STEPS } from '../steps/index.js';
import { groupAt } from '../ui/token-groups.js';

/** The sentence's tokens as chips with their ids; onSelect(i) follows token i; a shift-click makes the
 *  tokens from the selected one to this one a word (onWord(from, to)); words: [{ from, to }] are marked
 *  (data-word: first, middle, last); t: the lab's words. */
export function renderChips(container, { tokens, ids, selected, onSelect, onWord, words = [], t }) {
  const edge = (i) => {
    const w = words[groupAt(words, i)];
    return !w ? null : i === w.from ? 'first' : i === w.to ? 'last' : 'middle';
  };
  const chips = tokens.map((token, i) => h('li', {},
    h('button', {
      type: 'button',
      class: `${token === '[UNK]' ? 'chip unk' : 'chip'}${edge(i) ? ' in-word' : ''}`,
      dataset: { i: String(i), word: edge(i) ?? '' },
      'aria-pressed': String(i === selected),
      title: token === '[UNK]' ? `${t('page.follow', { token, i })} — ${t('page.unk')}` : t('page.follow', { token, i }),
      onclick: (event) => (event.shiftKey && onWord && selected !== null && i !== selected ? onWord(selected, i) : onSelect(i)),
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

/** A rail wider than the page scrolls: brings its current step into its middle (the rail only, never
 *  the page). It reads the layout: the lab calls it after a paint, when the layout is fresh. */
export function revealCurrentStep(container) {
  const current = container.querySelector('button[aria-current="step"]');
  if (!current || container.scrollWidth <= container.clientWidth) return;
  const box = container.getBoundingClientRect();
  const at = current.getBoundingClientRect();
  if (at.left < box.left || at.right > box.right) container.scrollLeft += at.left - box.left - (box.width - at.width) / 2;
}

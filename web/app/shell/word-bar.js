// The learner's words: made from the token chips (drag across them, or
// shift-click from the selected token), listed under the chips with a button to
// let each go, and a switch between attention by words and by tokens. The rule
// (Clark et al., 2019) is said where the words are; the numbers are the core's.
import { h, morphChildren } from '../ui/dom.js';
import { wordText } from '../ui/token-groups.js';

/**
 * bar: the words' line; chips: the chips' list. state: the lab's state; changed(): redraw after a
 * change; words(): the lab's words (t). Drag: a press on a chip, moved over others, makes a word on
 * release (pointer events, so touch too). Returns { render() }.
 */
export function createWordBar({ bar, chips, state, changed, words, signal }) {
  let dragFrom = null;
  let dragRun = null; // the run whose chips the drag began on: a word is of that run's tokens only
  let over = null;
  const chipAt = (event) => {
    const el = chips.getRootNode().elementFromPoint?.(event.clientX, event.clientY) ?? document.elementFromPoint(event.clientX, event.clientY);
    const chip = el?.closest?.('.chip');
    return chip && chips.contains(chip) ? Number(chip.dataset.i) : null;
  };
  const preview = (to) => {
    over = to;
    for (const chip of chips.querySelectorAll('.chip')) {
      const i = Number(chip.dataset.i);
      chip.classList.toggle('word-preview', dragFrom !== null && to !== null && to !== dragFrom && i >= Math.min(dragFrom, to) && i <= Math.max(dragFrom, to));
    }
  };
  chips.addEventListener('pointerdown', (event) => {
    if (event.button !== 0 || event.shiftKey) return;
    const i = chipAt(event);
    if (i === null) return;
    dragFrom = i;
    dragRun = state.run;
    over = i;
  }, { signal });
  chips.addEventListener('pointermove', (event) => {
    if (dragFrom === null) return;
    const i = chipAt(event);
    if (i !== null && i !== over) {
      if (!chips.hasPointerCapture(event.pointerId)) chips.setPointerCapture(event.pointerId);
      preview(i);
    }
  }, { signal });
  const end = () => {
    const [from, to] = [dragFrom, over];
    dragFrom = null;
    preview(null);
    if (from !== null && to !== null && from !== to && dragRun === state.run) {
      state.addWordGroup(from, to);
      changed();
    }
  };
  chips.addEventListener('pointerup', end, { signal });
  chips.addEventListener('pointercancel', () => { dragFrom = null; preview(null); }, { signal });

  return {
    render() {
      const { t } = words();
      const list = state.wordGroups;
      const tokens = state.run.tokens;
      const items = list.map((w, k) => h('li', { class: 'word', dataset: { from: String(w.from), to: String(w.to) } },
        h('span', { class: 'word-text' }, wordText(tokens, w.from, w.to)),
        h('button', { type: 'button', class: 'word-remove', 'aria-label': t('words.remove', { word: wordText(tokens, w.from, w.to) }),
          onclick: () => { state.removeWordGroup(k); changed(); } }, '×')));
      const toggle = list.length ? h('label', { class: 'word-toggle' }, h('input', { type: 'checkbox', id: 'by-words', checked: state.wordsWanted,
        onchange: (e) => { state.showByWords(e.target.checked); changed(); } }), ' ', t('words.byWords')) : null;
      morphChildren(bar, h('div', {},
        list.length ? h('span', { class: 'word-label' }, t('words.title')) : null,
        list.length ? h('ul', { class: 'word-list' }, items) : null,
        toggle,
        h('span', { class: 'hint' }, t(list.length ? 'words.rule' : 'words.hint'))));
    },
  };
}

// The model guesses each hidden token: core.predictMasked's top 5 for every
// [MASK] in the sentence, as bars. With heads knocked out, the guesses of the
// whole model and of the model without them side by side (before → after).
import { h, morphChildren } from '../ui/dom.js';
import { fmt } from '../ui/format.js';
import { canHide, countMasks } from './masking.js';
import { headsInText } from './head-names.js';

const TOP = 5;

/** One list of guesses as bars: a figure with `caption`, its class and dataset as given; marked(guess, k),
 *  when given, names a guess to mark (the hidden text: experiments/lens-view.js), or returns null. */
export function guessList(list, caption, { className = 'guesses', dataset = {}, marked = () => null } = {}) {
  return h('figure', { class: className, dataset }, h('figcaption', {}, caption),
    h('ol', {}, list.map((guess, k) => {
      const { token, probability } = guess;
      const bar = h('span', { class: 'bar' });
      bar.style.width = `${Math.round(probability * 100)}%`;
      const mark = marked(guess, k);
      return h('li', { class: mark ? 'answer' : undefined, dataset: { token } },
        h('span', { class: 'guess-token', title: mark ? `${token}: ${mark}` : token }, token),
        mark ? h('span', { class: 'visually-hidden' }, ` (${mark})`) : null,
        h('span', { class: 'share-bar' }, bar), h('span', { class: 'guess-p' }, fmt(probability, 3)));
    })));
}

/** The guesses of one lab, in container: render(ctx, { hidden, onHide }) with
 *  ctx the lab's view context; hidden: what each [MASK] hid, when the lab hid
 *  it; onHide(i): hides token i. Drawn again only when what it shows has
 *  changed (the model's guesses are asked of the core once a run). */
export function createGuessPanel(container) {
  let drawnFor = null; // [run, selected token, language, hidden] the guesses were drawn for
  return { render(ctx, what) {
    const key = [ctx.viewOf, ctx.selected, ctx.lang, what.hidden]; // viewOf: one a run, whichever head is shown
    if (drawnFor && key.every((v, k) => v === drawnFor[k])) return;
    drawnFor = key;
    renderGuess(container, ctx, what);
  } };
}

function renderGuess(container, ctx, { hidden, onHide }) {
  const parts = [];
  if (!ctx.trained) {
    parts.push(h('p', { class: 'hint' }, ctx.t('guess.random')));
  } else if (countMasks(ctx.view) === 0) {
    const i = ctx.selected;
    parts.push(h('p', { class: 'hint' }, ctx.t('guess.how')));
    if (canHide(ctx.view, i)) {
      parts.push(h('button', { type: 'button', class: 'hide-selected', onclick: () => onHide(i) }, ctx.t('guess.hide', { token: ctx.tokens[i] })));
    }
  } else {
    const { model } = ctx.config;
    const off = ctx.knockOut;
    let before;
    let after = null;
    try {
      const traditional = ctx.lang === 'zh-Hant'; // guesses as a traditional-character reader writes them
      before = ctx.compute.predictMasked(ctx.sentence, { model, topK: TOP, traditional });
      if (off.length) after = ctx.compute.predictMasked(ctx.sentence, { model, topK: TOP, knockOut: off, traditional });
    } catch (error) {
      parts.push(h('p', { class: 'message error', role: 'alert' }, ctx.errorText(error)));
      before = [];
    }
    const without = headsInText(ctx.t, off, ctx.layers);
    before.forEach((list, m) => {
      const answer = hidden?.[m];
      parts.push(h('section', { class: 'guess', dataset: { mask: m } },
        h('h3', {}, ctx.t('guess.mask', { m: m + 1 }), answer ? h('span', { class: 'answer' }, ' ', ctx.t('guess.answer', { text: answer })) : null),
        h('div', { class: 'guess-sides' },
          guessList(list, ctx.t('guess.all'), { dataset: { kind: 'before' } }),
          after ? guessList(after[m], ctx.t('guess.without', { heads: without }), { dataset: { kind: 'after' } }) : null)));
    });
  }
  morphChildren(container, h('div', {}, parts));
}

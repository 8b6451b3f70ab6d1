// The model guesses each hidden token: lab.predictMasked's top 5 for every
// [MASK] in the sentence, as bars. With heads knocked out, the guesses of the
// whole model and of the model without them side by side (before → after).
import { h, morphChildren } from './dom.js';
import { fmt } from './format.js';
import { errorText, language, t } from './i18n.js';
import { canHide, countMasks } from './masking.js';
import { headNumber } from './head-view.js';

const TOP = 5;

function guessList(list, caption, kind) {
  return h('figure', { class: 'guesses', dataset: { kind } }, h('figcaption', {}, caption),
    h('ol', {}, list.map(({ token, probability }) => {
      const bar = h('span', { class: 'bar' });
      bar.style.width = `${Math.round(probability * 100)}%`;
      return h('li', { dataset: { token } }, h('span', { class: 'guess-token', title: token }, token),
        h('span', { class: 'share-bar' }, bar), h('span', { class: 'guess-p' }, fmt(probability, 3)));
    })));
}

const drawnFor = new WeakMap(); // container → [run, selected token, language, hidden] the guesses were drawn for

/** ctx: the page's context; hidden: what each [MASK] hid, when the page hid it;
 *  onHide(i): hides token i. Drawn again only when what it shows has changed
 *  (the model's guesses are asked of the core once a run). */
export function renderGuess(container, ctx, { hidden, onHide }) {
  const key = [ctx.run, ctx.selected, language(), hidden];
  const last = drawnFor.get(container);
  if (last && key.every((v, k) => v === last[k])) return;
  drawnFor.set(container, key);
  const parts = [];
  if (!ctx.trained) {
    parts.push(h('p', { class: 'hint' }, t('guess.random')));
  } else if (countMasks(ctx.sentence) === 0) {
    const i = ctx.selected;
    parts.push(h('p', { class: 'hint' }, t('guess.how')));
    if (canHide(ctx.tokens, i)) {
      parts.push(h('button', { type: 'button', class: 'hide-selected', onclick: () => onHide(i) }, t('guess.hide', { token: ctx.tokens[i] })));
    }
  } else {
    const { model } = ctx.config;
    const off = ctx.knockOut;
    let before;
    let after = null;
    try {
      before = ctx.lab.predictMasked(ctx.sentence, { model, topK: TOP });
      if (off.length) after = ctx.lab.predictMasked(ctx.sentence, { model, topK: TOP, knockOut: off });
    } catch (error) {
      parts.push(h('p', { class: 'message error', role: 'alert' }, errorText(error)));
      before = [];
    }
    const without = off.map((k) => (ctx.layers > 1 ? t('heads.nameInLayer', { n: headNumber(k.head), layer: k.layer + 1 })
      : t('heads.nameInText', { n: headNumber(k.head) }))).join(', ');
    before.forEach((list, m) => {
      const answer = hidden?.[m];
      parts.push(h('section', { class: 'guess', dataset: { mask: m } },
        h('h3', {}, t('guess.mask', { m: m + 1 }), answer ? h('span', { class: 'answer' }, ' ', t('guess.answer', { text: answer })) : null),
        h('div', { class: 'guess-sides' },
          guessList(list, t('guess.all'), 'before'),
          after ? guessList(after[m], t('guess.without', { heads: without }), 'after') : null)));
    });
  }
  morphChildren(container, h('div', {}, parts));
}

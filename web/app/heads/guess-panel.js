// The model guesses each hidden token: core.predictMasked's top 5 for every
// [MASK] in the sentence, as bars. With heads knocked out, the guesses of the
// whole model and of the model without them side by side (before → after).
import { h, morphChildren } from '../ui/dom.js';
import { fmt, sig } from '../ui/format.js';
import { canHide, countMasks } from './masking.js';
import { headsInText } from './head-names.js';
import { sentenceGap } from '../strings/i18n.js';

const TOP = 5;

/** One list of guesses as bars: a figure with `caption`, its class and dataset as given; marked(guess, k),
 *  when given, marks a guess (the hidden text: experiments/lens-view.js) with { title, aside } (its tooltip,
 *  and the words a screen reader hears after it, in the page's language), or returns null. */
export function guessList(list, caption, { className = 'guesses', dataset = {}, marked = () => null } = {}) {
  return h('figure', { class: className, dataset }, h('figcaption', {}, caption),
    h('ol', {}, list.map((guess, k) => {
      const { token, probability } = guess;
      const bar = h('span', { class: 'bar' });
      bar.style.width = `${Math.round(probability * 100)}%`;
      const mark = marked(guess, k);
      return h('li', { class: mark ? 'answer' : undefined, dataset: { token } },
        h('span', { class: 'guess-token', title: mark ? mark.title : token }, token),
        mark ? h('span', { class: 'visually-hidden' }, mark.aside) : null,
        h('span', { class: 'share-bar' }, bar), h('span', { class: 'guess-p' }, fmt(probability, 3)));
    })));
}

/** Why a hidden text the core does not rank (rankAnswers' guessable false) cannot be a guess: the
 *  vocabulary splits it into pieces, or reads it as one token that is not a candidate ([UNK], a mark). */
export function whyNoGuess(t, text, pieces) {
  return pieces.length > 1 ? t('guess.pieces', { text, n: pieces.length, pieces: pieces.join(' ') })
    : t('guess.notCandidate', { text, pieces: pieces.join(' ') });
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
    let ranks = null; // where each hidden text stands among the guesses (the core's rank), when the page hid every [MASK]
    try {
      const traditional = ctx.lang === 'zh-Hant'; // guesses as a traditional-character reader writes them
      before = ctx.compute.predictMasked(ctx.sentence, { model, topK: TOP, traditional });
      if (off.length) after = ctx.compute.predictMasked(ctx.sentence, { model, topK: TOP, knockOut: off, traditional });
      if (before.every((_, m) => hidden?.[m])) ranks = ctx.compute.rankAnswers(ctx.sentence, before.map((_, m) => hidden[m]), { model, topK: TOP });
    } catch (error) {
      parts.push(h('p', { class: 'message error', role: 'alert' }, ctx.errorText(error)));
      before = [];
    }
    const without = headsInText(ctx.t, off, ctx.layers);
    before.forEach((list, m) => {
      const answer = hidden?.[m];
      const rank = ranks?.[m];
      // In the list: marked there (the same order in either form). Below it: how far down, or why it cannot be a guess.
      const marked = rank?.shown ? ({ token }, k) => (k === rank.rank - 1
        ? { title: ctx.t('guess.markedTitle', { token }), aside: ctx.t('guess.markedAside') } : null) : undefined;
      parts.push(h('section', { class: 'guess', dataset: { mask: m } },
        h('h3', {}, ctx.t('guess.mask', { m: m + 1 }), answer ? h('span', { class: 'answer' }, sentenceGap(ctx.lang), ctx.t('guess.answer', { text: answer })) : null),
        h('div', { class: 'guess-sides' },
          guessList(list, ctx.t('guess.all'), { dataset: { kind: 'before' }, marked }),
          after ? guessList(after[m], ctx.t('guess.without', { heads: without }), { dataset: { kind: 'after' } }) : null),
        rank && !rank.shown ? h('p', { class: 'guess-rank hint', dataset: { rank: rank.rank } }, rank.guessable
          // With heads knocked out a second list stands beside: the rank is the first list's.
          ? ctx.t(after ? 'guess.rankAll' : 'guess.rank', { text: answer, rank: rank.rank, candidates: rank.candidates, p: sig(rank.probability, 2) })
          : whyNoGuess(ctx.t, answer, rank.pieces)) : null));
    });
  }
  morphChildren(container, h('div', {}, parts));
}

// The tour's card above the step view: where the learner is in the tour, the
// card's words (their numbers from the core), its predict-first question, and
// Back, Next and Leave. Drawing only: the lab (shell/start-lab.js) moves the
// tour and drives the steps, tokens, heads and experiments for each card.
// The tour loads as a chunk of its own when it first opens; so that the page's
// first load carries none of it, it imports nothing of the page's modules: what
// it draws with (page: { h, morphChildren, fmt, headNumber, translator }) is handed to it.
import { TOUR_EN, TOUR_ZH } from '../strings/tour.js';
import { CARDS, answerOf, cardAt, choicesOf } from './article-tour.js';

/** el: the tour's section; go(k) shows card k; leave(); answer(cardId, choice); tryAfter(id) opens what
 *  lies past the article (from the card after the tour); page: see above. */
export function createTourPanel(el, { go, leave, answer, tryAfter }, page) {
  const { h, morphChildren, translator } = page;
  const draw = { ...page, words: { en: translator(TOUR_EN), zh: translator(TOUR_ZH) } };
  let drawnFor = null;
  return {
    /** tour: the lab's tour state ({ card, answers }) or null when no tour is open. */
    render(ctx, tour) {
      if (!tour) {
        el.hidden = true;
        drawnFor = null;
        return;
      }
      const key = [tour, ctx.lang, ctx.headView, ctx.selected];
      if (drawnFor && key.every((v, k) => v === drawnFor[k])) return;
      drawnFor = key;
      el.hidden = false;
      morphChildren(el, h('div', {}, card(draw, ctx, tour, { go, leave, answer, tryAfter })));
    },
  };
}

function card(draw, ctx, tour, { go, leave, answer, tryAfter }) {
  const { h, fmt, headNumber } = draw;
  const t = draw.words[ctx.lang];
  const at = tour.card;
  const current = cardAt(at);
  if (current.optional) return afterCard(draw, ctx, at, { go, leave, tryAfter });
  const row = ctx.headView.softmaxRow(ctx.selected);
  const words = { n: ctx.n, d: ctx.config.dModel, dK: ctx.config.dK, divisor: fmt(row.divisor, row.divisor % 1 ? 3 : 0),
    token: ctx.tokens[ctx.selected], head: headNumber(ctx.where.head), layer: ctx.where.layer + 1, best: ctx.tokens[row.argmax], p: fmt(row.maxProb) };
  const last = at === CARDS.length - 1;
  return [
    h('p', { class: 'tour-of' }, t('tour.of', { k: at + 1, n: CARDS.length })),
    h('h2', { id: 'tour-title', dataset: { card: current.id } }, t(`tour.${current.id}.title`)),
    h('p', { class: 'tour-text' }, t(current.id === 'scaled' && ctx.config.dK === ctx.core.defaults.dK ? 'tour.scaled.textArticle' : `tour.${current.id}.text`, words)),
    current.predict ? question(draw, ctx, current, tour.answers[current.id], words, answer) : null,
    h('p', { class: 'tour-actions' },
      h('button', { type: 'button', class: 'tour-back', disabled: at === 0, onclick: () => go(at - 1) }, t('tour.back')), ' ',
      h('button', { type: 'button', class: 'tour-next', onclick: () => (last ? leave(true) : go(at + 1)) }, t(last ? 'tour.finish' : 'tour.next')), ' ',
      last ? h('button', { type: 'button', class: 'tour-after', onclick: () => go(at + 1) }, t('tour.after.open')) : null, last ? ' ' : null,
      h('button', { type: 'button', class: 'tour-leave', onclick: () => leave(false) }, t('tour.leave'))),
  ];
}

// The card after the tour: what lies past the article, a button each.
function afterCard(draw, ctx, at, { go, leave, tryAfter }) {
  const { h } = draw;
  const t = draw.words[ctx.lang];
  const current = cardAt(at);
  return [
    h('p', { class: 'tour-of' }, t('tour.after.of')),
    h('h2', { id: 'tour-title', dataset: { card: current.id } }, t('tour.after.title')),
    h('p', { class: 'tour-text' }, t('tour.after.text')),
    h('ul', { class: 'tour-after-list' }, current.try.map((x) => h('li', {},
      h('button', { type: 'button', class: 'tour-try', dataset: { try: x.id }, onclick: () => tryAfter(x.id) }, t(`tour.after.${x.id}`)),
      ' ', t(`tour.after.${x.id}.why`)))),
    h('p', { class: 'tour-actions' },
      h('button', { type: 'button', class: 'tour-back', onclick: () => go(at - 1) }, t('tour.back')), ' ',
      h('button', { type: 'button', class: 'tour-next', onclick: () => leave(true) }, t('tour.finish')), ' ',
      h('button', { type: 'button', class: 'tour-leave', onclick: () => leave(false) }, t('tour.leave'))),
  ];
}

// The question, its choices, and once chosen, what the core says.
function question(draw, ctx, current, chosen, words, answer) {
  const { h, fmt } = draw;
  const t = draw.words[ctx.lang];
  const choices = choicesOf(current, ctx.tokens).map((choice) => h('button', {
    type: 'button', class: 'tour-choice', 'aria-pressed': String(chosen === choice), dataset: { choice },
    onclick: () => answer(current.id, choice),
  }, typeof choice === 'number' ? ctx.tokens[choice] : t(`tour.${current.id}.choice.${choice}`)));
  let said = null;
  if (chosen !== undefined) {
    const { answer: right, figures } = answerOf(current, ctx);
    const shown = { ...words, ...figures, best: figures.best ?? words.best, p: fmt(figures.p ?? 0), unscaled: fmt(figures.unscaled ?? 0, 3), scaled: fmt(figures.scaled ?? 0, 3) };
    said = h('p', { class: `tour-feedback ${chosen === right ? 'right' : 'wrong'}`, role: 'status' },
      t(`tour.${current.id}.${chosen === right ? 'right' : 'wrong'}`, shown));
  }
  return h('div', { class: 'tour-question' },
    h('p', {}, h('strong', {}, t(`tour.${current.id}.question`, words))),
    h('p', { class: 'tour-choices', role: 'group' }, choices),
    said);
}

// The tour's card above the step view: where the learner is in the tour, the
// card's words (their numbers from the core), its predict-first question, and
// Back, Next and Leave. Drawing only: the lab (shell/start-lab.js) moves the
// tour and drives the steps, tokens, heads and experiments for each card.
// The tour loads as a chunk of its own when it first opens; so that the page's
// first load carries none of it, it imports nothing of the page's modules: what
// it draws with (page: { h, morphChildren, fmt, share, sig, headNumber, translator, sentenceGap }) is handed to it.
import { TOUR_WORDS } from '../../generated/words/tour.js';
import { CARDS, answerOf, cardAt, choicesOf, doubling, figuresOf } from './article-tour.js';

/** el: the tour's section; go(k) shows card k; leave(); answer(cardId, choice); tryAfter(id) opens what
 *  lies past the article (from the card after the tour); showExperiment(id) opens an experiment and
 *  scrolls to it; page: see above. */
export function createTourPanel(el, { go, leave, answer, tryAfter, showExperiment }, page) {
  const { h, morphChildren, translator } = page;
  const draw = { ...page, words: Object.fromEntries(Object.entries(TOUR_WORDS).map(([lang, table]) => [lang, translator(table)])) };
  let drawnFor = null;
  return {
    /** tour: the lab's tour state ({ card, answers }) or null when no tour is open. */
    render(ctx, tour) {
      if (!tour) {
        el.hidden = true;
        drawnFor = null;
        return;
      }
      const key = [tour, ctx.lang, ctx.view, ctx.selected];
      if (drawnFor && key.every((v, k) => v === drawnFor[k])) return;
      drawnFor = key;
      el.hidden = false;
      morphChildren(el, h('div', {}, card(draw, ctx, tour, { go, leave, answer, tryAfter, showExperiment })));
    },
  };
}

function card(draw, ctx, tour, { go, leave, answer, tryAfter, showExperiment }) {
  const { h, fmt, headNumber } = draw;
  const t = draw.words[ctx.lang];
  const at = tour.card;
  const current = cardAt(at);
  if (current.optional) return afterCard(draw, ctx, at, { go, leave, tryAfter });
  const { row, ...more } = figuresOf(current, ctx);
  const [d1, d2] = doubling(ctx.config.dK);
  const words = { n: ctx.n, d: ctx.config.dModel, e: ctx.config.embedding, dK: ctx.config.dK, divisor: fmt(row.divisor, row.divisor % 1 ? 3 : 0),
    layers: ctx.layers, heads: ctx.heads, d1, d2,
    token: ctx.tokens[ctx.selected], head: headNumber(ctx.where.head), layer: ctx.where.layer + 1, before: ctx.where.layer };
  const last = at === CARDS.length - 1;
  const answered = !current.predict || tour.answers[current.id] !== undefined;
  return [
    h('p', { class: 'tour-of' }, t('tour.of', { k: at + 1, n: CARDS.length })),
    h('h2', { id: 'tour-title', dataset: { card: current.id } }, t(`tour.${current.id}.title`)),
    h('p', { class: 'tour-text' }, current.id === 'embedding' ? embeddingText(draw, ctx, words) : t(`tour.${current.id}.text`, words)),
    ...extra(draw, ctx, current, words, { row, ...more }),
    current.predict ? question(draw, ctx, current, tour.answers[current.id], words, answer) : null,
    current.experiment && answered ? h('p', { class: 'tour-experiment' }, h('button', { type: 'button', class: 'tour-open', dataset: { experiment: current.experiment },
      onclick: () => showExperiment(current.experiment) }, t('tour.open', { name: ctx.t(`experiment.${current.experiment}.label`) }))) : null,
    h('p', { class: 'tour-actions' },
      h('button', { type: 'button', class: 'tour-back', disabled: at === 0, onclick: () => go(at - 1) }, t('tour.back')), ' ',
      h('button', { type: 'button', class: 'tour-next', onclick: () => (last ? leave(true) : go(at + 1)) }, t(last ? 'tour.finish' : 'tour.next')), ' ',
      last ? h('button', { type: 'button', class: 'tour-after', onclick: () => go(at + 1) }, t('tour.after.open')) : null, last ? ' ' : null,
      h('button', { type: 'button', class: 'tour-leave', onclick: () => leave(false) }, t('tour.leave'))),
  ];
}

// The embedding card's text, as the model is built: a factorised embedding or a plain one, positions
// on or off, LayerNorm after them (a trained model's), and the layer the tour's head reads from.
function embeddingText(draw, ctx, words) {
  const t = draw.words[ctx.lang];
  const parts = [t(ctx.config.embedding > 0 ? 'tour.embedding.textFactorised' : 'tour.embedding.text', words),
    t(!ctx.config.positional ? 'tour.embedding.noPosition' : ctx.trained ? 'tour.embedding.positionNormed' : 'tour.embedding.position', words)];
  if (ctx.where.layer > 0) parts.push(t('tour.embedding.later', words));
  return parts.join(draw.sentenceGap(ctx.lang));
}

// What a card says past its text, from the core's numbers and verdicts: the gradient through softmax
// (jacobian), and the article's three questions answered with this run (end).
function extra(draw, ctx, current, words, { effect, growth, row, article, layer, compared } = {}) {
  const { h, fmt, share } = draw;
  const t = draw.words[ctx.lang];
  const gap = draw.sentenceGap(ctx.lang);
  // The gradient's verdict, and when the row stays saturated even scaled (the core's scaledSaturation), that too.
  const gradient = () => t(`tour.jacobian.${effect.jacobian}`, { ...words, uj: fmt(effect.unscaledJacobian, 4), sj: fmt(effect.scaledJacobian, 4),
    sjq: fmt(effect.scaledJacobianQk, 4), times: draw.sig(effect.jacobianTimes, 2) })
    + (effect.scaledSaturation === 'saturates' ? gap + t('tour.jacobian.stillSaturated', { ...words, scaled: fmt(effect.scaled, 3) }) : '');
  if (current.id === 'jacobian') {
    return [h('p', { class: 'tour-verdict', dataset: { verdict: effect.jacobian, saturation: effect.scaledSaturation } }, gradient())];
  }
  if (current.id !== 'end') return [];
  const self = ctx.selected;
  const heads = t('tour.end.a3.heads', { ...words, heads: ctx.heads, list: Array.from(layer.headTop, (top, h) => (layer.averaged[h]
    ? t('tour.end.a3.head', { head: draw.headNumber(h), top: ctx.tokens[top], w: fmt(layer.headWeight[h]) })
    : t('tour.end.a3.headOff', { head: draw.headNumber(h) }))).join(t('tour.end.a3.sep')) })
    + (ctx.where.layer > 0 ? gap + t('tour.end.a3.later', words) : ''); // past layer 1, x has mixed the tokens already
  const best = layer.order[0];
  const q3 = compared
    ? [heads + gap + t(`tour.end.a3.${compared.sameTop ? 'same' : 'differ'}`, { ...words, best: ctx.tokens[best], p: fmt(layer.mean[best]),
      articleBest: ctx.tokens[compared.topA], articleP: fmt(article[compared.topA]) })
      + gap + t(`tour.end.self.${compared.self}`, { ...words, self: fmt(compared.selfB), articleSelf: fmt(compared.selfA) }),
    h('table', { class: 'steps tour-compare' },
      h('thead', {}, h('tr', {}, [t('tour.end.key'), t('tour.end.article'), t('tour.end.mean', words), t('tour.end.model', words)]
        .map((text) => h('th', { scope: 'col' }, text)))),
      h('tbody', {}, ctx.tokens.map((token, j) => h('tr', { class: j === self ? 'self' : undefined }, h('td', {}, token), h('td', {}, fmt(article[j])),
        h('td', {}, share(layer.mean[j])), h('td', {}, share(row.probs[j]))))))]
    : [heads + gap + t('tour.end.a3.other', { ...words, best: ctx.tokens[best], p: fmt(layer.mean[best]) })];
  const items = [
    ['q1', t('tour.end.a1', { ...words, v1: fmt(growth.fromVariance), v2: fmt(growth.toVariance), growth: t(`tour.variance.choice.${growth.growth}`),
      unscaled: fmt(effect.unscaled, 3), scaled: fmt(effect.scaled, 3) }) + gap + gradient()],
    ['q2', t('tour.end.a2', { ...words, sum: fmt(row.expSum), probSum: fmt(row.probSum) })],
    ['q3', ...q3],
  ];
  return [h('ol', { class: 'tour-questions' }, items.map(([q, ...answerParts]) => h('li', { dataset: { question: q } },
    h('strong', {}, t(`tour.end.${q}`, words)), gap, answerParts)))];
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
    const { answer: right, kind, figures } = answerOf(current, ctx);
    const shown = {
      ...words, ...figures, best: figures.best, p: fmt(figures.p ?? 0), unscaled: fmt(figures.unscaled ?? 0, 3), scaled: fmt(figures.scaled ?? 0, 3),
      v1: fmt(figures.v1 ?? 0), v2: fmt(figures.v2 ?? 0), sum: fmt(figures.sum ?? 0), max: fmt(figures.max ?? 0), negatives: figures.negatives,
      length: fmt(figures.length ?? 0), nw: fmt(figures.nw ?? 0), articleNext: fmt(figures.articleNext ?? 0), articleSelf: fmt(figures.articleSelf ?? 0),
    };
    said = h('p', { class: `tour-feedback ${chosen === right ? 'right' : 'wrong'}`, role: 'status' },
      t(chosen === right ? 'tour.right' : 'tour.wrong') + draw.sentenceGap(ctx.lang) + t(`tour.${current.id}.answer.${kind}`, shown));
  }
  return h('div', { class: 'tour-question' },
    h('p', {}, h('strong', {}, t(`tour.${current.id}.question`, words))),
    h('p', { class: 'tour-choices', role: 'group' }, choices),
    said);
}

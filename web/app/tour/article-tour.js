// The guided tour of the article (?tour=article): its cards in the article's
// order, one descriptor each, as steps/index.js lists the steps. The article's
// three points come in its order: why scale (the variance of q·k, then
// saturation, then the gradient through softmax), softmax as exp then
// normalise, and the weighted sum as fusion; the last card poses its three
// questions and answers them with this page's numbers.
//   id          the card's name (its words: tour.<id>.title and tour.<id>.text)
//   step        the step the lab shows with it
//   follow      true: the lab follows 喜 on the core's article head for it (trace.articleHead())
//   experiment  the Why? experiment it offers (a button opens it and scrolls to it)
//   predict     a question asked before the lab shows the answer: 'attend' (which token will 喜
//               attend to most?), 'growth' (the variance of q·k when d_k doubles), 'unscaled' (its
//               weights without ÷√d_k), 'maxdiv' (would dividing by the largest score make weights?)
//               or 'strongest' (whose value leaves the longest term in the output?)
// Every number and every verdict a card states comes from the core, through the lab's view context.
import { ARTICLE_ROW } from '../experiments/article.js';

export const TOUR_ID = 'article';
export const TOUR_SENTENCE = '我喜欢人工智能';
const FOLLOWED = '喜';

export const CARDS = Object.freeze([
  { id: 'sentence', step: 'tokens' },
  { id: 'embedding', step: 'embedding' },
  { id: 'qkv', step: 'qkv' },
  { id: 'scores', step: 'scores', follow: true, predict: 'attend' },
  { id: 'variance', step: 'scores', follow: true, predict: 'growth', experiment: 'variance' },
  { id: 'unscaled', step: 'scaled', follow: true, predict: 'unscaled', experiment: 'temperature' },
  { id: 'jacobian', step: 'scaled', follow: true, experiment: 'scaling' },
  { id: 'scaled', step: 'scaled', follow: true, experiment: 'textbook' },
  { id: 'softmax', step: 'softmax', follow: true, predict: 'maxdiv', experiment: 'stability' },
  { id: 'weighted-sum', step: 'weighted-sum', follow: true, predict: 'strongest' },
  { id: 'output', step: 'output', follow: true, experiment: 'context' },
  { id: 'end', step: 'softmax', follow: true },
].map(Object.freeze));

// After the last card, one more the learner may open (the tour is finished without it): where
// the lab goes past the article, each a button that opens it. Not counted in the tour's cards.
//   try: [{ id, step, experiment } …], or words: the article's words made (喜欢, 人工智能), or code: the Code switch on
export const AFTER_CARD = Object.freeze({ id: 'after', step: 'softmax', follow: true, optional: true,
  try: Object.freeze([
    Object.freeze({ id: 'tiles', step: 'weighted-sum', experiment: 'tiles' }),
    Object.freeze({ id: 'shared-qk', step: 'scores', experiment: 'shared-qk' }),
    Object.freeze({ id: 'rollout', step: 'concat', experiment: 'rollout' }),
    Object.freeze({ id: 'lens', step: 'concat', experiment: 'lens' }),
    Object.freeze({ id: 'what-if', step: 'softmax', experiment: 'what-if' }),
    Object.freeze({ id: 'geometry', step: 'scores', experiment: 'geometry' }),
    Object.freeze({ id: 'code', step: 'softmax', code: true }),
    Object.freeze({ id: 'words', step: 'softmax', words: Object.freeze([{ from: 2, to: 3 }, { from: 4, to: 7 }]) }),
  ]) });

/** Card k of the tour: the article's cards, then the optional one after them. */
export const cardAt = (k) => (k < CARDS.length ? CARDS[k] : AFTER_CARD);

/** The token the tour follows in a run's tokens (喜), or 1 when the sentence has none. */
export function followedToken(tokens) {
  const at = tokens.indexOf(FOLLOWED);
  return at >= 0 ? at : 1;
}

// The article's 喜 row in this run's token order (its CLS and SEP are the run's [CLS] and [SEP]),
// or null when the run's tokens are not the article's.
function articleRow(tokens) {
  const order = tokens.map((t) => ARTICLE_ROW.tokens.indexOf(t.replace(/^\[(CLS|SEP)\]$/, '$1')));
  return order.every((k) => k >= 0) && order.length === ARTICLE_ROW.tokens.length ? order.map((k) => ARTICLE_ROW.printed.probs[k]) : null;
}

// Two widths a doubling apart for the variance question: d_k and 2·d_k, within the core's 1 … 1024.
export const doubling = (dK) => (2 * dK <= 1024 ? [dK, 2 * dK] : [Math.floor(dK / 2), dK]);

/** The card's answer to its question, from the core's numbers: { answer (the right choice), kind (which
 *  feedback sentence: the core's verdict where there is one), figures (the numbers it quotes) }. */
export function answerOf(card, ctx) {
  const row = ctx.view.softmaxRow(ctx.selected);
  switch (card.predict) {
    case 'attend': {
      // Why the lab opens on this head: only while the head shown is the one the core picks for the token.
      const a = ctx.view.articleHead(ctx.selected);
      const shown = a.found && a.layer === ctx.where.layer && a.head === ctx.where.head;
      const kind = !shown ? 'noRule' : a.next ? 'ruleNext' : 'rulePrevious';
      const printed = (token) => ARTICLE_ROW.printed.probs[ARTICLE_ROW.tokens.indexOf(token)];
      return { answer: row.argmax, kind, figures: { best: ctx.tokens[row.argmax], p: row.maxProb, neighbour: a.found ? ctx.tokens[a.neighbour] : '', nw: a.weight,
        articleNext: printed('欢'), articleSelf: printed('喜') } };
    }
    case 'growth': {
      const g = ctx.compute.varianceGrowth(...doubling(ctx.config.dK));
      return { answer: g.growth, kind: g.growth, figures: { v1: g.fromVariance, v2: g.toVariance } };
    }
    case 'maxdiv': {
      const d = ctx.compute.divideByMax(row.scaled);
      // 'not' is said as the count of negative values asks: none, one or more.
      const kind = d.kind !== 'not' ? d.kind : ['notNone', 'notOne'][d.negatives] ?? 'not';
      return { answer: d.kind === 'distribution' ? 'distribution' : 'not', kind, figures: { sum: d.sum, negatives: d.negatives, max: row.max } };
    }
    case 'strongest': {
      const c = ctx.view.contributions(ctx.selected);
      return { answer: c.strongest, kind: 'is', figures: { best: ctx.tokens[c.strongest], length: c.lengths[c.strongest], p: row.probs[c.strongest] } };
    }
    default: {
      const e = ctx.compute.scalingEffect(row.scores, { dK: ctx.config.dK });
      return { answer: e.shape, kind: e.shape, figures: { unscaled: e.unscaled, scaled: e.scaled } };
    }
  }
}

/** The numbers and verdicts a card's own text quotes (beyond the sentence, token, head and row). */
export function figuresOf(card, ctx) {
  const row = ctx.view.softmaxRow(ctx.selected);
  if (card.id !== 'jacobian' && card.id !== 'end') return { row };
  const effect = ctx.compute.scalingEffect(row.scores, { dK: ctx.config.dK });
  if (card.id === 'jacobian') return { row, effect };
  const growth = ctx.compute.varianceGrowth(...doubling(ctx.config.dK));
  const article = articleRow(ctx.tokens);
  // The article's third question is answered by the whole layer: every head's row, and their mean beside the article's.
  const layer = ctx.view.layerRow(ctx.selected);
  const compared = article ? ctx.compute.compareRows(article, layer.mean, ctx.selected) : null;
  return { effect, growth, row, article, layer, compared };
}

/** The choices a card's question offers: token indices, or the names of its answers. */
export function choicesOf(card, tokens) {
  if (card.predict === 'attend' || card.predict === 'strongest') return tokens.map((_, k) => k);
  if (card.predict === 'growth') return ['same', 'doubles', 'quadruples'];
  if (card.predict === 'maxdiv') return ['distribution', 'not'];
  return ['peaked', 'flatter', 'same'];
}

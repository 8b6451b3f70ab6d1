// The guided tour of the article (?tour=article): its cards in the article's
// order, one descriptor each, as steps/index.js lists the steps:
//   id          the card's name (its words: tour.<id>.title and tour.<id>.text)
//   step        the step the lab shows with it
//   follow      true: the lab follows 喜 on the core's article head for it (trace.articleHead():
//               on the shipped model the head where 喜 looks at 欢, as the article says)
//   experiment  the Why? experiment it opens, if any
//   predict     a question asked before the lab shows the answer: 'attend' (which token
//               will 喜 attend to most?) or 'unscaled' (its weights without ÷√d_k)
// Every number a card quotes comes from the core, through the lab's view context.
export const TOUR_ID = 'article';
export const TOUR_SENTENCE = '我喜欢人工智能';
const FOLLOWED = '喜';

export const CARDS = Object.freeze([
  { id: 'sentence', step: 'tokens' },
  { id: 'embedding', step: 'embedding' },
  { id: 'qkv', step: 'qkv' },
  { id: 'scores', step: 'scores', follow: true, predict: 'attend' },
  { id: 'scaled', step: 'scaled', follow: true, experiment: 'textbook' },
  { id: 'unscaled', step: 'scaled', follow: true, predict: 'unscaled', experiment: 'scaling' },
  { id: 'softmax', step: 'softmax', follow: true },
  { id: 'weighted-sum', step: 'weighted-sum', follow: true },
  { id: 'output', step: 'output', follow: true, experiment: 'context' },
  { id: 'variance', step: 'scores', follow: true, experiment: 'variance' },
  { id: 'end', step: 'concat', follow: true },
].map(Object.freeze));

// After the last card, one more the learner may open (the tour is finished without it): where
// the lab goes past the article, each a button that opens it. Not counted in the tour's cards.
//   try: [{ id, step, experiment } …], or words: the article's words made (喜欢, 人工智能)
export const AFTER_CARD = Object.freeze({ id: 'after', step: 'softmax', follow: true, optional: true,
  try: Object.freeze([
    Object.freeze({ id: 'tiles', step: 'weighted-sum', experiment: 'tiles' }),
    Object.freeze({ id: 'shared-qk', step: 'scores', experiment: 'shared-qk' }),
    Object.freeze({ id: 'rollout', step: 'concat', experiment: 'rollout' }),
    Object.freeze({ id: 'words', step: 'softmax', words: Object.freeze([{ from: 2, to: 3 }, { from: 4, to: 7 }]) }),
  ]) });

/** Card k of the tour: the article's cards, then the optional one after them. */
export const cardAt = (k) => (k < CARDS.length ? CARDS[k] : AFTER_CARD);

/** The token the tour follows in a run's tokens (喜), or 1 when the sentence has none. */
export function followedToken(tokens) {
  const at = tokens.indexOf(FOLLOWED);
  return at >= 0 ? at : 1;
}

/** The card's answer to its question, from the core's numbers: for 'attend' the
 *  token index the followed row's weights peak at; for 'unscaled' 'peaked',
 *  'flatter' or 'same' (the largest weight without ÷√d_k against with it: core.scalingEffect). */
export function answerOf(card, ctx) {
  const row = ctx.headView.softmaxRow(ctx.selected);
  if (card.predict === 'attend') return { answer: row.argmax, figures: { best: ctx.tokens[row.argmax], p: row.maxProb } };
  const { unscaled, scaled, shape } = ctx.core.scalingEffect(row.scores, { dK: ctx.config.dK });
  return { answer: shape, figures: { unscaled, scaled } };
}

/** The choices a card's question offers: token indices (not [CLS], [SEP]) or the three shapes. */
export const choicesOf = (card, tokens) => (card.predict === 'attend'
  ? tokens.map((_, k) => k).slice(1, -1)
  : ['peaked', 'flatter', 'same']);

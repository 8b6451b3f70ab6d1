// Experiment view: what each layer would guess (a chunk of its own, loaded when
// the experiment opens). The selected token is hidden behind [MASK] (or, when
// the sentence has [MASK]s, the selected one or the first is taken), and the
// core's prediction layer reads that position after the embeddings and after
// each layer: core.predictMasked with depth 0 … layers. Where the hidden text
// stands at each depth is the core's too (core.rankAnswers): marked among the
// five, or its number in the whole list below them.
// The page's own helpers come in from experiments/lens.js (imported here, they
// would make a chunk that the first load must fetch too).
import { LENS_WORDS } from '../../generated/words/lens.js';

const TOP = 5;

/** root: the element to fill; deps: { h, morphChildren, translator, guessList, whyNoGuess, headsInText, hideToken, MASK, maskNumber, sig }.
 *  Returns { update(ctx), dispose() }. */
export function createLensView(root, { h, morphChildren, translator, guessList, whyNoGuess, headsInText, hideToken, MASK, maskNumber, sig }) {
  let drawnFor = null; // [run, selected token, language]: the lists are asked of the core once for each

  // One depth's list; rank: where the hidden text stands there (the core's), when the lens hid it.
  const list = (guesses, rank, caption, depth, t, sig) => h('div', { class: 'lens-depth-column' },
    guessList(guesses, caption, {
      className: 'guesses lens-depth', dataset: { depth: String(depth) },
      marked: ({ token }, k) => (rank?.shown && k === rank.rank - 1 ? { title: t('lens.answerTitle', { token }), aside: t('lens.answerAside') } : null) }),
    rank?.guessable && !rank.shown ? h('p', { class: 'lens-rank hint', dataset: { rank: rank.rank } },
      t('lens.rank', { text: rank.answer, rank: rank.rank, candidates: rank.candidates, p: sig(rank.probability, 2) })) : null);

  function draw(ctx) {
    const t = translator(LENS_WORDS[ctx.lang] ?? LENS_WORDS.en);
    const parts = [h('p', { class: 'explain' }, t('lens.explain'))];
    const { view: run, tokens, selected: i } = ctx;
    if (!ctx.trained) {
      parts.push(h('p', { class: 'hint' }, ctx.t('guess.random')));
      return parts;
    }
    // Which [MASK]: the selected token if it is one, else the first; with none, the selected token hidden.
    let sentence = ctx.sentence;
    let m = 0;
    let answer = null; // the hidden text as typed, when the lens hid it
    let title;
    if (tokens.includes(MASK)) {
      m = tokens[i] === MASK ? maskNumber(tokens, i) : 0;
      title = t('lens.masked', { m: m + 1 });
    } else {
      const hidden = hideToken(ctx.sentence, run, i);
      if (!hidden) {
        parts.push(h('p', { class: 'hint lens-cannot' }, t('lens.cannot', { token: tokens[i] })));
        return parts;
      }
      ({ sentence, hidden: answer } = hidden);
      title = t('lens.hiding', { token: answer });
    }
    const { model } = ctx.config;
    const traditional = ctx.lang === 'zh-Hant'; // guesses as a traditional-character reader writes them
    let depths;
    try {
      const options = (depth) => ({ model, topK: TOP, knockOut: ctx.knockOut, depth });
      depths = Array.from({ length: ctx.layers + 1 }, (_, depth) => ({
        guesses: ctx.compute.predictMasked(sentence, { ...options(depth), traditional })[m],
        rank: answer === null ? null : ctx.compute.rankAnswers(sentence, [answer], options(depth))[0],
      }));
    } catch (error) {
      parts.push(h('p', { class: 'message error', role: 'alert' }, ctx.errorText(error)));
      return parts;
    }
    const caption = (depth) => (depth === 0 ? t('lens.embeddings')
      : depth === ctx.layers ? t('lens.last', { layer: depth }) : t('lens.layer', { layer: depth }));
    const pieces = depths[0].rank && !depths[0].rank.guessable ? depths[0].rank.pieces : null; // the same at every depth
    parts.push(h('h3', {}, title), h('p', { class: 'lens-sentence' }, t('lens.sentence', { sentence })),
      pieces ? h('p', { class: 'hint lens-pieces' }, whyNoGuess(ctx.t, answer, pieces)) : null,
      h('div', { class: 'lens-depths' }, depths.map(({ guesses, rank }, depth) => list(guesses, rank, caption(depth), depth, t, sig))));
    if (ctx.knockOut.length) {
      parts.push(h('p', { class: 'note' }, t('lens.knocked', { heads: headsInText(ctx.t, ctx.knockOut, ctx.layers) })));
    }
    return parts;
  }

  return {
    update(ctx) {
      const key = [ctx.viewOf, ctx.selected, ctx.lang];
      if (drawnFor && key.every((v, k) => v === drawnFor[k])) return;
      drawnFor = key;
      morphChildren(root, h('div', {}, draw(ctx)));
    },
    dispose() {
      drawnFor = null;
    },
  };
}

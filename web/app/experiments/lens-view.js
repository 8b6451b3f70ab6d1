// Experiment view: what each layer would guess (a chunk of its own, loaded when
// the experiment opens). The selected token is hidden behind [MASK] (or, when
// the sentence has [MASK]s, the selected one or the first is taken), and the
// core's prediction layer reads that position after the embeddings and after
// each layer: core.predictMasked with depth 0 … layers. The hidden text is
// marked where it is among the five; every probability is the core's.
// The page's own helpers come in from experiments/lens.js (imported here, they
// would make a chunk that the first load must fetch too).
import { LENS_WORDS } from '../../generated/words/lens.js';

const TOP = 5;

/** root: the element to fill; deps: { h, morphChildren, translator, guessList, headsInText, hideToken, MASK, maskNumber }.
 *  Returns { update(ctx), dispose() }. */
export function createLensView(root, { h, morphChildren, translator, guessList, headsInText, hideToken, MASK, maskNumber }) {
  let drawnFor = null; // [run, selected token, language]: the lists are asked of the core once for each

  // guesses: as shown; plain: the same list in the vocabulary's own forms; answers: the hidden text's forms.
  const list = ({ guesses, plain }, caption, depth, answers, t) => guessList(guesses, caption, {
    className: 'guesses lens-depth', dataset: { depth: String(depth) },
    marked: ({ token }, k) => (answers.has(token) || answers.has(plain[k].token) ? t('lens.answer') : null) });

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
    const answers = new Set(); // the hidden text as typed, and the token as the vocabulary holds it
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
      ({ sentence } = hidden);
      answers.add(hidden.hidden).add(ctx.forms[i]);
      title = t('lens.hiding', { token: hidden.hidden });
    }
    const { model } = ctx.config;
    const traditional = ctx.lang === 'zh-Hant'; // guesses as a traditional-character reader writes them
    let depths;
    try {
      // Traditional guesses are marked by their vocabulary forms (the same list, in the same order).
      const at = (depth, forms) => ctx.compute.predictMasked(sentence, { model, topK: TOP, knockOut: ctx.knockOut, traditional: forms, depth })[m];
      depths = Array.from({ length: ctx.layers + 1 }, (_, depth) => {
        const plain = at(depth, false);
        return { plain, guesses: traditional ? at(depth, true) : plain };
      });
    } catch (error) {
      parts.push(h('p', { class: 'message error', role: 'alert' }, ctx.errorText(error)));
      return parts;
    }
    const caption = (depth) => (depth === 0 ? t('lens.embeddings')
      : depth === ctx.layers ? t('lens.last', { layer: depth }) : t('lens.layer', { layer: depth }));
    parts.push(h('h3', {}, title), h('p', { class: 'lens-sentence' }, t('lens.sentence', { sentence })),
      h('div', { class: 'lens-depths' }, depths.map((lists, depth) => list(lists, caption(depth), depth, answers, t))));
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

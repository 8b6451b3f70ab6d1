// Experiment: one token in two sentences — the same input vector, different
// outputs, because different neighbours contribute. On the trained model every
// head's neighbours and output are compared; on the seeded head, also with
// positions off (only the neighbours then differ).
// A chunk (experiments/classic.js loads it): what it draws with comes from the page.

// Partner sentences for the Examples menu's, tried before the menu's own: each shares a token with them
// (喜, 欢; animal, it, the; cat, sat, the; I, love) in another context.
const PARTNERS = Object.freeze(['大家都喜欢音乐', 'The animal slept because it was tired.', 'A cat sat by the door.', 'I love music.']);

/** The experiment's view: { render(body, ctx) }. */
export default function view({ clear, h, fmt, headNumber, referenceNote, presets }) {
  /** The three keys a head's row gives most weight to (the core's order), as the language lists them. view: a run view. */
  function topKeys(ctx, view, i) {
    const { probs, order } = view.softmaxRow(i);
    return Array.from(order.subarray(0, 3), (k) => ctx.t('experiment.context.key', { token: view.tokens[k], p: fmt(probs[k]) }))
      .join(ctx.t('experiment.context.keySep'));
  }
  // Row i of stage id in the lab's run against row j in the other run b, in head `where`.
  const cosine = (ctx, b, id, i, j, where) => ctx.viewOf(where).cosineWith(b.viewOf(where), id, i, id, j);

  // The trained model: embeddings, x, then every head's output and neighbours.
  function trainedRows(ctx, b, j) {
    const i = ctx.selected;
    const token = ctx.tokens[i];
    const first = { layer: 0, head: 0 };
    const heads = Array.from({ length: ctx.heads }, (_, head) => ({ layer: ctx.where.layer, head }));
    const rows = [
      ['embeddings', ctx.t('experiment.context.embedding'), cosine(ctx, b, 'embeddings', i, j, first)],
      // Past the first layer x is the layer before's output, not embedding + position.
      ['x', ctx.where.layer > 0 ? ctx.t('experiment.context.xLater', { before: ctx.where.layer }) : ctx.t('experiment.context.x'),
        cosine(ctx, b, 'x', i, j, ctx.where)],
      ...heads.map((where) => [`head-${where.head}`, ctx.t('experiment.context.headOutput', { n: headNumber(where.head) }), cosine(ctx, b, 'output', i, j, where)]),
    ];
    return [
      ...(ctx.layers > 1 ? [h('p', { class: 'note' }, ctx.t('experiment.context.layer', { n: ctx.where.layer + 1, layers: ctx.layers }))] : []),
      h('table', { class: 'steps experiment-table' }, h('tbody', {}, rows.map(([id, text, c]) => h('tr', { dataset: { compare: id } },
        h('td', {}, text), h('td', { dataset: { cos: c } }, fmt(c, 3)))))),
      h('ul', { class: 'note experiment-neighbours' }, heads.map((where) => h('li', { dataset: { head: where.head } },
        ctx.t('experiment.context.headNeighbours', { n: headNumber(where.head), token, a: topKeys(ctx, ctx.viewOf(where), i), b: topKeys(ctx, b.viewOf(where), j) })))),
    ];
  }

  // The other sentence at first: the first of the partners, then of the Examples menu's sentences without a
  // [MASK], that is not the lab's sentence and has the selected token (else the first: the notice asks for one).
  // Each candidate is a run of the core (its tokens): the choice is kept for the next redraw of the same
  // sentence, token and model.
  let chosen = { key: null, text: null };
  function otherSentence(ctx, token) {
    const key = JSON.stringify([ctx.config.model, ctx.sentence, token]);
    if (chosen.key !== key) {
      const candidates = [...PARTNERS, ...presets.filter((text) => !text.includes('[MASK]'))].filter((text) => text !== ctx.sentence);
      chosen = { key, text: candidates.find((text) => ctx.withRun(text, ctx.config, (b) => b.tokens.includes(token))) ?? PARTNERS[0] };
    }
    return chosen.text;
  }

  return {
    render(body, ctx) {
      const token = ctx.tokens[ctx.selected];
      const other = h('input', { type: 'text', id: 'experiment-other', class: 'scores-text', value: otherSentence(ctx, token), 'aria-label': ctx.t('experiment.context.other') });
      const result = h('div', { class: 'experiment-result' });
      // Each run of the other sentence (and of both without positions) is the lab's, freed when its drawing is done.
      const compare = (b) => {
        const j = b.tokens.indexOf(token);
        if (j < 0) {
          result.append(h('p', { class: 'message notice' }, ctx.t('experiment.context.missing', { token })));
        } else if (ctx.trained) {
          result.append(...trainedRows(ctx, b, j));
        } else {
          const i = ctx.selected;
          const head = { layer: 0, head: 0 };
          // The same pair with positional encoding off: only the context differs.
          const noPosition = { ...ctx.config, positional: false };
          const apart = ctx.withRun(ctx.sentence, noPosition, (a0) => ctx.withRun(other.value, noPosition,
            (b0) => a0.viewOf(head).cosineWith(b0.viewOf(head), 'output', i, 'output', j)));
          const rows = [
            ['embeddings', 'experiment.context.embedding', cosine(ctx, b, 'embeddings', i, j, head)],
            ['x', 'experiment.context.x', cosine(ctx, b, 'x', i, j, head)],
            ['output', 'experiment.context.output', cosine(ctx, b, 'output', i, j, head)],
            ['output-nopos', 'experiment.context.outputNoPosition', apart],
          ];
          result.append(
            h('table', { class: 'steps experiment-table' }, h('tbody', {}, rows.map(([id, key, c]) => h('tr', { dataset: { compare: id } },
              h('td', {}, ctx.t(key)), h('td', { dataset: { cos: c } }, fmt(c, 3)))))),
            h('p', { class: 'note' }, ctx.t('experiment.context.neighbours', { token, a: topKeys(ctx, ctx.view, i), b: topKeys(ctx, b.viewOf(head), j) })));
        }
      };
      const draw = () => {
        clear(result);
        try {
          ctx.withRun(other.value, ctx.config, compare);
        } catch (error) {
          clear(result).append(h('p', { class: 'message error', role: 'alert' }, ctx.errorText(error)));
          return;
        }
        const note = referenceNote(ctx); // a pronoun in the lab's sentence: what the heads do with it
        if (note) result.append(note);
      };
      other.addEventListener('change', draw);
      const explain = ctx.trained && ctx.where.layer > 0 ? 'experiment.context.explainLater' : 'experiment.context.explain';
      body.append(h('p', { class: 'explain' }, ctx.t(explain, { token, layer: ctx.where.layer + 1, before: ctx.where.layer })),
        h('label', { class: 'experiment-control' }, ctx.t('experiment.context.other'), ' ', other), result);
      draw();
    },
  };
}

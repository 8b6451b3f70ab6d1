// Experiment: one character in two sentences — the same input vector, different
// outputs, because different neighbours contribute. On the trained model every
// head's neighbours and output are compared; on the seeded head, also with
// positions off (only the neighbours then differ).
// A chunk (experiments/classic.js loads it): what it draws with comes from the page.

/** The experiment's view: { render(body, ctx) }. */
export default function view({ clear, h, fmt, headNumber, referenceNote }) {
  /** The three keys a row gives most weight to, as "token (weight)". */
  function topKeys(trace, i, where = {}) {
    const w = trace.softmaxRow(i, where).probs;
    const order = Array.from(w.keys()).sort((a, b) => w[b] - w[a]).slice(0, 3);
    return order.map((k) => `${trace.tokens[k]} (${fmt(w[k])})`).join(', ');
  }

  // The trained model: embeddings, x, then every head's output and neighbours.
  function trainedRows(ctx, b, j) {
    const i = ctx.selected;
    const { run } = ctx.headView;
    const token = ctx.tokens[i];
    const heads = Array.from({ length: ctx.heads }, (_, head) => ({ layer: ctx.where.layer, head }));
    const rows = [
      ['embeddings', ctx.t('experiment.context.embedding'), run.cosineWith(b, 'embeddings', i, 'embeddings', j)],
      // Past the first layer x is the layer before's output, not embedding + position.
      ['x', ctx.where.layer > 0 ? ctx.t('experiment.context.xLater', { before: ctx.where.layer }) : ctx.t('experiment.context.x'),
        run.cosineWith(b, 'x', i, 'x', j, ctx.where)],
      ...heads.map((where) => [`head-${where.head}`, ctx.t('experiment.context.headOutput', { n: headNumber(where.head) }), run.cosineWith(b, 'output', i, 'output', j, where)]),
    ];
    return [
      ...(ctx.layers > 1 ? [h('p', { class: 'note' }, ctx.t('experiment.context.layer', { n: ctx.where.layer + 1, layers: ctx.layers }))] : []),
      h('table', { class: 'steps experiment-table' }, h('tbody', {}, rows.map(([id, text, c]) => h('tr', { dataset: { compare: id } },
        h('td', {}, text), h('td', { dataset: { cos: c } }, fmt(c, 3)))))),
      h('ul', { class: 'note experiment-neighbours' }, heads.map((where) => h('li', { dataset: { head: where.head } },
        ctx.t('experiment.context.headNeighbours', { n: headNumber(where.head), token, a: topKeys(run, i, where), b: topKeys(b, j, where) })))),
    ];
  }

  return {
    render(body, ctx) {
      const token = ctx.tokens[ctx.selected];
      const other = h('input', { type: 'text', id: 'experiment-other', class: 'scores-text', value: '大家都喜欢音乐', 'aria-label': ctx.t('experiment.context.other') });
      const result = h('div', { class: 'experiment-result' });
      const draw = () => {
        clear(result);
        let b;
        try {
          b = ctx.core.run(other.value, ctx.config);
        } catch (error) {
          result.append(h('p', { class: 'message error', role: 'alert' }, ctx.errorText(error)));
          return;
        }
        const j = b.tokens.indexOf(token);
        if (j < 0) {
          result.append(h('p', { class: 'message notice' }, ctx.t('experiment.context.missing', { token })));
        } else if (ctx.trained) {
          result.append(...trainedRows(ctx, b, j));
        } else {
          const i = ctx.selected;
          // The same pair with positional encoding off: only the context differs.
          const a0 = ctx.core.run(ctx.sentence, { ...ctx.config, positional: false });
          const b0 = ctx.core.run(other.value, { ...ctx.config, positional: false });
          const rows = [
            ['embeddings', 'experiment.context.embedding', ctx.headView.cosineWith(b, 'embeddings', i, 'embeddings', j)],
            ['x', 'experiment.context.x', ctx.headView.cosineWith(b, 'x', i, 'x', j)],
            ['output', 'experiment.context.output', ctx.headView.cosineWith(b, 'output', i, 'output', j)],
            ['output-nopos', 'experiment.context.outputNoPosition', a0.cosineWith(b0, 'output', i, 'output', j)],
          ];
          a0.dispose();
          b0.dispose();
          result.append(
            h('table', { class: 'steps experiment-table' }, h('tbody', {}, rows.map(([id, key, c]) => h('tr', { dataset: { compare: id } },
              h('td', {}, ctx.t(key)), h('td', { dataset: { cos: c } }, fmt(c, 3)))))),
            h('p', { class: 'note' }, ctx.t('experiment.context.neighbours', { token, a: topKeys(ctx.headView, i), b: topKeys(b, j) })));
        }
        b.dispose();
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

// Experiment: the causal mask on and off, and positions on and off with the word
// order swapped — without positions the outputs are the same vectors permuted.
// The trained model reads with no mask and with positions (it learned so):
// the mask and the positions-off side then run on the seeded head, labelled,
// and the positions-on side on the trained model's selected head.
// A chunk (experiments/classic.js loads it): what it draws with comes from the page.

/** The experiment's view: { render(body, ctx) }. */
export default function view({ clear, h, fmt, renderMatrix, headNumber }) {
  /** For each token of a, the cosine of its output with the same token's output in b. */
  function matchOutputs(a, b, where) {
    const used = new Set();
    return a.tokens.map((tok, i) => {
      const j = b.tokens.findIndex((u, k) => u === tok && !used.has(k));
      if (j < 0) return [tok, null];
      used.add(j);
      return [tok, a.cosineWith(b, 'output', i, 'output', j, where)];
    });
  }

  return {
    render(body, ctx) {
      // The seeded head's options (the page's, or the core's defaults beside a trained model).
      const seeded = ctx.trained ? { ...ctx.core.defaults, model: 'random' } : ctx.config;
      const where = ctx.trained ? ctx.where : {};
      const weights = (causal) => {
        const trace = ctx.core.run(ctx.sentence, { ...seeded, causal });
        const block = renderMatrix(trace.stage('weights'), { t: ctx.t, scale: 'sequential', rowLabels: trace.tokens, colLabels: trace.tokens,
          caption: ctx.t(causal ? 'experiment.mask.on' : 'experiment.mask.off'), stageId: 'weights' });
        block.element.dataset.causal = String(causal);
        trace.dispose();
        return block.element;
      };
      const a = h('input', { type: 'text', id: 'experiment-order-a', class: 'scores-text', value: '我喜欢人工智能', 'aria-label': ctx.t('experiment.mask.first') });
      const b = h('input', { type: 'text', id: 'experiment-order-b', class: 'scores-text', value: '人工智能喜欢我', 'aria-label': ctx.t('experiment.mask.second') });
      const result = h('div', { class: 'experiment-sides' });
      const draw = () => {
        clear(result);
        for (const positional of [false, true]) {
          let ta;
          let tb;
          try {
            const options = ctx.trained && positional ? ctx.config : { ...seeded, causal: false, positional };
            ta = ctx.core.run(a.value, options);
            tb = ctx.core.run(b.value, options);
          } catch (error) {
            ta?.dispose();
            result.append(h('p', { class: 'message error', role: 'alert' }, ctx.errorText(error)));
            return;
          }
          const rows = matchOutputs(ta, tb, ctx.trained && positional ? where : {}).map(([tok, c]) => h('tr', {}, h('td', {}, tok),
            h('td', { dataset: { cos: c ?? '' } }, c === null ? '—' : fmt(c, 3))));
          result.append(h('section', { class: 'experiment-side', dataset: { positional: String(positional) } },
            h('h3', {}, ctx.t(positional ? 'experiment.mask.withPositions' : 'experiment.mask.withoutPositions'),
              ctx.trained ? h('span', { class: 'model-note' }, ' ', ctx.t(positional ? 'experiment.mask.trainedHead' : 'experiment.mask.seededHead', { n: headNumber(where.head) })) : null),
            h('table', { class: 'steps experiment-table' }, h('thead', {}, h('tr', {}, h('th', {}, ctx.t('experiment.token')), h('th', {}, ctx.t('experiment.mask.cosine')))),
              h('tbody', {}, rows))));
          ta.dispose();
          tb.dispose();
        }
      };
      a.addEventListener('change', draw);
      b.addEventListener('change', draw);
      body.append(
        h('p', { class: 'explain' }, ctx.t('experiment.mask.explainMask')),
        ctx.trained ? h('p', { class: 'note' }, ctx.t('experiment.mask.trainedMask')) : null,
        h('div', { class: 'experiment-sides' }, weights(false), weights(true)),
        h('p', { class: 'explain' }, ctx.t('experiment.mask.explainPosition')),
        h('label', { class: 'experiment-control' }, ctx.t('experiment.mask.first'), ' ', a),
        h('label', { class: 'experiment-control' }, ctx.t('experiment.mask.second'), ' ', b),
        result);
      draw();
    },
  };
}

// Experiment: the causal mask on and off, and positions on and off with the word
// order swapped — without positions the outputs are the same vectors permuted.
// The trained model reads with no mask and with positions (it learned so):
// the mask and the positions-off side then run on the seeded head, labelled,
// and the positions-on side on the trained model's selected head.
// A chunk (experiments/classic.js loads it): what it draws with comes from the page.

/** The experiment's view: { render(body, ctx) }. */
export default function view({ clear, h, fmt, renderMatrix, headNumber, sentenceGap }) {
  /** For each token of run a, the cosine of its output in head `where` with the same token's output in run b. */
  function matchOutputs(a, b, where) {
    const used = new Set();
    return a.tokens.map((tok, i) => {
      const j = b.tokens.findIndex((u, k) => u === tok && !used.has(k));
      if (j < 0) return [tok, null];
      used.add(j);
      return [tok, a.viewOf(where).cosineWith(b.viewOf(where), 'output', i, 'output', j)];
    });
  }

  return {
    render(body, ctx) {
      // The seeded head's options (the page's, or the core's defaults beside a trained model).
      const seeded = ctx.trained ? { ...ctx.defaults, model: 'random' } : ctx.config;
      const where = ctx.trained ? ctx.where : { layer: 0, head: 0 };
      // Each run here is the lab's for the moment it is drawn (ctx.withRun), then freed.
      const weights = (causal) => ctx.withRun(ctx.sentence, { ...seeded, causal }, (run) => {
        const block = renderMatrix(run.viewOf({ layer: 0, head: 0 }).stage('weights'), { t: ctx.t, scale: 'sequential', rowLabels: run.tokens,
          colLabels: run.tokens, caption: ctx.t(causal ? 'experiment.mask.on' : 'experiment.mask.off'), stageId: 'weights' });
        block.element.dataset.causal = String(causal);
        return block.element;
      });
      const a = h('input', { type: 'text', id: 'experiment-order-a', class: 'scores-text', value: '我喜欢人工智能', 'aria-label': ctx.t('experiment.mask.first') });
      const b = h('input', { type: 'text', id: 'experiment-order-b', class: 'scores-text', value: '人工智能喜欢我', 'aria-label': ctx.t('experiment.mask.second') });
      const result = h('div', { class: 'experiment-sides' });
      const draw = () => {
        clear(result);
        for (const positional of [false, true]) {
          const options = ctx.trained && positional ? ctx.config : { ...seeded, causal: false, positional };
          let rows;
          try {
            rows = ctx.withRun(a.value, options, (ta) => ctx.withRun(b.value, options,
              (tb) => matchOutputs(ta, tb, ctx.trained && positional ? where : { layer: 0, head: 0 })));
          } catch (error) {
            result.append(h('p', { class: 'message error', role: 'alert' }, ctx.errorText(error)));
            return;
          }
          result.append(h('section', { class: 'experiment-side', dataset: { positional: String(positional) } },
            h('h3', {}, ctx.t(positional ? 'experiment.mask.withPositions' : 'experiment.mask.withoutPositions'),
              ctx.trained ? h('span', { class: 'model-note' }, sentenceGap(ctx.lang), ctx.t(positional ? 'experiment.mask.trainedHead' : 'experiment.mask.seededHead', { n: headNumber(where.head) })) : null),
            h('table', { class: 'steps experiment-table' }, h('thead', {}, h('tr', {}, h('th', {}, ctx.t('experiment.token')), h('th', {}, ctx.t('experiment.mask.cosine')))),
              h('tbody', {}, rows.map(([tok, c]) => h('tr', {}, h('td', {}, tok), h('td', { dataset: { cos: c ?? '' } }, c === null ? '—' : fmt(c, 3))))))));
        }
      };
      a.addEventListener('change', draw);
      b.addEventListener('change', draw);
      clear(body,
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

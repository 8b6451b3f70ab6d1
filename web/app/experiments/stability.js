// Experiment: the softmax formula as written (overflows) against the stable form the
// core uses (subtract the row maximum first), in float32.
// A chunk (experiments/classic.js loads it): what it draws with comes from the page.

/** The experiment's view: { render(body, ctx) }. */
export default function view({ clear, h, fmt }) {
  // NaN is the point of this lab: spell it out instead of a dash.
  const show = (v) => (Number.isNaN(v) ? 'NaN' : fmt(v, 4));

  return {
    render(body, ctx) {
      const presets = [
        [ctx.t('experiment.stability.rowRaw', { token: ctx.tokens[ctx.selected] }), Array.from(ctx.view.softmaxRow(ctx.selected).scores)],
        [ctx.t('experiment.stability.big'), [1000, 999, -1000]],
        [ctx.t('experiment.stability.edge'), [88, 89, 0]],
        [ctx.t('experiment.stability.article'), [15.3, 22.7, 18.2, 2.1, 1.8, 3.2, 2.9, 5.6, 4.1]],
      ];
      const input = h('input', { type: 'text', id: 'experiment-scores', class: 'scores-text', 'aria-label': ctx.t('experiment.stability.scores') });
      const result = h('div', { class: 'experiment-result' });
      const draw = () => {
        const scores = input.value.split(/[\s,，]+/).filter(Boolean).map(Number);
        clear(result);
        let row;
        try {
          row = ctx.compute.softmaxRow(scores);
        } catch (error) {
          result.append(h('p', { class: 'message error', role: 'alert' }, ctx.errorText(error)));
          return;
        }
        const head = h('tr', {}, ['experiment.stability.score', 'experiment.stability.exp', 'experiment.stability.naive', 'experiment.stability.stable']
          .map((k) => h('th', { scope: 'col' }, ctx.t(k))));
        const rows = scores.map((s, j) => h('tr', {}, h('td', {}, fmt(s)), h('td', {}, fmt(row.exps[j])),
          h('td', { dataset: { col: 'naive' } }, show(row.shares[j])), h('td', { dataset: { col: 'stable' } }, show(row.probs[j]))));
        result.append(h('table', { class: 'steps experiment-table' }, h('thead', {}, head), h('tbody', {}, rows),
          h('tfoot', {}, h('tr', {}, h('td', {}, 'Σ'), h('td', {}, fmt(row.expSum)), h('td', {}), h('td', {})))),
        h('p', { class: `note${row.overflowed ? ' overflow' : ''}` }, ctx.t(row.overflowed ? 'experiment.stability.overflow' : 'experiment.stability.fine')));
      };
      const buttons = presets.map(([name, values]) => h('button', { type: 'button', onclick: () => {
        input.value = values.map((v) => String(v)).join(', ');
        draw();
      } }, name));
      input.addEventListener('change', draw);
      input.value = presets[1][1].join(', ');
      body.append(h('p', { class: 'explain' }, ctx.t('experiment.stability.explain')),
        h('div', { class: 'experiment-control' }, buttons), h('label', { class: 'experiment-control' }, ctx.t('experiment.stability.scores'), ' ', input), result);
      draw();
    },
  };
}

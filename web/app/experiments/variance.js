// Experiment: why the variance of q·k grows with d_k, and how ÷√d_k brings it back to 1.
// A chunk (experiments/classic.js loads it): what it draws with comes from the page.

/** The experiment's view: { render(body, ctx) }. */
export default function view({ clear, h, fmt, barChart }) {
  const SIZES = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024];

  /** Measured variance against the theory for every d_k on the slider (500 pairs each). */
  function theoryTable(ctx) {
    const rows = SIZES.map((d) => {
      const s = ctx.compute.sampleDotProducts(d, { count: 500, bins: 1, seed: ctx.config.seed });
      return h('tr', {}, h('td', {}, String(d)), h('td', {}, fmt(s.variance)), h('td', {}, String(d)),
        h('td', {}, fmt(s.scaledVariance, 3)), h('td', {}, fmt(s.halfVectorDot)));
    });
    const head = h('tr', {}, ['d_k', 'experiment.variance.measured', 'experiment.variance.theory', 'experiment.variance.measuredScaled', 'experiment.variance.half']
      .map((k) => h('th', { scope: 'col' }, k === 'd_k' ? k : ctx.t(k))));
    return h('table', { class: 'steps experiment-table variance-table' }, h('thead', {}, head), h('tbody', {}, rows));
  }

  return {
    render(body, ctx) {
      const start = SIZES.indexOf(SIZES.includes(ctx.config.dK) ? ctx.config.dK : 64);
      const slider = h('input', { type: 'range', id: 'experiment-dk', min: '0', max: String(SIZES.length - 1), step: '1', value: String(start),
        'aria-label': 'd_k' });
      const shown = h('output', { for: 'experiment-dk' });
      const result = h('div', { class: 'experiment-result' });
      const draw = () => {
        const dK = SIZES[Number(slider.value)];
        shown.textContent = String(dK);
        slider.setAttribute('aria-valuetext', String(dK));
        clear(result);
        let s;
        try {
          s = ctx.compute.sampleDotProducts(dK, { count: 2000, bins: 40, seed: ctx.config.seed });
        } catch (error) {
          result.append(h('p', { class: 'message error', role: 'alert' }, ctx.errorText(error)));
          return;
        }
        result.append(
          h('p', { class: 'experiment-figures', dataset: { variance: s.variance, scaledVariance: s.scaledVariance } },
            ctx.t('experiment.variance.figures', { v: fmt(s.variance), dK, sv: fmt(s.scaledVariance, 3), half: fmt(s.halfVectorDot) })),
          h('div', { class: 'experiment-sides' },
            barChart(s.histogram, { caption: ctx.t('experiment.variance.raw', { lo: fmt(-s.range, 1), hi: fmt(s.range, 1) }) }),
            barChart(s.scaledHistogram, { caption: ctx.t('experiment.variance.scaled', { lo: fmt(-s.scaledRange, 1), hi: fmt(s.scaledRange, 1) }) })));
      };
      slider.addEventListener('input', draw);
      body.append(h('p', { class: 'explain' }, ctx.t('experiment.variance.explain')),
        h('label', { class: 'experiment-control' }, 'd_k ', slider, shown), result,
        h('h3', {}, ctx.t('experiment.variance.tableTitle')), theoryTable(ctx));
      draw();
    },
  };
}

// Experiment: a temperature that divides the scaled scores, from uniform to argmax.
// A chunk (experiments/classic.js loads it): what it draws with comes from the page.

/** The experiment's view: { render(body, ctx) }. */
export default function view({ clear, h, fmt, barChart }) {
  return {
    render(body, ctx) {
      const i = ctx.selected;
      const row = ctx.view.softmaxRow(i).scaled;
      // The slider is a base-10 exponent: temperature from 0.01 to 100.
      const slider = h('input', { type: 'range', id: 'experiment-temperature', min: '-2', max: '2', step: '0.05', value: '0',
        'aria-label': ctx.t('experiment.temperature.slider') });
      const result = h('div', { class: 'experiment-result' });
      const draw = () => {
        const temperature = 10 ** Number(slider.value);
        const s = ctx.compute.softmaxRow(row, { temperature });
        clear(result).append(
          h('p', { class: 'experiment-figures', dataset: { maxProb: s.maxProb, entropy: s.entropy } },
            ctx.t('experiment.temperature.figures', { temp: fmt(temperature), max: fmt(s.maxProb, 3), entropy: fmt(s.entropy, 3) })),
          barChart(s.probs, { labels: ctx.tokens }));
      };
      slider.addEventListener('input', draw);
      body.append(h('p', { class: 'explain' }, ctx.t('experiment.temperature.explain', { token: ctx.tokens[i] })),
        h('label', { class: 'experiment-control' }, ctx.t('experiment.temperature.slider'), ' ', slider), result);
      draw();
    },
  };
}

// Experiment: the selected query row with and without ÷√d_k, side by side — weights,
// their largest value and entropy, the softmax Jacobian, and the cross-entropy
// gradient p − one_hot(target), and which of the two gradients ÷√d_k protects
// (core.scalingEffect's verdicts). All computed by the core.
// A chunk (experiments/classic.js loads it): what it draws with comes from the page.

/** The experiment's view: { render(body, ctx) }. */
export default function view({ clear, h, fmt, sig, renderMatrix }) {
  function bars(values, tokens, signed) {
    return h('table', { class: 'steps experiment-bars' }, h('tbody', {}, tokens.map((token, j) => {
      const bar = h('span', { class: `bar${values[j] < 0 ? ' negative' : ''}` });
      bar.style.width = `${Math.round(Math.min(1, Math.abs(values[j])) * 100)}%`;
      return h('tr', {}, h('td', {}, token), h('td', {}, fmt(values[j], signed ? 4 : 3)), h('td', { class: 'bar-cell' }, bar));
    })));
  }

  // bound: one colour range for both Jacobians, so small gradients look small.
  function side(ctx, steps, title, target, bound) {
    const jac = { ...steps.jacobian, min: -bound, max: bound };
    const gradient = ctx.compute.crossEntropyGradient(steps.probs, target);
    const block = renderMatrix(jac, { t: ctx.t, caption: ctx.t('experiment.scaling.jacobian'), rowLabels: ctx.tokens, colLabels: ctx.tokens, stageId: 'jacobian' });
    return h('section', { class: 'experiment-side' },
      h('h3', {}, title),
      h('p', { class: 'experiment-figures', dataset: { maxProb: steps.maxProb, entropy: steps.entropy } }, ctx.t('experiment.scaling.figures', { max: fmt(steps.maxProb, 3), token: ctx.tokens[steps.argmax], entropy: fmt(steps.entropy, 3), jac: fmt(steps.maxJacobian, 4) })),
      bars(steps.probs, ctx.tokens, false),
      block.element,
      h('p', { class: 'strip-head' }, ctx.t('experiment.scaling.gradient', { token: ctx.tokens[target] })),
      bars(gradient, ctx.tokens, true));
  }

  return {
    render(body, ctx) {
      const i = ctx.selected;
      const raw = ctx.view.softmaxRow(i).scores;
      const unscaled = ctx.compute.softmaxRow(raw, { jacobian: true });
      const scaled = ctx.compute.softmaxRow(raw, { dK: ctx.config.dK, jacobian: true });
      const targetSelect = h('select', { id: 'experiment-target' }, ctx.tokens.map((tok, j) => h('option', { value: String(j) }, tok)));
      targetSelect.value = String(i);
      const sides = h('div', { class: 'experiment-sides' });
      const verdicts = h('div', { class: 'experiment-verdicts' });
      const draw = () => {
        const target = Number(targetSelect.value);
        const bound = Math.max(unscaled.maxJacobian, scaled.maxJacobian);
        // Which gradient vanishes, and which does not: the core's verdicts on this row.
        const effect = ctx.compute.scalingEffect(raw, { dK: ctx.config.dK, target });
        const figures = { token: ctx.tokens[i], target: ctx.tokens[target], dK: ctx.config.dK,
          uj: fmt(effect.unscaledJacobian, 4), sj: fmt(effect.scaledJacobian, 4), sjq: fmt(effect.scaledJacobianQk, 4),
          divisor: fmt(scaled.divisor, scaled.divisor % 1 ? 3 : 0), times: sig(effect.jacobianTimes, 2),
          ug: fmt(effect.unscaledGradient, 4), sg: fmt(effect.scaledGradient, 4),
          sm: fmt(effect.scaled, 3) };
        clear(verdicts,
          h('p', { class: 'explain', dataset: { verdict: effect.jacobian } }, ctx.t(`experiment.scaling.jacobian.${effect.jacobian}`, figures)),
          effect.scaledSaturation === 'saturates'
            ? h('p', { class: 'explain', dataset: { saturation: 'saturates' } }, ctx.t('experiment.scaling.stillSaturated', figures)) : null,
          // Smaller without scaling: because the peak sits on the answer, or (the core says which) not.
          h('p', { class: 'explain', dataset: { verdict: effect.gradient } },
            ctx.t(`experiment.scaling.gradient.${effect.gradient}${effect.gradient === 'smaller' && !effect.targetOnPeak ? 'Off' : ''}`, figures)));
        clear(sides,
          side(ctx, unscaled, ctx.t('experiment.scaling.without'), target, bound),
          side(ctx, scaled, ctx.t('experiment.scaling.with', { dK: ctx.config.dK }), target, bound));
      };
      targetSelect.addEventListener('change', draw);
      body.append(
        h('p', { class: 'explain' }, ctx.t('experiment.scaling.explain', { token: ctx.tokens[i], dK: ctx.config.dK })),
        h('label', { class: 'experiment-control' }, ctx.t('experiment.scaling.target'), ' ', targetSelect),
        verdicts,
        sides);
      draw();
    },
  };
}

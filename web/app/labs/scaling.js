// Lab: the selected query row with and without ÷√d_k, side by side — weights,
// their largest value and entropy, the softmax Jacobian, and the cross-entropy
// gradient p − one_hot(target). All computed by the core.
import { clear, h } from '../dom.js';
import { fmt } from '../format.js';
import { t } from '../i18n.js';
import { renderMatrix } from '../matrix-view.js';

function bars(values, tokens, signed) {
  return h('table', { class: 'steps lab-bars' }, h('tbody', {}, tokens.map((token, j) => {
    const bar = h('span', { class: `bar${values[j] < 0 ? ' negative' : ''}` });
    bar.style.width = `${Math.round(Math.min(1, Math.abs(values[j])) * 100)}%`;
    return h('tr', {}, h('td', {}, token), h('td', {}, fmt(values[j], signed ? 4 : 3)), h('td', { class: 'bar-cell' }, bar));
  })));
}

// bound: one colour range for both Jacobians, so small gradients look small.
function side(ctx, steps, title, target, bound) {
  const jac = { ...steps.jacobian, min: -bound, max: bound };
  const gradient = ctx.lab.crossEntropyGradient(steps.probs, target);
  const block = renderMatrix(jac, { caption: t('lab.scaling.jacobian'), rowLabels: ctx.tokens, colLabels: ctx.tokens, stageId: 'jacobian' });
  return h('section', { class: 'lab-side' },
    h('h3', {}, title),
    h('p', { class: 'lab-figures', dataset: { maxProb: steps.maxProb, entropy: steps.entropy } }, t('lab.scaling.figures', { max: fmt(steps.maxProb, 3), token: ctx.tokens[steps.argmax], entropy: fmt(steps.entropy, 3), jac: fmt(steps.maxJacobian, 4) })),
    bars(steps.probs, ctx.tokens, false),
    block.element,
    h('p', { class: 'strip-head' }, t('lab.scaling.gradient', { token: ctx.tokens[target] })),
    bars(gradient, ctx.tokens, true));
}

export default {
  id: 'scaling',
  label: () => t('lab.scaling.label'),
  render(body, ctx) {
    const i = ctx.selected;
    const raw = ctx.trace.softmaxRow(i).scores;
    const unscaled = ctx.lab.softmaxRow(raw, { jacobian: true });
    const scaled = ctx.lab.softmaxRow(raw, { dK: ctx.config.dK, jacobian: true });
    const targetSelect = h('select', { id: 'lab-target' }, ctx.tokens.map((tok, j) => h('option', { value: String(j) }, tok)));
    targetSelect.value = String(i);
    const sides = h('div', { class: 'lab-sides' });
    const draw = () => {
      const target = Number(targetSelect.value);
      const bound = Math.max(unscaled.maxJacobian, scaled.maxJacobian);
      clear(sides).append(
        side(ctx, unscaled, t('lab.scaling.without'), target, bound),
        side(ctx, scaled, t('lab.scaling.with', { dK: ctx.config.dK }), target, bound));
    };
    targetSelect.addEventListener('change', draw);
    body.append(
      h('p', { class: 'explain' }, t('lab.scaling.explain', { token: ctx.tokens[i], dK: ctx.config.dK })),
      h('label', { class: 'lab-control' }, t('lab.scaling.target'), ' ', targetSelect),
      sides);
    draw();
  },
};

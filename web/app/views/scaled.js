// Stage 5: ÷√d_k (and the causal mask, when it is on).
import { fmt } from '../format.js';
import { t } from '../i18n.js';
import { renderMatrix } from '../matrix-view.js';

export function explainScaled(ctx, i, j) {
  const r = ctx.trace.rowSteps(i);
  const names = { a: ctx.tokens[i], b: ctx.tokens[j] };
  if (r.masked[j] === -Infinity) return t('stage.scaled.cellMasked', names);
  return ctx.config.scale
    ? t('stage.scaled.cell', { ...names, score: fmt(r.scores[j]), dK: ctx.config.dK, divisor: fmt(r.divisor, r.divisor % 1 ? 3 : 0), value: fmt(r.scaled[j]) })
    : t('stage.scaled.cellOff', { ...names, value: fmt(r.scaled[j]) });
}

export default {
  id: 'scaled',
  label: () => t('stage.scaled.label'),
  formulaPart: 'scaled',
  labs: ['scaling', 'temperature'],
  title: (ctx) => t(ctx.config.causal ? 'stage.scaled.titleCausal' : 'stage.scaled.title'),
  explain(ctx) {
    const s = ctx.stage('scores');
    const m = ctx.stage('masked');
    const divisor = ctx.trace.rowSteps(0).divisor;
    const scaling = ctx.config.scale
      ? t('stage.scaled.explain', { dK: ctx.config.dK, divisor: fmt(divisor, divisor % 1 ? 3 : 0), min: fmt(s.min), max: fmt(s.max), min2: fmt(m.min), max2: fmt(m.max) })
      : t('stage.scaled.explainOff', { min: fmt(s.min), max: fmt(s.max) });
    const mask = ctx.config.causal ? t('stage.scaled.explainMask') : '';
    return scaling + mask;
  },
  async render(body, ctx) {
    const block = renderMatrix(ctx.stage('masked'), {
      rowLabels: ctx.tokens,
      colLabels: ctx.tokens,
      stageId: ctx.config.causal ? 'masked' : 'scaled',
      selectedRow: ctx.selected,
      onRowLabel: ctx.select,
      previous: ctx.animate ? ctx.stage('scores') : undefined,
      explain: (i, j) => explainScaled(ctx, i, j),
    });
    body.append(block.element);
    await block.reveal({ animate: ctx.animate, mode: 'fade' });
    return [{ label: t(ctx.config.causal ? 'stage.scaled.legendMasked' : 'stage.scaled.legend'), scale: block.scale }];
  },
};

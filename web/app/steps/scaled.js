// Step 5: ÷√d_k (and the causal mask, when it is on).
import { fmt } from '../ui/format.js';
import { sentenceGap } from '../strings/i18n.js';
import { renderMatrix } from '../matrix/matrix-view.js';

export function explainScaled(ctx, i, j) {
  const r = ctx.view.softmaxRow(i);
  const names = { a: ctx.tokens[i], b: ctx.tokens[j] };
  if (r.masked[j] === -Infinity) return ctx.t('step.scaled.cellMasked', names);
  return ctx.config.scale
    ? ctx.t('step.scaled.cell', { ...names, score: fmt(r.scores[j]), dK: ctx.config.dK, divisor: fmt(r.divisor, r.divisor % 1 ? 3 : 0), value: fmt(r.scaled[j]) })
    : ctx.t('step.scaled.cellOff', { ...names, value: fmt(r.scaled[j]) });
}

export default {
  id: 'scaled',
  label: (t) => t('step.scaled.label'),
  inFormula: true, // its part of the formula is marked (index.html: data-step)
  matrices: ['scaled', 'masked'], // the core stages it shows, and exports
  panelColumn: 'scaled', // the side panel's column it computes
  experiments: ['scaling', 'temperature', 'geometry'],
  title: (ctx) => ctx.t(ctx.config.causal ? 'step.scaled.titleCausal' : 'step.scaled.title'),
  explain(ctx) {
    const s = ctx.view.stage('scores');
    const m = ctx.view.stage('masked');
    const { divisor } = ctx.view;
    // What ÷√d_k did to this head's scores, and whether its rows still saturate: the core's verdicts.
    const report = ctx.view.scalingReport();
    const figures = { dK: ctx.config.dK, divisor: fmt(divisor, divisor % 1 ? 3 : 0), min: fmt(s.min), max: fmt(s.max), min2: fmt(m.min), max2: fmt(m.max),
      v1: fmt(report.scoreRowVariance), v2: fmt(report.scaledRowVariance), k: report.saturatedRows, n: report.rows, at: fmt(report.saturatedAt, 1) };
    const space = sentenceGap(ctx.lang);
    const scaling = ctx.config.scale
      ? `${ctx.t('step.scaled.explain', figures)}${space}${ctx.t(`step.scaled.variance.${report.variance}`, figures)}`
      : ctx.t('step.scaled.explainOff', figures);
    const saturation = ctx.t(report.saturation === 'saturates' && report.saturatedRows === 1 ? 'step.scaled.saturatesOne' : `step.scaled.${report.saturation}`, figures);
    const mask = ctx.config.causal ? ctx.t('step.scaled.explainMask') : '';
    return `${scaling}${space}${saturation}${mask}`;
  },
  async render(body, ctx) {
    const block = renderMatrix(ctx.view.stage('masked'), { t: ctx.t,
      rowLabels: ctx.tokens,
      colLabels: ctx.tokens,
      stageId: ctx.config.causal ? 'masked' : 'scaled',
      selectedRow: ctx.selected,
      onRowLabel: ctx.select,
      previous: ctx.animate ? ctx.view.stage('scores') : undefined,
      explain: (i, j) => explainScaled(ctx, i, j),
    });
    body.append(block.element);
    await block.reveal({ animate: ctx.animate, mode: 'fade' });
    return [{ label: ctx.t(ctx.config.causal ? 'step.scaled.legendMasked' : 'step.scaled.legend'), scale: block.scale }];
  },
};

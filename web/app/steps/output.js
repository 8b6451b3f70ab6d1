// Step 8: the context-aware outputs, with the selected token before and after.
import { makeScale } from '../matrix/colors.js';
import { h } from '../ui/dom.js';
import { fmt } from '../ui/format.js';
import { heatStrip } from '../matrix/heat-canvas.js';
import { renderMatrix } from '../matrix/matrix-view.js';
import { explainOutput } from './weighted-sum.js';

export default {
  id: 'output',
  label: (t) => t('step.output.label'),
  inFormula: true, // its part of the formula is marked (index.html: data-step)
  matrices: ['output'], // the core stages it shows, and exports
  experiments: ['context', 'mask-position'],
  title: (ctx) => ctx.t('step.output.title'),
  explain(ctx) {
    const i = ctx.selected;
    const cos = ctx.view.cosine('v', i, 'output', i);
    return ctx.t('step.output.explain', { dK: ctx.config.dK, token: ctx.tokens[i], cos: fmt(cos, 3) });
  },
  async render(body, ctx) {
    const i = ctx.selected;
    const out = ctx.view.stage('output');
    const v = ctx.view.stage('v');
    const block = renderMatrix(out, { t: ctx.t,
      caption: ctx.t('step.output.caption'),
      rowLabels: ctx.tokens,
      colLabels: Array.from({ length: out.cols }, (_, j) => j + 1),
      stageId: 'output',
      selectedRow: i,
      onRowLabel: ctx.select,
      explain: (r, j) => explainOutput(ctx, r, j),
    });
    const scale = makeScale('diverging', Math.min(v.min, out.min), Math.max(v.max, out.max));
    const pick = (m) => m.data.subarray(i * m.cols, (i + 1) * m.cols);
    const first = (m) => Array.from(m.data.subarray(i * m.cols, i * m.cols + Math.min(6, m.cols)), (x) => fmt(x)).join(', ');
    const compare = h('div', { class: 'strips before-after' },
      h('div', { class: 'label' }, ctx.t('step.output.before', { token: ctx.tokens[i] })),
      heatStrip(pick(v), scale, { source: v, key: `before ${i} ${scale.lo} ${scale.hi}`, explain: (j) => ctx.t('step.output.vCell', { token: ctx.tokens[i], j: j + 1, value: fmt(v.data[i * v.cols + j], 3) }) }),
      h('div', { class: 'label selected' }, ctx.t('step.output.after', { token: ctx.tokens[i] })),
      heatStrip(pick(out), scale, { source: out, key: `after ${i} ${scale.lo} ${scale.hi}`, explain: (j) => explainOutput(ctx, i, j) }));
    const numbers = h('p', { class: 'note' },
      ctx.t('step.output.numbersBefore', { values: first(v) }), h('br'), ctx.t('step.output.numbersAfter', { values: first(out) }));
    body.append(block.element, h('h3', {}, ctx.t('step.output.compare', { token: ctx.tokens[i] })), compare, numbers);
    await block.reveal({ animate: ctx.animate, mode: 'rows', stagger: 40 });
    return [{ label: ctx.t('step.output.legend'), scale: block.scale }, { label: ctx.t('step.output.legendBoth'), scale }];
  },
};

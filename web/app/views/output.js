// Stage 8: the context-aware outputs, with the selected token before and after.
import { makeScale } from '../colors.js';
import { h } from '../dom.js';
import { fmt } from '../format.js';
import { heatCanvas, renderMatrix } from '../matrix-view.js';
import { explainOutput } from './weighted-sum.js';

export default {
  id: 'output',
  label: 'Output',
  formulaPart: 'output',
  title: () => 'Output: context-aware vectors',
  explain(ctx) {
    const i = ctx.selected;
    const cos = ctx.trace.cosine('v', i, 'output', i);
    return `Every token now has a new ${ctx.config.dK}-number vector that mixes in the tokens it attended to. Below, ${ctx.tokens[i]}'s own value vector v and its output side by side: their cosine similarity is ${fmt(cos, 3)} (1 would mean unchanged in direction). The same character in another sentence would come out differently.`;
  },
  async render(body, ctx) {
    const i = ctx.selected;
    const out = ctx.stage('output');
    const v = ctx.stage('v');
    const block = renderMatrix(out, {
      caption: 'output = weights · V',
      rowLabels: ctx.tokens,
      colLabels: Array.from({ length: out.cols }, (_, j) => j + 1),
      stageId: 'output',
      selectedRow: i,
      onRowLabel: ctx.select,
      explain: (r, j) => explainOutput(ctx, r, j),
    });
    const scale = makeScale('diverging', Math.min(v.min, out.min), Math.max(v.max, out.max));
    const pick = (m) => ({ rows: 1, cols: m.cols, data: m.data.subarray(i * m.cols, (i + 1) * m.cols) });
    const first = (m) => Array.from(m.data.subarray(i * m.cols, i * m.cols + Math.min(6, m.cols)), (x) => fmt(x)).join(', ');
    const compare = h('div', { class: 'strips before-after' },
      h('div', { class: 'label' }, `v(${ctx.tokens[i]}) — before`),
      heatCanvas(pick(v), scale, { explain: (_, j) => `v(${ctx.tokens[i]})[${j + 1}] = ${fmt(v.data[i * v.cols + j], 3)}` }),
      h('div', { class: 'label selected' }, `output(${ctx.tokens[i]}) — after`),
      heatCanvas(pick(out), scale, { explain: (_, j) => explainOutput(ctx, i, j) }));
    const numbers = h('p', { class: 'note' },
      `before: [${first(v)}, …]`, h('br'), `after:  [${first(out)}, …]`);
    body.append(block.element, h('h3', {}, `${ctx.tokens[i]} before and after attention`), compare, numbers);
    await block.reveal({ animate: ctx.animate, mode: 'rows', stagger: 40 });
    return [{ label: 'output', scale: block.scale }, { label: 'v and output', scale }];
  },
};

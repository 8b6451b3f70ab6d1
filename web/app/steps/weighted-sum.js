// Step 7: ×V for the selected token — its weights scale the value rows, and
// the scaled rows add up to its output row.
import { makeScale } from '../matrix/colors.js';
import { h, sleep } from '../ui/dom.js';
import { factor, fmt } from '../ui/format.js';
import { heatCanvas, keptCanvas, paintCanvas } from '../matrix/heat-canvas.js';
import { renderMatrix } from '../matrix/matrix-view.js';

const STRIP_LIMIT = 40;

export function explainOutput(ctx, i, j) {
  const d = ctx.view.dotTerms('output', i, j);
  const shown = Math.min(3, d.products.length);
  const terms = Array.from({ length: shown }, (_, t) => `${fmt(d.a[t])}·${factor(d.b[t])}`).join(' + ');
  const more = d.products.length > shown ? ctx.t('step.scores.more', { count: d.products.length }) : '';
  return ctx.t('step.weighted-sum.cell', { token: ctx.tokens[i], j: j + 1, terms, more, total: fmt(d.total, 3) });
}

function row(m, i) {
  return { rows: 1, cols: m.cols, data: m.data.subarray(i * m.cols, (i + 1) * m.cols) };
}

export default {
  id: 'weighted-sum',
  label: (t) => t('step.weighted-sum.label'),
  inFormula: true, // its part of the formula is marked (index.html: data-step)
  matrices: ['weights', 'v', 'output'], // the core stages it shows, and exports
  panelColumn: 'probs', // the side panel's column it computes
  experiments: ['tiles', 'what-if'],
  title: (ctx) => ctx.t('step.weighted-sum.title', { token: ctx.tokens[ctx.selected] }),
  explain(ctx) {
    // The three terms with the largest weights, in the core's order; the rest counted.
    const i = ctx.selected;
    const { probs, order } = ctx.view.softmaxRow(i);
    const shown = Array.from(order.subarray(0, 3), (k) => ctx.t('step.weighted-sum.part', { p: fmt(probs[k]), token: ctx.tokens[k] }));
    const rest = ctx.n > shown.length ? ctx.t('step.weighted-sum.rest') : '';
    return ctx.t('step.weighted-sum.explain', { token: ctx.tokens[i], parts: `${shown.join(' + ')}${rest}` });
  },
  async render(body, ctx) {
    const i = ctx.selected;
    const v = ctx.view.stage('v');
    const w = ctx.view.stage('weights');
    const out = ctx.view.stage('output');
    const terms = ctx.view.weightedRows(i);
    const scale = makeScale('diverging', Math.min(v.min, terms.min, out.min), Math.max(v.max, terms.max, out.max));
    const legend = [{ label: ctx.t('step.weighted-sum.legend'), scale }];

    if (ctx.n > STRIP_LIMIT) {
      const blocks = [
        renderMatrix(v, { t: ctx.t, caption: 'V', rowLabels: ctx.tokens, stageId: 'v' }),
        renderMatrix(terms, { t: ctx.t, caption: ctx.t('step.weighted-sum.termsCaption', { token: ctx.tokens[i] }), rowLabels: ctx.tokens, stageId: 'weighted' }),
        renderMatrix({ ...row(out, i), min: out.min, max: out.max }, { t: ctx.t, caption: ctx.t('step.weighted-sum.sumCaption', { token: ctx.tokens[i] }), stageId: 'output',
          explain: (_, j) => explainOutput(ctx, i, j) }),
      ];
      body.append(...blocks.map((b) => b.element));
      for (const b of blocks) await b.reveal({ animate: ctx.animate });
      return legend;
    }

    const grid = h('div', { class: 'strips weighted-strips' });
    grid.append(h('div', { class: 'strip-head' }, ctx.t('step.weighted-sum.weight')), h('div', { class: 'strip-head' }, ctx.t('step.weighted-sum.rows', { d: v.cols })));
    const items = [];
    for (let k = 0; k < ctx.n; k += 1) {
      const p = w.data[i * w.cols + k];
      const canvas = keptCanvas(v, `${i} ${k} ${scale.lo} ${scale.hi}`, () => heatCanvas(row(terms, k), scale, {
        later: ctx.animate, // animated: painted as it appears
        explain: (_, j) => ctx.t('step.weighted-sum.termCell', { p: fmt(p, 3), token: ctx.tokens[k], j: j + 1, v: factor(v.data[k * v.cols + j], 3), value: fmt(terms.data[k * terms.cols + j], 3) }),
      }), { later: ctx.animate });
      canvas.classList.add('weighted-term'); // a row p_ik · v_k: no stage of its own
      const bar = h('span', { class: 'weight-bar' });
      bar.style.width = `${Math.round(p * 60)}px`;
      const label = h('div', { class: `label${k === i ? ' selected' : ''}` },
        ctx.t('step.weighted-sum.term', { p: fmt(p), token: ctx.tokens[k] }), bar);
      items.push(canvas);
      grid.append(label, canvas);
    }
    const sum = keptCanvas(out, `${i} ${scale.lo} ${scale.hi}`, () => heatCanvas(row(out, i), scale, { explain: (_, j) => explainOutput(ctx, i, j) }));
    sum.dataset.stage = 'output';
    grid.append(h('div', { class: 'label selected' }, ctx.t('step.weighted-sum.sum', { token: ctx.tokens[i] })), sum);
    body.append(grid);
    if (ctx.animate) {
      [...items, sum].forEach((c) => c.classList.add('pending'));
      for (const c of items) {
        await sleep(90);
        paintCanvas(c);
        c.classList.remove('pending');
      }
      await sleep(300);
      sum.classList.remove('pending');
    }
    return legend;
  },
};

// Step 2: token embedding rows, plus positional encoding rows, make x: the first layer's input
// (a later layer reads the layer before's output, which the explanation says).
import { makeScale } from '../matrix/colors.js';
import { h, sleep } from '../ui/dom.js';
import { fmt } from '../ui/format.js';
import { sentenceGap } from '../strings/i18n.js';
import { heatCanvas, keptCanvas, paintCanvas } from '../matrix/heat-canvas.js';
import { renderMatrix } from '../matrix/matrix-view.js';

const STRIP_LIMIT = 24;  // more tokens than this: three heat maps instead of strips

// A row of m as a strip (kept for the trace: see keptCanvas).
function strip(m, row, scale, explain, later) {
  return keptCanvas(m, `${row} ${scale.lo} ${scale.hi}`, () => {
    const one = { rows: 1, cols: m.cols, data: m.data.subarray(row * m.cols, (row + 1) * m.cols) };
    return heatCanvas(one, scale, { explain: (_, j) => explain(row, j), later });
  }, { later });
}

export default {
  id: 'embedding',
  label: (t) => t('step.embedding.label'),
  inFormula: false, // its part of the formula is marked (index.html: data-step)
  panelColumn: 'key', // the side panel shows only the keys: the row's numbers come from Q·Kᵀ on
  matrices: ['embeddings', 'positional', 'x'], // the core stages it shows, and exports
  title: (ctx) => ctx.t('step.embedding.title'),
  explain(ctx) {
    // A factorised embedding (a trained model's, whose positions are always on) keeps fewer numbers a
    // token; a trained model's x is LayerNorm(embedding + position), defined by the sentence after.
    const key = ctx.config.embedding > 0 ? 'step.embedding.explainFactorised'
      : ctx.trained ? 'step.embedding.explainNormed'
        : ctx.config.positional ? 'step.embedding.explain' : 'step.embedding.explainOff';
    const plain = ctx.t(key, { d: ctx.config.dModel, e: ctx.config.embedding });
    const space = sentenceGap(ctx.lang);
    const text = ctx.trained ? `${plain}${space}${ctx.t('step.embedding.norm')}` : plain; // a trained encoder's x is LayerNorm(e + p)
    // Past the first layer, attention reads the layer before's output, not embedding + position.
    return ctx.where.layer > 0 ? `${text}${space}${ctx.t('step.embedding.laterLayer', { layer: ctx.where.layer + 1, before: ctx.where.layer })}` : text;
  },
  async render(body, ctx) {
    const e = ctx.view.stage('embeddings');
    const p = ctx.view.stage('positional');
    const x = ctx.viewOf({ layer: 0, head: 0 }).stage('x'); // the first layer's input: embedding + position, a trained model's LayerNorm(…) of it
    const scale = makeScale('diverging', Math.min(e.min, p.min, x.min), Math.max(e.max, p.max, x.max));
    const explain = (i, j) => ctx.t(ctx.trained ? 'step.embedding.cellNorm' : 'step.embedding.cell', {
      token: ctx.tokens[i], j: j + 1,
      e: fmt(e.data[i * e.cols + j], 3), p: fmt(p.data[i * p.cols + j], 3), x: fmt(x.data[i * x.cols + j], 3),
    });
    const legend = [{ label: ctx.t('step.embedding.legend'), scale }];

    if (ctx.n > STRIP_LIMIT) {
      const opts = { scale: 'diverging', rowLabels: ctx.tokens, explain };
      const blocks = [
        renderMatrix(e, { t: ctx.t, ...opts, caption: ctx.t('step.embedding.embeddings'), stageId: 'embeddings' }),
        renderMatrix(p, { t: ctx.t, ...opts, caption: ctx.t('step.embedding.plusPosition'), stageId: 'positional' }),
        renderMatrix(x, { t: ctx.t, ...opts, caption: ctx.trained ? ctx.t('step.embedding.normCaption') : '= x', stageId: 'x' }),
      ];
      body.append(...blocks.map((b) => b.element));
      for (const b of blocks) await b.reveal({ animate: ctx.animate });
      return legend;
    }

    // One line per token: embedding + position = x, so the sum forms in place (a trained model's
    // x is LayerNorm of the sum: an arrow, not =, and its column says so).
    const sources = [['embeddings', e], ['positional', p], ['x', x]];
    const grid = h('div', { class: 'strips embed-strips' },
      h('div', {}), h('div', { class: 'strip-head' }, ctx.t('step.embedding.head', { d: e.cols })), h('div', {}),
      h('div', { class: 'strip-head' }, ctx.t('step.embedding.position')), h('div', {}), h('div', { class: 'strip-head' }, ctx.trained ? ['x = ', h('span', { class: 'norm-head' }, ctx.t('step.embedding.normHead'))] : 'x'));
    const groups = sources.map(() => []);
    for (let i = 0; i < ctx.n; i += 1) {
      const canvases = sources.map(([id, m], c) => {
        const canvas = strip(m, i, scale, explain, ctx.animate); // animated: painted as it appears
        canvas.dataset.stage = id;
        groups[c].push(canvas);
        return canvas;
      });
      grid.append(h('div', { class: `label${i === ctx.selected ? ' selected' : ''}` }, ctx.tokens[i]),
        canvases[0], h('span', { class: 'op' }, '+'), canvases[1], h('span', { class: 'op' }, ctx.trained ? '→' : '='), canvases[2]);
    }
    body.append(grid);
    if (ctx.animate) {
      groups.flat().forEach((c) => c.classList.add('pending'));
      for (const group of groups) {
        await sleep(150);
        for (const c of group) {
          paintCanvas(c);
          c.classList.remove('pending');
          await sleep(35);
        }
      }
    }
    return legend;
  },
};

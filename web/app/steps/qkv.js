// Step 3: x through W_q, W_k, W_v (and biases) into Q, K and V.
import { h, live } from '../ui/dom.js';
import { fmt } from '../ui/format.js';
import { makeScale } from '../matrix/colors.js';
import { heatCanvas, hoverCells, keptCanvas } from '../matrix/heat-canvas.js';
import { renderMatrix } from '../matrix/matrix-view.js';

// A kept thumbnail answers hover in the words of the view that shows it now.
function paramsThumb(ctx, w, id) {
  const thumb = keptCanvas(w, 'thumb', () => {
    const drawn = heatCanvas(w, makeScale('diverging', w.min, w.max));
    drawn.classList.add('params-thumb');
    return drawn;
  });
  hoverCells(thumb, w, { explain: (r, c) => ctx.t('step.qkv.param', { name: id, r: r + 1, c: c + 1, value: fmt(w.data[r * w.cols + c], 4) }) });
  return thumb;
}

export default {
  id: 'qkv',
  label: (t) => t('step.qkv.label'),
  inFormula: true, // its part of the formula is marked (index.html: data-step)
  panelColumn: 'key', // the side panel shows only the keys: the row's numbers come from Q·Kᵀ on
  matrices: ['q', 'k', 'v'], // the core stages it shows, and exports
  title: (ctx) => ctx.t('step.qkv.title'),
  explain: (ctx) => ctx.t('step.qkv.explain', { n: ctx.n, dModel: ctx.config.dModel, dK: ctx.config.dK }),
  async render(body, ctx) {
    const x = ctx.view.stage('x');
    const mats = ['q', 'k', 'v'].map((id) => [id, ctx.view.stage(id)]);
    const range = { min: Math.min(...mats.map(([, m]) => m.min)), max: Math.max(...mats.map(([, m]) => m.max)) };
    const xBlock = renderMatrix(x, { t: ctx.t, caption: 'x', rowLabels: ctx.tokens, stageId: 'x', selectedRow: ctx.selected });
    const blocks = mats.map(([id, m]) => renderMatrix({ ...m, ...range }, { t: ctx.t,
      caption: `${id.toUpperCase()} = x · W_${id} + b_${id}`,
      rowLabels: ctx.tokens,
      colLabels: Array.from({ length: m.cols }, (_, j) => j + 1),
      stageId: id,
      selectedRow: ctx.selected,
      onRowLabel: ctx.select,
      explain: (i, j) => ctx.t('step.qkv.cell', { name: id, token: ctx.tokens[i], j: j + 1, value: fmt(m.data[i * m.cols + j], 3) }),
    }));
    // Each projection: a thumbnail of its parameter matrix, then the result. The
    // thumbnails (d_model × d_k values each) are drawn as their lane appears,
    // into a box of fixed size, so that work is spread over the animation; a
    // thumbnail drawn before for the same params (the warm-up draws this
    // step out of sight) is used again when it is not on the page.
    const lanes = mats.map(([id], k) => {
      const thumb = h('canvas', { class: 'heat params-thumb' });
      const draw = () => thumb.replaceWith(paramsThumb(ctx, ctx.view.stage(`w${id}`), id));
      const el = h('div', { class: 'lane' },
        h('figure', { class: 'matrix-block' },
          h('div', { class: 'caption' }, `× W_${id} + b_${id}`, h('span', { class: 'shape' }, `${ctx.config.dModel} × ${ctx.config.dK}`)), thumb),
        h('span', { class: 'op' }, '→'), blocks[k].element);
      return { el, draw };
    });
    body.append(xBlock.element, ...lanes.map((lane) => lane.el));
    if (!ctx.animate) lanes.forEach((lane) => lane.draw());
    await xBlock.reveal({ animate: false });
    for (const lane of lanes) lane.el.classList.toggle('pending', ctx.animate);
    for (const [k, b] of blocks.entries()) {
      if (ctx.animate) lanes[k].draw();
      live(lanes[k].el).classList.remove('pending');
      await b.reveal({ animate: ctx.animate, stagger: 25 });
    }
    return [{ label: 'x', scale: xBlock.scale }, { label: ctx.t('step.qkv.legend'), scale: blocks[0].scale }];
  },
};

// Step 9: after the heads. Each head's output (n × d_k) side by side is one
// row of d_model numbers per token (concat); × W_O + b_O mixes the heads into
// the attention layer's output. What follows in the layer (residual,
// LayerNorm, feed-forward) is drawn too, folded away until opened.
// The seeded random model is one head with no W_O: this step says so.
import { makeScale } from '../matrix/colors.js';
import { h } from '../ui/dom.js';
import { heatCanvas } from '../matrix/heat-canvas.js';
import { renderMatrix } from '../matrix/matrix-view.js';
import { labelText, layerPicker } from '../heads/heads-panel.js';
import { headName, headNumber } from '../heads/head-names.js';

// The rest of the layer, in order: [stage id, caption key].
const AFTER = [['residual', 'residual'], ['norm', 'norm'], ['ffHidden', 'ffHidden'], ['ffOutput', 'ffOutput'],
  ['ffResidual', 'ffResidual'], ['layerOutput', 'layerOutput']];

function headOutputs(ctx, scale) {
  const { layer, head: shown } = ctx.where;
  return h('div', { class: 'head-outputs' }, Array.from({ length: ctx.heads }, (_, head) => {
    const where = { layer, head };
    const out = ctx.viewOf(where).stage('output');
    const report = ctx.viewOf(where).headReport();
    const name = headName(ctx.t, head);
    return h('figure', { class: `head-output${head === shown ? ' selected' : ''}${report.knockedOut ? ' knocked-out' : ''}`, dataset: { head } },
      h('figcaption', {}, name, ' ', h('span', { class: 'head-label' }, report.knockedOut ? ctx.t('heads.zeroed') : labelText(ctx.t, report.label))),
      heatCanvas(out, scale, { inPlace: true, explain: (i, j) => ctx.t('step.concat.headCell', { head: name, token: ctx.tokens[i], j: j + 1, value: out.data[i * out.cols + j].toFixed(3) }) }));
  }));
}

function restOfLayer(ctx) {
  const blocks = AFTER.map(([id, key]) => renderMatrix(ctx.layerView.stage(id), { t: ctx.t,
    caption: ctx.t(`step.concat.${key}`), rowLabels: ctx.tokens, stageId: `layer-${id}`, selectedRow: ctx.selected, onRowLabel: ctx.select,
  }));
  const details = h('details', { class: 'rest-of-layer', open: ctx.layerOpen, ontoggle: (event) => ctx.setLayerOpen(event.target.open) },
    h('summary', {}, ctx.t('step.concat.rest')),
    h('p', { class: 'explain' }, ctx.t('step.concat.restExplain', { dModel: ctx.config.dModel, dFf: ctx.layerView.stage('ffHidden').cols })),
    blocks.map((b) => b.element));
  return details;
}

export default {
  id: 'concat',
  label: (t) => t('step.concat.label'),
  inFormula: false, // its part of the formula is marked (index.html: data-step)
  matrices: ['concat', 'wo', 'projected'], // the core stages it shows, and exports
  ofLayer: true, // its stages are the selected layer's (a trained model's), not one head's
  experiments: ['rollout', 'lens'],
  title: (ctx) => ctx.t(ctx.trained ? 'step.concat.title' : 'step.concat.titleRandom'),
  explain(ctx) {
    if (!ctx.trained) return ctx.t('step.concat.explainRandom');
    const off = ctx.knockOut.filter((k) => k.layer === ctx.where.layer).map((k) => headNumber(k.head));
    const text = ctx.t('step.concat.explain', { heads: ctx.heads, dK: ctx.config.dK, dModel: ctx.config.dModel });
    const offKey = off.length > 1 ? 'step.concat.explainOffMany' : 'step.concat.explainOff';
    return off.length ? `${text}${ctx.t(offKey, { heads: off.join(ctx.t('list.sep')) })}` : text;
  },
  async render(body, ctx) {
    if (!ctx.trained) return [];
    const concat = ctx.layerView.stage('concat');
    const projected = ctx.layerView.stage('projected');
    const scale = makeScale('diverging', concat.min, concat.max);
    const rows = { rowLabels: ctx.tokens, selectedRow: ctx.selected, onRowLabel: ctx.select };
    const joined = renderMatrix(concat, { t: ctx.t, ...rows, caption: ctx.t('step.concat.concat', { heads: ctx.heads }), stageId: 'concat' });
    const out = renderMatrix(projected, { t: ctx.t, ...rows, caption: ctx.t('step.concat.projected'), stageId: 'projected' });
    const w = ctx.layerView.stage('wo');
    const wo = heatCanvas(w, makeScale('diverging', w.min, w.max), {
      explain: (r, c) => ctx.t('step.concat.woCell', { r: r + 1, c: c + 1, value: w.data[r * w.cols + c].toFixed(4) }),
    });
    wo.classList.add('wo-thumb');
    // × W_O beside its result where the width allows, above it where not (its caption starts with "=").
    const woBlock = h('figure', { class: 'matrix-block' }, h('div', { class: 'caption' }, ctx.t('step.concat.wo'), h('span', { class: 'shape' }, `${w.rows} × ${w.cols}`)), wo);
    body.append(layerPicker(ctx) ?? '', headOutputs(ctx, scale), joined.element, h('div', {}, woBlock, out.element), restOfLayer(ctx));
    for (const block of [joined, out]) await block.reveal({ animate: ctx.animate, mode: 'rows', stagger: 30 });
    return [{ label: ctx.t('step.concat.legend'), scale: joined.scale }, { label: ctx.t('step.concat.legendProjected'), scale: out.scale }];
  },
};

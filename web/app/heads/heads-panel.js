// What the trained heads do, one card a head of the selected layer: its
// shares of attention on this sentence (trace.headReport, computed by the
// core) as small bars, its label, one sentence tied to the selected token's
// row, a button that makes it the head every step shows, and a switch that
// knocks it out (the run zeroes its output before W_O).
import { h, morphChildren } from '../ui/dom.js';
import { fmt, share } from '../ui/format.js';
import { headName, headNumber } from './head-names.js';
import { referenceNote } from './reference-note.js';

const SHARES = ['self', 'previous', 'next', 'special', 'same'];

/** The label's words ('previous' …, or mixed when no share reaches 0.5). */
export const labelText = (t, label) => t(`heads.label.${label ?? 'mixed'}`);

/** A picker of the layer whose heads are shown, when the model has several. */
export function layerPicker(ctx) {
  if (ctx.layers <= 1) return null;
  const select = h('select', { class: 'layer-picker', onchange: (event) => ctx.selectLayer(Number(event.target.value)) },
    Array.from({ length: ctx.layers }, (_, l) => h('option', { value: l, selected: l === ctx.where.layer }, ctx.t('heads.layer', { n: l + 1 }))));
  return h('label', { class: 'experiment-control' }, ctx.t('heads.layerPicker'), ' ', select);
}

function card(ctx, head, { onKnockOut }) {
  const where = { layer: ctx.where.layer, head };
  const report = ctx.viewOf(where).headReport();
  const row = ctx.viewOf(where).softmaxRow(ctx.selected);
  const selected = head === ctx.where.head;
  const bars = SHARES.map((name) => {
    const bar = h('span', { class: 'bar' });
    bar.style.width = `${Math.round(Math.min(1, report.shares[name]) * 100)}%`;
    return h('li', { dataset: { share: name } }, h('span', { class: 'share-name' }, ctx.t(`heads.share.${name}`)),
      h('span', { class: 'share-bar' }, bar), h('span', { class: 'share-value', title: fmt(report.shares[name], 4) }, share(report.shares[name])));
  });
  const says = ctx.t(`heads.says.${report.label ?? 'mixed'}`,
    { token: ctx.tokens[ctx.selected], best: ctx.tokens[row.argmax], p: fmt(row.maxProb), share: fmt(report.label ? report.shares[report.label] : 0) });
  const knock = h('input', { type: 'checkbox', role: 'switch', checked: report.knockedOut, dataset: { knockOut: head },
    onchange: (event) => onKnockOut(head, event.target.checked) });
  return h('article', {
    class: `head-card${selected ? ' selected' : ''}${report.knockedOut ? ' knocked-out' : ''}`,
    dataset: { head, label: report.label ?? 'mixed' },
    'aria-label': ctx.t('heads.cardName', { n: headNumber(head), label: labelText(ctx.t, report.label) }),
  },
  h('h3', {}, headName(ctx.t, head), ' ', h('span', { class: 'head-label' }, labelText(ctx.t, report.label))),
  h('ul', { class: 'shares' }, bars),
  h('p', { class: 'says' }, says),
  report.knockedOut ? h('p', { class: 'note' }, ctx.t('heads.knockedOutNote')) : null,
  h('div', { class: 'card-actions' },
    h('button', { type: 'button', class: 'show-head', 'aria-pressed': String(selected), onclick: () => ctx.selectHead(head) },
      ctx.t(selected ? 'heads.shown' : 'heads.show')),
    h('label', { class: 'switch' }, knock, ' ', ctx.t('heads.knockOut'))));
}

/** The cards of one lab, in container: render(ctx, handlers) draws them (or,
 *  for the seeded model, why there are none), again only when what they show
 *  has changed (not on every step). */
export function createHeadsPanel(container) {
  let drawnFor = null; // [run, head, selected token, language] the cards were drawn for
  return { render(ctx, handlers) {
    const key = [ctx.view, ctx.selected, ctx.lang];
    if (drawnFor && key.every((v, k) => v === drawnFor[k])) return;
    drawnFor = key;
    renderHeads(container, ctx, handlers);
  } };
}

function renderHeads(container, ctx, handlers) {
  if (!ctx.trained) {
    morphChildren(container, h('div', {}, h('p', { class: 'hint' }, ctx.t('heads.random'))));
    return;
  }
  const cards = Array.from({ length: ctx.heads }, (_, head) => card(ctx, head, handlers));
  morphChildren(container, h('div', {},
    h('p', { class: 'explain head-what' }, ctx.t('heads.what')),
    h('p', { class: 'explain' }, ctx.t('heads.explain', { heads: ctx.heads, token: ctx.tokens[ctx.selected] })),
    referenceNote(ctx),
    layerPicker(ctx),
    h('div', { class: 'head-cards' }, cards)));
}

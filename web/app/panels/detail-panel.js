// The side panel: the selected query token's row through every step of
// softmax, laid out like the article's worked table. All numbers come from
// trace.softmaxRow() (the C++ core).
import { h, morphChildren, setText } from '../ui/dom.js';
import { fmt } from '../ui/format.js';
import { headName } from '../heads/head-names.js';

// The table's columns; a step's panelColumn (steps/index.js) is marked as it is shown, and the
// columns after it stay hidden until their step (the first steps show only the keys). A step
// without one (after softmax) shows them all.
const COLUMNS = ['key', 'scores', 'scaled', 'exps', 'shares', 'probs'];

// Cell c's classes at a step whose column is `current` (undefined: every column, none marked).
function mark(cell, c, current) {
  cell.classList.toggle('current', c === current && c > 0);
  cell.classList.toggle('later', current !== undefined && c > current);
}

/** One lab's side panel (its body and title): render(ctx, step) draws the
 *  selected row for step. A step to another step changes only which column is
 *  marked, so it moves the mark instead of building the table again. */
export function createDetailPanel(container, titleEl) {
  let shown = null; // what the panel shows now
  return { render(ctx, step) { shown = renderDetail(container, titleEl, ctx, step, shown); } };
}

function renderDetail(container, titleEl, ctx, step, shown) {
  const i = ctx.selected;
  const current = step.panelColumn ? COLUMNS.indexOf(step.panelColumn) : undefined;
  const drawn = container.querySelector('table.steps');
  const before = current === 0; // no number of the row has been computed yet
  const withExps = current === undefined || current >= COLUMNS.indexOf('exps'); // the note explains exp and share
  // The head is named once the row's numbers (a head's) are shown.
  const title = ctx.t('detail.title', { token: ctx.tokens[i] });
  setText(titleEl, ctx.heads > 1 && !before ? `${title} · ${headName(ctx.t, ctx.where.head)}` : title);
  if (drawn && shown && shown.table === drawn && shown.trace === ctx.view && shown.selected === i && shown.language === ctx.lang) {
    for (const tr of [...drawn.tHead.rows, ...drawn.tBodies[0].rows, ...drawn.tFoot.rows]) {
      [...tr.cells].forEach((cell, c) => mark(cell, c, current));
    }
    container.querySelector('.detail-before').hidden = !before;
    for (const note of container.querySelectorAll('.detail-notes')) note.hidden = !withExps;
    return shown;
  }
  const r = ctx.view.softmaxRow(i);
  const divisor = fmt(r.divisor, r.divisor % 1 ? 3 : 0);
  const headers = [ctx.t('detail.key'), ctx.t('detail.raw'), ctx.t('detail.divided', { d: divisor }), ctx.t('detail.exp'), ctx.t('detail.share'), ctx.t('detail.prob')];
  const head = h('tr', {}, headers.map((text) => h('th', { scope: 'col' }, text)));
  const rows = ctx.tokens.map((token, j) => {
    const masked = r.masked[j] === -Infinity;
    const bar = h('span', { class: 'bar' });
    bar.style.width = `${Math.round(r.probs[j] * 100)}%`;
    const row = h('tr', { class: j === i ? 'self' : undefined, dataset: { j } },
      h('td', {}, token),
      h('td', { dataset: { col: 'scores' } }, fmt(r.scores[j])),
      h('td', { dataset: { col: 'scaled' }, class: masked ? 'masked' : undefined }, masked ? ctx.t('detail.masked') : fmt(r.scaled[j])),
      h('td', { dataset: { col: 'exps' } }, fmt(r.exps[j])),
      h('td', { dataset: { col: 'shares' } }, fmt(r.shares[j])),
      h('td', { class: 'bar-cell', dataset: { col: 'probs' } }, fmt(r.probs[j]), ' ', bar));
    return row;
  });
  const foot = h('tr', {},
    h('td', {}, 'Σ'), h('td', {}), h('td', {}),
    h('td', { dataset: { col: 'expSum' } }, fmt(r.expSum)),
    h('td', {}, ''),
    h('td', { dataset: { col: 'probSum' } }, fmt(r.probSum)));
  const notes = [];
  if (!Number.isFinite(r.expSum)) {
    notes.push(ctx.t('detail.overflow'));
  }
  notes.push(ctx.t('detail.note'));
  for (const tr of [head, ...rows, foot]) [...tr.cells].forEach((cell, c) => mark(cell, c, current));
  morphChildren(container, h('div', {},
    h('p', { class: 'note detail-before', hidden: !before }, ctx.t('detail.before', { token: ctx.tokens[i] })),
    h('table', { class: 'steps' }, h('thead', {}, head), h('tbody', {}, rows), h('tfoot', {}, foot)),
    h('div', { class: 'detail-notes', hidden: !withExps }, notes.map((n) => h('p', { class: 'note' }, n)))));
  return { table: container.querySelector('table.steps'), trace: ctx.view, selected: i, language: ctx.lang };
}

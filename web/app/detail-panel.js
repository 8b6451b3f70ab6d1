// The side panel: the selected query token's row through every step of
// softmax, laid out like the article's worked table. All numbers come from
// trace.softmaxRow() (the C++ core).
import { h, morphChildren, setText } from './dom.js';
import { fmt } from './format.js';
import { headName } from './head-view.js';
import { language, t } from './i18n.js';

// The table's columns; a step's panelColumn (steps.js) is marked as it is shown.
const COLUMNS = ['key', 'scores', 'scaled', 'exps', 'shares', 'probs'];

// What the panel shows now: a step to another step changes only which column
// is marked, so it moves the mark instead of building the table again.
let shown = null;

export function renderDetail(container, titleEl, ctx, step) {
  const i = ctx.selected;
  const current = step.panelColumn ? COLUMNS.indexOf(step.panelColumn) : undefined;
  const drawn = container.querySelector('table.steps');
  if (drawn && shown && shown.table === drawn && shown.trace === ctx.trace && shown.selected === i && shown.language === language()) {
    for (const tr of [...drawn.tHead.rows, ...drawn.tBodies[0].rows]) {
      [...tr.cells].forEach((cell, c) => cell.classList.toggle('current', c === current));
    }
    return;
  }
  const r = ctx.trace.softmaxRow(i);
  const title = t('detail.title', { token: ctx.tokens[i] });
  setText(titleEl, ctx.heads > 1 ? `${title} · ${headName(ctx.where.head)}` : title);
  const divisor = fmt(r.divisor, r.divisor % 1 ? 3 : 0);
  const headers = [t('detail.key'), t('detail.raw'), t('detail.divided', { d: divisor }), t('detail.exp'), t('detail.share'), t('detail.prob')];
  const head = h('tr', {}, headers.map((text, c) => h('th', { scope: 'col', class: c === current ? 'current' : undefined }, text)));
  const rows = ctx.tokens.map((token, j) => {
    const masked = r.masked[j] === -Infinity;
    const bar = h('span', { class: 'bar' });
    bar.style.width = `${Math.round(r.probs[j] * 100)}%`;
    const row = h('tr', { class: j === i ? 'self' : undefined, dataset: { j } },
      h('td', {}, token),
      h('td', { dataset: { col: 'scores' } }, fmt(r.scores[j])),
      h('td', { dataset: { col: 'scaled' }, class: masked ? 'masked' : undefined }, masked ? t('detail.masked') : fmt(r.scaled[j])),
      h('td', { dataset: { col: 'exps' } }, fmt(r.exps[j])),
      h('td', { dataset: { col: 'shares' } }, fmt(r.shares[j])),
      h('td', { class: 'bar-cell', dataset: { col: 'probs' } }, fmt(r.probs[j]), ' ', bar));
    if (current !== undefined) row.cells[current].classList.add('current');
    return row;
  });
  const foot = h('tr', {},
    h('td', {}, 'Σ'), h('td', {}), h('td', {}),
    h('td', { dataset: { col: 'expSum' } }, fmt(r.expSum)),
    h('td', {}, ''),
    h('td', { dataset: { col: 'probSum' } }, fmt(r.probSum)));
  const notes = [];
  if (!Number.isFinite(r.expSum)) {
    notes.push(t('detail.overflow'));
  }
  notes.push(t('detail.note'));
  morphChildren(container, h('div', {},
    h('table', { class: 'steps' }, h('thead', {}, head), h('tbody', {}, rows), h('tfoot', {}, foot)),
    notes.map((n) => h('p', { class: 'note' }, n))));
  shown = { table: container.querySelector('table.steps'), trace: ctx.trace, selected: i, language: language() };
}

// Lab: the softmax formula as written (overflows) against the stable form the
// core uses (subtract the row maximum first), in float32.
import { clear, h } from '../dom.js';
import { fmt } from '../format.js';
import { errorText, t } from '../i18n.js';

// NaN is the point of this lab: spell it out instead of a dash.
const show = (v) => (Number.isNaN(v) ? 'NaN' : fmt(v, 4));

export default {
  id: 'stability',
  label: () => t('lab.stability.label'),
  render(body, ctx) {
    const presets = [
      [t('lab.stability.rowRaw', { token: ctx.tokens[ctx.selected] }), Array.from(ctx.trace.softmaxRow(ctx.selected).scores)],
      [t('lab.stability.big'), [1000, 999, -1000]],
      [t('lab.stability.edge'), [88, 89, 0]],
      [t('lab.stability.article'), [15.3, 22.7, 18.2, 2.1, 1.8, 3.2, 2.9, 5.6, 4.1]],
    ];
    const input = h('input', { type: 'text', id: 'lab-scores', class: 'scores-text', 'aria-label': t('lab.stability.scores') });
    const result = h('div', { class: 'lab-result' });
    const draw = () => {
      const scores = input.value.split(/[\s,，]+/).filter(Boolean).map(Number);
      clear(result);
      let row;
      try {
        row = ctx.lab.softmaxRow(scores);
      } catch (error) {
        result.append(h('p', { class: 'message error', role: 'alert' }, errorText(error)));
        return;
      }
      const head = h('tr', {}, ['lab.stability.score', 'lab.stability.exp', 'lab.stability.naive', 'lab.stability.stable']
        .map((k) => h('th', { scope: 'col' }, t(k))));
      const rows = scores.map((s, j) => h('tr', {}, h('td', {}, fmt(s)), h('td', {}, fmt(row.exps[j])),
        h('td', { dataset: { col: 'naive' } }, show(row.shares[j])), h('td', { dataset: { col: 'stable' } }, show(row.probs[j]))));
      result.append(h('table', { class: 'steps lab-table' }, h('thead', {}, head), h('tbody', {}, rows),
        h('tfoot', {}, h('tr', {}, h('td', {}, 'Σ'), h('td', {}, fmt(row.expSum)), h('td', {}), h('td', {})))),
      h('p', { class: `note${row.overflowed ? ' overflow' : ''}` }, t(row.overflowed ? 'lab.stability.overflow' : 'lab.stability.fine')));
    };
    const buttons = presets.map(([name, values]) => h('button', { type: 'button', onclick: () => {
      input.value = values.map((v) => String(v)).join(', ');
      draw();
    } }, name));
    input.addEventListener('change', draw);
    input.value = presets[1][1].join(', ');
    body.append(h('p', { class: 'explain' }, t('lab.stability.explain')),
      h('div', { class: 'lab-control' }, buttons), h('label', { class: 'lab-control' }, t('lab.stability.scores'), ' ', input), result);
    draw();
  },
};

// Experiment view: what if the selected token's row of weights in the selected head were
// different (a chunk of its own, loaded when the experiment opens). The learner drags a
// weight, hides a key or gives one key all the weight; core.whatIf runs the model again with
// that row and says how far each later vector moved and how each [MASK]'s guess shifted. The
// learner's change is the lab's (ctx.whatIf, in the link); it is let go when the row changes.
// The page's own helpers come in from experiments/what-if.js (imported here, they would make a
// chunk that the first load must fetch too).
import { WHAT_IF_WORDS } from '../../generated/words/what-if.js';

/** root: the element to fill; deps: { h, morphChildren, fmt, translator, guessList, headNumber }.
 *  Returns { update(ctx), dispose() }. */
export function createWhatIfView(root, { h, morphChildren, fmt, translator, guessList, headNumber }) {
  let change = null; // the learner's change to the row: { edits: [{ key, weight }], renormalise }, or null (softmax's row)
  let rowKey = null; // [tokens, row, layer, head]: the row the change belongs to
  let drawnFor = null; // [run views, language, change] drawn

  const edits = () => change?.edits ?? [];
  const renormalising = () => change?.renormalise ?? true;
  function edit(ctx, list, renormalise = renormalising()) {
    change = list.length || !renormalise ? Object.freeze({ edits: Object.freeze(list), renormalise }) : null;
    ctx.setWhatIf(change); // the lab keeps it for the link
    draw(ctx);
  }
  // A key's new weight replaces its earlier edit; the others stay in the order they were made.
  const setKey = (ctx, key, weight) => edit(ctx, [...edits().filter((e) => e.key !== key), { key, weight }]);
  // All the weight on one key: it gets 1 and every other key 0 (renormalised or not).
  const allOn = (ctx, key, n) => edit(ctx, Array.from({ length: n }, (_, j) => ({ key: j, weight: j === key ? 1 : 0 })));

  function shiftSentence(t, { shift }) {
    // Four decimals: a change the core counts (more than 0.0005) shows in them; the lists round to three.
    const values = { first: shift.firstBefore, other: shift.firstAfter, before: fmt(shift.before, 4), after: fmt(shift.after, 4) };
    return t(`whatIf.${shift.sameFirst ? 'shift' : 'changed'}.${shift.direction}`, values);
  }

  function body(ctx, t) {
    if (!ctx.trained) return [h('p', { class: 'hint' }, t('whatIf.random'))];
    const { tokens, selected: row, where } = ctx;
    const renormalise = renormalising();
    let r;
    try {
      r = ctx.compute.whatIf(ctx.sentence, { model: ctx.config.model, layer: where.layer, head: where.head, row, edits: edits(), renormalise,
        knockOut: ctx.knockOut, traditional: ctx.lang === 'zh-Hant' });
    } catch (error) {
      return [h('p', { class: 'message error', role: 'alert' }, ctx.errorText(error)),
        h('button', { type: 'button', class: 'what-if-reset', onclick: () => edit(ctx, [], true) }, t('whatIf.reset'))];
    }
    const token = tokens[row];
    const parts = [h('h3', {}, t('whatIf.title', { token, layer: where.layer + 1, head: headNumber(where.head) })),
      h('div', { class: 'what-if-controls' },
        h('label', {}, h('input', { type: 'checkbox', class: 'what-if-renormalise', checked: renormalise,
          onchange: (e) => edit(ctx, edits(), e.target.checked) }), ' ', t('whatIf.renormalise')),
        h('button', { type: 'button', class: 'what-if-reset', onclick: () => edit(ctx, [], true) }, t('whatIf.reset'))),
      h('div', { class: 'what-if-scroll' }, h('table', { class: 'steps what-if-row' },
        h('thead', {}, h('tr', {}, ['whatIf.key', 'whatIf.softmax', 'whatIf.yours'].map((k) => h('th', { scope: 'col' }, t(k))), h('td', {}), h('td', {}))),
        h('tbody', {}, tokens.map((key, j) => h('tr', { dataset: { key: String(j) }, class: j === row ? 'self' : undefined },
          h('th', { scope: 'row' }, key),
          h('td', { class: 'num' }, fmt(r.weights.before[j], 3)),
          h('td', { class: 'num what-if-weight' }, fmt(r.weights.after[j], 3)),
          h('td', {}, h('input', { type: 'range', min: '0', max: '1', step: '0.01', value: String(r.weights.after[j]), dataset: { key: String(j) },
            'aria-label': t('whatIf.slider', { token: key }), oninput: (e) => setKey(ctx, j, Number(e.target.value)) })),
          h('td', { class: 'what-if-actions' },
            h('button', { type: 'button', class: 'what-if-hide', 'aria-label': t('whatIf.hideLabel', { token: key }), onclick: () => setKey(ctx, j, 0) }, t('whatIf.hide')),
            h('button', { type: 'button', class: 'what-if-all', 'aria-label': t('whatIf.allLabel', { token: key }), onclick: () => allOn(ctx, j, tokens.length) },
              t('whatIf.all')))))))),
      h('p', { class: 'what-if-sum' }, t('whatIf.sum', { sum: fmt(r.weights.sum, 3) }))];
    if (ctx.knockOut.some((k) => k.layer === where.layer && k.head === where.head)) parts.push(h('p', { class: 'note' }, t('whatIf.knocked')));
    const label = (s) => t(`whatIf.stage.${s.id}`, { head: headNumber(where.head), layer: s.layer + 1 });
    parts.push(h('div', { class: 'what-if-scroll' }, h('table', { class: 'steps what-if-moved' }, h('caption', {}, t('whatIf.movedTitle', { token })),
      h('thead', {}, h('tr', {}, ['whatIf.stage', 'whatIf.length', 'whatIf.distance', 'whatIf.relative'].map((k) => h('th', { scope: 'col' }, t(k))))),
      h('tbody', {}, r.stages.map((s) => h('tr', { dataset: { stage: s.id, layer: String(s.layer), moved: String(s.moved) } },
        h('th', { scope: 'row' }, label(s)), h('td', { class: 'num' }, fmt(s.before, 3)),
        h('td', { class: 'num' }, fmt(s.distance, 3)), h('td', { class: 'num' }, fmt(s.relative, 3))))))));
    if (!r.masks.length) {
      const hideable = ctx.view.spans[row]?.hideable;
      parts.push(h('p', { class: 'hint what-if-hint' }, t('whatIf.hideHint'), ' ',
        hideable ? h('button', { type: 'button', class: 'what-if-hide-token', onclick: () => ctx.hide(row) }, t('whatIf.hideThis', { token })) : null));
      return parts;
    }
    const lastLayer = where.layer === ctx.layers - 1;
    r.masks.forEach((m, k) => {
      parts.push(h('section', { class: 'what-if-guess', dataset: { mask: String(m.index), moved: String(m.moved.moved), direction: m.shift.direction,
        sameFirst: String(m.shift.sameFirst) } },
      h('h4', {}, t('whatIf.guessTitle', { m: k + 1 })),
      h('div', { class: 'what-if-lists' }, guessList(m.before, t('whatIf.before'), { dataset: { when: 'before' } }),
        guessList(m.after, t('whatIf.after'), { dataset: { when: 'after' } })),
      h('p', { class: 'what-if-shift' }, m.moved.moved ? shiftSentence(t, m) : t('whatIf.unmoved'),
        !m.moved.moved && lastLayer && m.index !== row ? ` ${t('whatIf.lastLayer', { token })}` : '')));
    });
    return parts;
  }

  function draw(ctx) {
    drawnFor = [ctx.viewOf, ctx.lang, change];
    const t = translator(WHAT_IF_WORDS[ctx.lang] ?? WHAT_IF_WORDS.en);
    morphChildren(root, h('div', {}, h('p', { class: 'explain' }, t('whatIf.explain')), body(ctx, t)));
    // A slider or box the learner moved no longer follows its attribute: give each the core's value (not the one held).
    for (const input of root.querySelectorAll('input[type=range]')) {
      if (input !== document.activeElement) input.value = input.getAttribute('value');
    }
    const box = root.querySelector('.what-if-renormalise');
    if (box) box.checked = box.hasAttribute('checked');
  }

  return {
    update(ctx) {
      // The change stays while the row does (hiding a token keeps it: the same tokens, one now [MASK]).
      const key = [ctx.n, ctx.selected, ctx.where.layer, ctx.where.head];
      if (!rowKey) {
        change = ctx.whatIf; // the first row takes the link's change
      } else if (change && key.some((v, k) => v !== rowKey[k])) {
        change = null;
        ctx.setWhatIf(null);
      }
      rowKey = key;
      if (drawnFor && [ctx.viewOf, ctx.lang, change].every((v, k) => v === drawnFor[k])) return;
      draw(ctx);
    },
    dispose() {
      rowKey = null;
      drawnFor = null;
      change = null;
    },
  };
}

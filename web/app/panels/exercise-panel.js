// "Your turn": the learner computes one number of the run (a q·k sum, a scaled
// score, an e^x, a softmax probability or a ×V entry) and the C++ core checks
// it, naming the usual mistake a wrong answer matches (trace.checkAnswer).
// A set of exercises comes from the link or the element (?exercises=…), or is
// all five on the selected token; each result goes to the embedding host (and
// to a SCORM platform, see scorm.js) as
//   { exercise, cell: { row, col }, answer, expected, correct, mistake, tolerance,
//     layer, head, revealed, set: { index, count, answered, right } }
// (revealed: the learner had the answer shown first; `right` counts only the
// exercises answered right without it).
// The panel loads as a chunk of its own when it is needed (shell/exercises.js);
// so that the page's first load carries none of it, it imports nothing of the
// page's modules: what it draws with is handed to it (page: { h, morphChildren,
// fmt, STEPS, translator, parseExercises, sentences }), and its words come with it.
// Until the learner picks an exercise the default set follows the step on screen
// (a set given keeps its order), and an exercise waits until the step that
// computes what it asks for.
import { EXERCISES_WORDS } from '../../generated/words/exercises.js';
import { exerciseInteraction } from '../host/interaction.js';

// Where each exercise's arithmetic is drawn.
const STEP_OF = Object.freeze({ dot: 'scores', scaled: 'scaled', exp: 'softmax', softmax: 'softmax', output: 'weighted-sum' });

/** The exercise set of one lab. announce(result) sends a result on;
 *  showCell(step, row) shows a step with a token selected; page: see above. */
export function createExercises({ announce, showCell }, page) {
  const { h, morphChildren, fmt, STEPS, translator, parseExercises, sentences } = page;
  const own = Object.fromEntries(Object.entries(EXERCISES_WORDS).map(([lang, table]) => [lang, translator(table)]));
  // The panel's words over the lab's: its own first, then the page's (step titles).
  const withWords = (ctx) => ({ ...ctx, t: (key, params) => (key in EXERCISES_WORDS[ctx.lang] ? own[ctx.lang](key, params) : ctx.t(key, params)) });
  let items = parseExercises('').items;
  let at = 0;
  let seed = 0;
  let results = []; // per item: its last result, or null
  let revealed = []; // per item: the answer was shown (it no longer counts as right)
  let feedback = null; // { index, text, kind } for the item shown
  // The default set follows the step on screen until the learner picks an exercise (or answers one);
  // a set given by a link, a course or a host keeps its order.
  let chosen = false;
  let drawnFor = null;

  const right = () => results.filter((r, k) => r?.correct && !revealed[k]).length;
  const answered = () => results.filter(Boolean).length;

  // The cell of item k in this run: its own, or one the core picks on the selected token's row.
  const cellOf = (ctx, k) => items[k].cell ?? ctx.view.pickCell(items[k].name, { row: ctx.selected, seed: seed + k });

  /** Checks the learner's text against exercise e (item k, as drawn). */
  function check(ctx, k, e, text) {
    // Full-width digits, a real minus sign, a decimal comma or 。 are read as the learner meant them.
    const answer = Number(text.normalize('NFKC').trim().replace(/^[−–]/, '-').replace(/[,。]/, '.'));
    if (text.trim() === '' || !Number.isFinite(answer)) {
      feedback = { index: k, text: ctx.t('ex.notNumber'), kind: 'error' };
      return;
    }
    const verdict = ctx.view.checkAnswer(e.exercise, e.cell, answer);
    results[k] = verdict;
    chosen = true;
    let said;
    if (verdict.correct) said = ctx.t('ex.right', { expected: fmt(verdict.expected, 4), tolerance: fmt(verdict.tolerance, 3) });
    else if (verdict.mistake) said = sentences(ctx.lang, ctx.t('ex.wrong'), ctx.t(`ex.mistake.${verdict.mistake}`, wordsOf(ctx, e)));
    else said = sentences(ctx.lang, ctx.t('ex.wrong'), ctx.t('ex.unknown', { answer: text.trim(), step: stepLabel(ctx, e.exercise) }));
    feedback = { index: k, text: said, kind: verdict.correct ? 'right' : 'wrong' };
    announce({ ...verdict, cell: { ...verdict.cell }, ...ctx.where, revealed: Boolean(revealed[k]),
      set: { index: k, count: items.length, answered: answered(), right: right() },
      interaction: exerciseInteraction(verdict, ctx.sentence) });
  }

  // The step an exercise's arithmetic is drawn at, as the rail names it.
  const stepLabel = (ctx, name) => STEPS.find((s) => s.id === STEP_OF[name]).label(ctx.t);
  const stepAt = (id) => STEPS.findIndex((s) => s.id === id);

  // The names the texts quote: the query and key tokens, the sizes, the divisor.
  const wordsOf = (ctx, e) => ({ q: ctx.tokens[e.cell.row], k: e.exercise === 'output' ? '' : ctx.tokens[e.cell.col],
    j: e.cell.col, d: e.dK, dK: e.dK, dModel: e.dModel, divisor: fmt(e.divisor, 3),
    n: e.byHand, rest: e.summed, partial: fmt(e.partialSum, 4) });

  function givens(ctx, e) {
    const w = wordsOf(ctx, e);
    switch (e.exercise) {
      case 'dot': // the last entries of q and k, side by side: a pair a line
        return [h('table', { class: 'ex-table' },
          h('caption', {}, ctx.t('ex.given.last', w)),
          h('tr', {}, h('th', { scope: 'col' }, 't'), h('th', { scope: 'col' }, ctx.t('ex.given.q', { token: w.q })), h('th', { scope: 'col' }, ctx.t('ex.given.k', { token: w.k }))),
          Array.from(e.a, (q, k) => h('tr', {}, h('th', { scope: 'row' }, String(e.dK - e.byHand + k + 1)), h('td', {}, fmt(q, 4)), h('td', {}, fmt(e.b[k], 4)))))];
      case 'scaled':
        return [h('p', {}, ctx.t('ex.given.score', { score: fmt(e.a[0], 4) }), ' · ', ctx.t('ex.given.sizes', w))];
      case 'exp':
        return [h('p', { class: 'ex-x' }, ctx.t('ex.given.x', { x: fmt(e.a[0], 4) }))];
      case 'softmax':
        return [h('table', { class: 'ex-table' }, h('caption', {}, ctx.t('ex.given.row', { token: w.q })),
          ctx.tokens.map((token, j) => h('tr', { class: j === e.cell.col ? 'target' : undefined },
            h('th', { scope: 'row' }, token), h('td', {}, fmt(e.a[j], 4)))))];
      default: // output
        return [h('table', { class: 'ex-table' },
          h('tr', {}, h('th', { scope: 'col' }, ctx.t('ex.given.key')), h('th', { scope: 'col' }, ctx.t('ex.given.p')),
            h('th', { scope: 'col' }, ctx.t('ex.given.v', { j: e.cell.col }))),
          ctx.tokens.map((token, k) => h('tr', {}, h('th', { scope: 'row' }, token), h('td', {}, fmt(e.a[k], 4)), h('td', {}, fmt(e.b[k], 4)))))];
    }
  }

  function render(container, labContext, redraw) {
    const ctx = withWords(labContext);
    // Until the learner picks one, the default set opens on the exercise of the step on screen,
    // whose inputs the step has just drawn.
    if (!chosen) {
      const here = items.findIndex((item) => STEP_OF[item.name] === ctx.step);
      if (here >= 0 && here !== at) {
        at = here;
        feedback = null;
      }
    }
    const { name } = items[at];
    // An exercise waits until the step that computes what it asks for.
    const ready = stepAt(STEP_OF[name]) <= stepAt(ctx.step);
    const key = [ctx.view, ctx.selected, ctx.lang, at, seed, feedback, items, ready]; // an answer always brings new feedback
    if (drawnFor && key.every((v, k) => v === drawnFor[k])) return;
    drawnFor = key;
    if (!ready) {
      const step = stepLabel(ctx, name);
      morphChildren(container, h('div', {}, progress(ctx, redraw),
        h('h3', {}, ctx.t(`ex.name.${name}`)),
        h('p', { class: 'ex-waiting' }, ctx.t('ex.waiting', { k: at + 1, what: ctx.t(`ex.what.${name}`), step })),
        h('p', { class: 'ex-actions' }, h('button', { type: 'button', class: 'ex-go', onclick: () => showCell(STEP_OF[name], ctx.selected) },
          ctx.t('ex.goToStep', { step })))));
      return;
    }
    let e;
    try {
      e = ctx.view.exercise(name, cellOf(ctx, at));
    } catch (error) {
      morphChildren(container, h('div', {}, progress(ctx, redraw),
        h('p', { class: 'message error', role: 'alert' }, ctx.t('ex.cellProblem', { error: ctx.errorText(error) }))));
      return;
    }
    const input = h('input', { id: 'exercise-answer', type: 'text', inputmode: 'decimal', autocomplete: 'off', spellcheck: 'false', size: 12 });
    // The panel is morphed into the page: the box on screen may be an earlier
    // render's, so the handlers find it through the event, not through `input`.
    const submit = (event) => {
      event.preventDefault();
      check(ctx, at, e, event.currentTarget.querySelector('input').value);
      redraw();
    };
    // This answer's feedback, or its solution once shown (Show answer, or a platform's showSolutions()).
    const shown = feedback?.index === at ? feedback
      : revealed[at] && !results[at]?.correct ? { text: ctx.t('ex.revealed', { expected: fmt(e.expected, 4) }), kind: 'revealed' } : null;
    morphChildren(container, h('div', {},
      progress(ctx, redraw),
      h('h3', { dataset: { exercise: name, row: e.cell.row, col: e.cell.col } }, ctx.t(`ex.name.${name}`)),
      h('p', { class: 'ex-task' }, ctx.t(`ex.task.${name}`, wordsOf(ctx, e))),
      h('div', { class: 'ex-givens' }, givens(ctx, e)),
      h('form', { class: 'ex-form', onsubmit: submit },
        h('label', { for: 'exercise-answer' }, ctx.t('ex.answer')), ' ', input, ' ',
        h('button', { type: 'submit', class: 'ex-check' }, ctx.t('ex.check'))),
      h('p', { class: `ex-feedback ${shown?.kind ?? ''}`, role: 'status' }, shown?.text ?? ''),
      h('p', { class: 'ex-actions' },
        h('button', { type: 'button', class: 'ex-show', onclick: () => showCell(STEP_OF[name], e.cell.row) }, ctx.t('ex.show')), ' ',
        results[at]?.correct ? null : h('button', { type: 'button', class: 'ex-reveal', onclick: () => {
          revealed[at] = true;
          chosen = true;
          feedback = { index: at, text: ctx.t('ex.revealed', { expected: fmt(e.expected, 4) }), kind: 'revealed' };
          redraw();
        } }, ctx.t('ex.reveal')), ' ',
        items[at].cell ? null : h('button', { type: 'button', class: 'ex-another', onclick: (event) => { seed += items.length; feedback = null; chosen = true; emptyBox(event); redraw(); } }, ctx.t('ex.another')), ' ',
        items.length > 1 ? h('button', { type: 'button', class: 'ex-next', onclick: (event) => { at = (at + 1) % items.length; chosen = true; emptyBox(event); redraw(); } }, ctx.t('ex.next')) : null)));
  }

  // Another exercise or cell: the last answer's box is emptied.
  const emptyBox = (event) => {
    const box = event.currentTarget.closest('.exercise-panel')?.querySelector('#exercise-answer');
    if (box) box.value = '';
  };

  // "Exercise 2 of 5 · 1 right", a button per exercise (✓ right, ✗ wrong), and the score once all are answered.
  function progress(ctx, redraw) {
    const marks = items.map((item, k) => {
      const r = results[k];
      const mark = r ? (r.correct ? '✓' : '✗') : String(k + 1);
      return h('button', { type: 'button', class: `ex-dot${k === at ? ' current' : ''}${r ? (r.correct ? ' right' : ' wrong') : ''}`,
        'aria-pressed': String(k === at), 'aria-label': ctx.t('ex.goTo', { k: k + 1, name: ctx.t(`ex.name.${item.name}`) }),
        onclick: (event) => { if (at !== k) emptyBox(event); at = k; chosen = true; redraw(); } }, mark);
    });
    const done = answered() === items.length ? h('strong', { class: 'ex-score' }, ' ', ctx.t('ex.done', { right: right(), n: items.length })) : null;
    return h('p', { class: 'ex-progress' }, ctx.t('ex.progress', { k: at + 1, n: items.length, right: right() }), ' ', h('span', { class: 'ex-dots' }, marks), done);
  }

  return {
    render,
    /** A new set (the text of ?exercises=…); returns the items it ignored. */
    set(text) {
      const parsed = parseExercises(text);
      items = parsed.items;
      at = 0;
      results = items.map(() => null);
      revealed = items.map(() => false);
      feedback = null;
      chosen = parsed.given;
      return parsed.ignored;
    },
    get count() { return items.length; },
    /** Shows every exercise's solution (each then no longer counts as right if answered after). */
    revealAll() {
      revealed = items.map((_, k) => !results[k]?.correct);
      feedback = null;
      drawnFor = null;
    },
    /** Where the learner is, as plain data for a platform to keep (host/scorm.js):
     *  { at, seed, results: [per item null or [right (1/0), answer]], revealed: [item indices] }. */
    snapshot() {
      return { at, seed, results: results.map((r) => (r ? [r.correct ? 1 : 0, String(r.answer)] : null)),
        revealed: revealed.flatMap((shown, k) => (shown ? [k] : [])) };
    },
    /** Back to a snapshot of this same set; one that does not fit it is left aside (returns false). */
    restore(saved) {
      const fits = saved && Number.isInteger(saved.at) && saved.at >= 0 && saved.at < items.length && Number.isInteger(saved.seed)
        && Array.isArray(saved.results) && saved.results.length === items.length && Array.isArray(saved.revealed)
        && saved.results.every((r) => r === null || (Array.isArray(r) && (r[0] === 0 || r[0] === 1)))
        && saved.revealed.every((k) => Number.isInteger(k) && k >= 0 && k < items.length);
      if (!fits) return false;
      at = saved.at;
      seed = saved.seed;
      results = saved.results.map((r) => (r ? { correct: r[0] === 1, answer: String(r[1] ?? '').slice(0, 64) } : null));
      revealed = items.map((_, k) => saved.revealed.includes(k));
      feedback = null;
      chosen = true;
      drawnFor = null; // its marks changed: drawn again
      return true;
    },
  };
}

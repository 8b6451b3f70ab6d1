// Experiment: the article's worked example, reproduced by the core, editable, with
// the article's printed figures alongside and its errata explained.
// A chunk (experiments/classic.js loads it): what it draws with comes from the page.
import { ARTICLE_ROW, ERRATA } from './article.js';

/** The experiment's view: { render(body, ctx) }. */
export default function view({ clear, h, fmt, sig }) {
  function numberInput(value, label, onChange) {
    return h('input', { type: 'number', step: 'any', value: String(value), 'aria-label': label, class: 'num', onchange: onChange });
  }

  function table(ctx, steps, tokens, printed) {
    const head = h('tr', {}, ['experiment.token', 'experiment.raw', 'experiment.scaled', 'experiment.exp', 'experiment.prob']
      .map((k) => h('th', { scope: 'col' }, ctx.t(k))), printed ? h('th', { scope: 'col' }, ctx.t('experiment.printed')) : null);
    // Each cell says on hover how it was made from the cells before it.
    const rows = tokens.map((token, j) => h('tr', {},
      h('td', {}, token),
      h('td', {}, fmt(steps.rawScores[j])),
      h('td', { title: ctx.t('experiment.textbook.hoverScaled', { raw: fmt(steps.rawScores[j]), dK: steps.dK, value: fmt(steps.scaled[j], 4) }) }, fmt(steps.scaled[j], 4)),
      h('td', { title: ctx.t('experiment.textbook.hoverExp', { x: fmt(steps.scaled[j], 4), value: fmt(steps.exps[j], 4) }) }, fmt(steps.exps[j])),
      h('td', { dataset: { col: 'prob' }, title: ctx.t('experiment.textbook.hoverProb', { e: fmt(steps.exps[j], 4), sum: fmt(steps.expSum, 4), value: fmt(steps.probs[j], 4) }) }, fmt(steps.probs[j])),
      printed ? h('td', { class: 'printed' }, `${fmt(printed.scaled[j], 4)} · ${fmt(printed.exps[j])} · ${fmt(printed.probs[j])}`) : null));
    const foot = h('tr', {}, h('td', {}, 'Σ'), h('td', {}), h('td', {}),
      h('td', { dataset: { col: 'sum' } }, fmt(steps.expSum)), h('td', {}),
      printed ? h('td', { class: 'printed' }, fmt(printed.sum)) : null);
    return h('table', { class: 'steps experiment-table' }, h('thead', {}, head), h('tbody', {}, rows), h('tfoot', {}, foot));
  }

  function erratumCard(ctx, e) {
    if (e.show === 'text') return h('li', { dataset: { erratum: e.id } }, h('strong', {}, `${e.id}. `), ctx.t(`experiment.textbook.${e.id}`));
    const steps = ctx.compute.softmaxRow(e.scores, { dK: e.dK });
    const list = (values, digits) => `[${Array.from(values, (v) => fmt(v, digits)).join(', ')}]`;
    // Values that span many orders: near 1 to seven decimals, the rest to three significant digits.
    const exactList = (values) => `[${Array.from(values, (v) => (Math.abs(v) >= 0.5 ? fmt(v, 7) : sig(v))).join(', ')}]`;
    let printed;
    let exact;
    if (e.show === 'sum') {
      printed = fmt(e.printed.sum);
      exact = fmt(steps.expSum, 4);
    } else if (e.show === 'probs') {
      printed = list(e.printed.probs, 3);
      exact = list(steps.probs, 6);
    } else if (e.show === 'gradient') {
      const gradient = ctx.compute.crossEntropyGradient(steps.probs, 0);
      printed = ctx.t('experiment.textbook.pair', { a: list(e.printed.probs, 4), b: list(e.printed.gradient, 4) });
      exact = ctx.t('experiment.textbook.pair', { a: exactList(steps.probs), b: exactList(gradient) });
    } else {
      // Unscaled, p − one-hot with the third score as the right answer; and both rows' largest Jacobian entry,
      // compared back at q·k (the scaled path's 1/√d_k counted), as the Scaling experiment compares them.
      const unscaled = ctx.compute.softmaxRow(e.scores, { jacobian: true });
      const effect = ctx.compute.scalingEffect(e.scores, { dK: e.dK });
      const { divisor } = ctx.compute.softmaxRow(e.scores, { dK: e.dK });
      printed = list(e.printed.gradient, 4);
      exact = ctx.t('experiment.textbook.E8.exact', { gradient: exactList(ctx.compute.crossEntropyGradient(unscaled.probs, e.target)),
        unscaled: sig(effect.unscaledJacobian), scaled: sig(effect.scaledJacobian), divisor: fmt(divisor, 0),
        qk: sig(effect.scaledJacobianQk), times: sig(effect.jacobianTimes, 2) });
    }
    if (Array.isArray(e.printedText)) printed = ctx.t('experiment.textbook.pair', { a: e.printedText[0], b: e.printedText[1] });
    else if (e.printedText) printed = e.printedText; // as the article printed it
    return h('li', { dataset: { erratum: e.id } },
      h('strong', {}, `${e.id}. `), ctx.t(`experiment.textbook.${e.id}`),
      h('br'), ctx.t('experiment.textbook.printedIs', { value: printed }),
      h('br'), ctx.t('experiment.textbook.exactIs', { value: exact }));
  }

  return {
    render(body, ctx) {
      const scores = [...ARTICLE_ROW.scores];
      let dK = ARTICLE_ROW.dK;
      const result = h('div', { class: 'experiment-result' });
      const update = () => {
        clear(result);
        let steps;
        try {
          steps = { ...ctx.compute.softmaxRow(scores, { dK }), rawScores: scores, dK };
        } catch (error) {
          result.append(h('p', { class: 'message error', role: 'alert' }, ctx.errorText(error)));
          return;
        }
        const isArticle = dK === ARTICLE_ROW.dK && scores.every((s, j) => s === ARTICLE_ROW.scores[j]);
        result.append(table(ctx, steps, ARTICLE_ROW.tokens, isArticle ? ARTICLE_ROW.printed : null));
        result.append(h('p', { class: 'note' }, isArticle ? ctx.t('experiment.textbook.sumNote', { exact: fmt(steps.expSum, 4) }) : ctx.t('experiment.textbook.edited')));
      };
      const inputs = scores.map((s, j) => h('label', { class: 'score-input' }, ARTICLE_ROW.tokens[j],
        numberInput(s, ARTICLE_ROW.tokens[j], (event) => { scores[j] = Number(event.target.value); update(); })));
      const dkInput = h('label', { class: 'score-input' }, 'd_k', numberInput(dK, 'd_k', (event) => { dK = Number(event.target.value); update(); }));
      body.append(
        h('p', { class: 'explain' }, ctx.t('experiment.textbook.explain')),
        h('div', { class: 'score-inputs' }, inputs, dkInput),
        result,
        ...[['figure', 'errata'], ['inconsistency', 'inconsistent'], ['reasoning', 'reasoning']].flatMap(([kind, title]) => [
          h('h3', {}, ctx.t(`experiment.textbook.${title}`)),
          h('ul', { class: 'errata', dataset: { kind } }, ERRATA.filter((e) => e.kind === kind).map((e) => erratumCard(ctx, e)))]),
      );
      update();
    },
  };
}

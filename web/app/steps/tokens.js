// Step 1: the sentence as tokens, each with its vocabulary id. With a trained
// model a click hides a character behind [MASK] (or brings it back), and the
// model guesses it (guess-panel.js).
import { h, live, sleep } from '../ui/dom.js';
import { canHide, MASK } from '../heads/masking.js';

function chipAction(ctx, token, i) {
  if (!ctx.trained) return {};
  if (token === MASK) return { title: ctx.t('step.tokens.unhide'), onclick: () => ctx.unhide(i) };
  if (canHide(ctx.view, i)) return { title: ctx.t('step.tokens.hide', { token }), onclick: () => ctx.hide(i) };
  return {};
}

/** The first token typed in a form the vocabulary aliases (a traditional character): { typed, form }, or null. */
function firstAlias(ctx) {
  const i = ctx.forms.findIndex((form, k) => form !== ctx.tokens[k]);
  return i < 0 ? null : { typed: ctx.tokens[i], form: ctx.forms[i] };
}

export default {
  id: 'tokens',
  label: (t) => t('step.tokens.label'),
  inFormula: false, // its part of the formula is marked (index.html: data-step)
  panelColumn: 'key', // the side panel shows only the keys: the row's numbers come from Q·Kᵀ on
  matrices: [], // the core stages it shows, and exports
  title: (ctx) => ctx.t('step.tokens.title'),
  explain: (ctx) => {
    const alias = firstAlias(ctx);
    return `${ctx.t('step.tokens.explain', { n: ctx.n })}${alias ? ctx.t('step.tokens.explainAlias', alias) : ''}`
      + `${ctx.trained ? ctx.t('step.tokens.explainHide') : ''}`;
  },
  // The article's numbers beside this model's: one line under the explanation, on a trained model.
  note: (ctx) => (ctx.trained ? ctx.t('step.tokens.article', { layers: ctx.layers, heads: ctx.heads, dK: ctx.config.dK }) : ''),
  async render(body, ctx) {
    const chips = ctx.tokens.map((token, i) => {
      const { title, onclick } = chipAction(ctx, token, i);
      const unknown = token === '[UNK]';
      const form = ctx.forms[i];
      const id = form === token ? ctx.t('step.tokens.chip', { i, id: ctx.ids[i] }) : ctx.t('step.tokens.chipAlias', { i, id: ctx.ids[i], form });
      const content = [h('span', { class: 'text' }, token), h('span', { class: 'id' }, id)];
      return h('li', {
        class: `chip big${i === ctx.selected ? ' selected-token' : ''}${unknown ? ' unk' : ''}${token === MASK ? ' masked-token' : ''}`,
        dataset: { i },
        title: unknown ? ctx.t('page.unk') : undefined,
      }, onclick ? h('button', { type: 'button', class: 'chip-hide', title, onclick }, content) : content);
    });
    const list = h('ol', { class: 'chips token-step' }, chips);
    body.append(list);
    if (ctx.animate) {
      chips.forEach((c) => c.classList.add('pending'));
      for (const c of chips.slice(0, 64)) {
        await sleep(50);
        live(c).classList.remove('pending');
      }
      chips.forEach((c) => live(c).classList.remove('pending'));
    }
    return [];
  },
};

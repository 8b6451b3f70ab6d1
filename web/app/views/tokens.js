// Step 1: the sentence as tokens, each with its vocabulary id.
import { h, live, sleep } from '../dom.js';
import { t } from '../i18n.js';

export default {
  id: 'tokens',
  label: () => t('step.tokens.label'),
  inFormula: false, // its part of the formula is marked (index.html: data-step)
  matrices: [], // the core stages it shows, and exports
  title: () => t('step.tokens.title'),
  explain: (ctx) => t('step.tokens.explain', { n: ctx.n }),
  async render(body, ctx) {
    const chips = ctx.tokens.map((token, i) => h('li', {
      class: `chip big${i === ctx.selected ? ' selected-token' : ''}`,
      dataset: { i },
    }, h('span', { class: 'text' }, token), h('span', { class: 'id' }, t('step.tokens.chip', { i, id: ctx.ids[i] }))));
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

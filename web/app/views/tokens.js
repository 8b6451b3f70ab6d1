// Stage 1: the sentence as tokens, each with its vocabulary id.
import { h, sleep } from '../dom.js';

export default {
  id: 'tokens',
  label: 'Tokens',
  formulaPart: null,
  title: () => 'Tokens',
  explain: (ctx) => `The sentence becomes ${ctx.n} tokens. [CLS] opens it and [SEP] closes it; every Chinese character is a token of its own, and each English word or punctuation mark is one too. Each token gets a number, its id in the vocabulary.`,
  async render(body, ctx) {
    const chips = ctx.tokens.map((token, i) => h('li', {
      class: `chip big${i === ctx.selected ? ' selected-token' : ''}`,
      dataset: { i },
    }, h('span', { class: 'text' }, token), h('span', { class: 'id' }, `#${i} · id ${ctx.ids[i]}`)));
    const list = h('ol', { class: 'chips token-stage' }, chips);
    body.append(list);
    if (ctx.animate) {
      chips.forEach((c) => c.classList.add('pending'));
      for (const c of chips.slice(0, 64)) {
        await sleep(50);
        c.classList.remove('pending');
      }
      chips.forEach((c) => c.classList.remove('pending'));
    }
    return [];
  },
};

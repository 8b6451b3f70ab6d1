// The Code switch's view (a chunk of its own, loaded when the switch is first turned on): for the
// step shown, the article's PyTorch for it, the core's reference C++ (taken from cpp/src/stages.cpp
// and ops.hpp at build time: web/generated/code/stages.js), and this run's shapes and first values, from the
// run view. The page's own helpers come in from steps/code-panel.js.
import { CORE_CODE } from '../../generated/code/stages.js';
import { CODE_WORDS } from '../../generated/words/code.js';

// The article's code for each step, as it prints it (its single-head class and its ×V example).
const ARTICLE = Object.freeze({
  qkv: ['self.W_Q = nn.Linear(hidden_size, hidden_size)', '...', 'Q = self.W_Q(x)  # [B, L, 768]', 'K = self.W_K(x)  # [B, L, 768]', 'V = self.W_V(x)  # [B, L, 768]'],
  scores: ['scores = torch.matmul(Q, K.transpose(-2, -1))  # [B, L, L]'],
  scaled: ['self.d_k = hidden_size', '...', 'scores = scores / math.sqrt(self.d_k)'],
  softmax: ['attention_weights = torch.softmax(scores, dim=-1)  # [B, L, L]', '', 'def softmax(x):', '    e_x = np.exp(x - np.max(x))', '    return e_x / e_x.sum()'],
  'weighted-sum': ['output = torch.matmul(attention_weights, V)  # [B, L, 768]'],
  output: ['attn_output = torch.matmul(attention_weights, V)', 'print(attn_output.shape)  # torch.Size([1, 9, 768])', 'print(attn_output[0, 1, :5])'],
});
// The core's reference function(s) for each step; the steps it computes elsewhere.
const CORE = Object.freeze({ embedding: ['positional_encoding'], qkv: ['project'], scores: ['attention_scores'], scaled: ['scale_scores', 'causal_mask'],
  softmax: ['softmax_rows', 'softmax_rows_in_place'], 'weighted-sum': ['weighted_sum'], output: ['weighted_sum'] });
// (The trained model's vocabulary tokenizes; the seeded head's run uses the plain tokenizer.)
const elsewhere = (id, trained) => ({ tokens: trained ? ['Vocabulary::tokenize', 'cpp/src/vocabulary.cpp'] : ['tokenize', 'cpp/src/tokenizer.cpp'],
  concat: trained ? ['encode', 'cpp/src/encoder.cpp'] : null })[id] ?? null;
// Where the run called the reference function itself rather than the SIMD kernels: the positions
// (both models), and the trained model's ÷√d_k (encoder_trace.cpp: scale_scores; no causal mask).
const calledItself = (id, trained) => id === 'embedding' || (id === 'scaled' && trained);
const FIRST = 4; // values shown from row 0

/** deps: { h, fmt, translator }. Returns { render(container, ctx, step) }: step is the shown step ({ id, matrices }). */
export function createCodeView({ h, fmt, translator }) {
  return {
    render(container, ctx, step) {
      const t = translator(CODE_WORDS[ctx.lang] ?? CODE_WORDS.en);
      const parts = [];
      const article = ARTICLE[step.id];
      parts.push(h('h3', {}, t('code.article')),
        article ? h('pre', { class: 'code python', dataset: { lang: 'python' } }, h('code', {}, article.join('\n'))) : h('p', { class: 'note' }, t('code.articleNone')));
      for (const name of CORE[step.id] ?? []) {
        parts.push(h('h3', {}, t('code.core', { name: `${name}()`, file: CORE_CODE[name].file })),
          h('pre', { class: 'code cpp', dataset: { lang: 'cpp', function: name } }, h('code', {}, CORE_CODE[name].source)));
      }
      const other = elsewhere(step.id, ctx.trained);
      if (other) parts.push(h('p', { class: 'note' }, t('code.coreElsewhere', { name: other[0], file: other[1] })));
      if (CORE[step.id]) parts.push(h('p', { class: 'note' }, t(calledItself(step.id, ctx.trained) ? 'code.same' : 'code.kernels')));
      if (step.id === 'scaled' && ctx.trained) parts.push(h('p', { class: 'note' }, t('code.noMask')));
      // This run's shapes and the selected row's first values, as the step shows them: a layer's own
      // stages through the head's view (a trained model's only), the embedding step's x layer 1's input.
      const i = ctx.selected;
      const rows = (step.id === 'concat' && !ctx.trained ? [] : step.matrices ?? []).map((id) => {
        const m = (step.id === 'embedding' ? ctx.viewOf({ layer: 0, head: 0 }) : ctx.view).stage(id);
        const values = Array.from(m.data.subarray(i * m.cols, i * m.cols + Math.min(FIRST, m.cols)), (v) => fmt(v, 3)).join(', ');
        return h('li', { dataset: { stage: id } }, t('code.shape', { stage: id, rows: m.rows, cols: m.cols, i, token: ctx.tokens[i],
          values: m.cols > FIRST ? `${values}, …` : values }));
      });
      if (rows.length) parts.push(h('h3', {}, t('code.live')), h('ul', { class: 'code-live' }, rows));
      if (article?.some((line) => line.includes('[B, L'))) parts.push(h('p', { class: 'note' }, t('code.pytorchShapes', { n: ctx.n, dk: ctx.config.dK })));
      container.replaceChildren(...parts);
    },
  };
}

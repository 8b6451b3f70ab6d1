// The words of the lens experiment (experiments/lens-view.js), in English and
// Chinese: a chunk with the view, loaded when it opens. Every list is the
// core's (core.predictMasked at each depth), and so is the hidden text's place
// in it (core.rankAnswers: whether it is among the five, and its number).
export const LENS_EN = Object.freeze({
  'lens.explain': 'The prediction layer turns the row that the last layer leaves at a [MASK] into the model’s guess: that row times every token’s embedding, plus a bias, through softmax over the whole vocabulary. Here the same layer also reads the row at that position after the embeddings and after each layer, and shows what it would guess there. After the embeddings the row is only the [MASK]’s embedding plus its position, normalised (LayerNorm): that list is the same in any sentence with a [MASK] at that place. This is the “logit lens” (nostalgebraist, 2020). The prediction layer was trained on the last layer’s rows only: an earlier list shows what the row already points to at that depth, not what a model with fewer layers would answer. Where every probability is small and the words look random, the prediction layer finds nothing it can read in that row, though the later layers may still turn it into the guess.',
  'lens.hiding': '“{token}” hidden: the prediction layer’s guesses at each depth',
  'lens.masked': '[MASK] {m}: the prediction layer’s guesses at each depth',
  'lens.sentence': 'The sentence the model reads: {sentence}',
  'lens.embeddings': 'After the embeddings',
  'lens.layer': 'After layer {layer}',
  'lens.last': 'After layer {layer}: the model’s guess',
  'lens.answerTitle': '{token}: the hidden text',
  'lens.answerAside': ' (the hidden text)',
  'lens.rank': '“{text}” is guess number {rank} of {candidates} here (probability {p})',
  'lens.cannot': '“{token}” cannot be hidden: only a character or the start of a word can. Click another token.',
  'lens.knocked': 'Heads knocked out in the lab stay out at every depth: {heads}.',
});

export const LENS_ZH = Object.freeze({
  'lens.explain': '预测层把最后一层在 [MASK] 处留下的那一行变成模型的猜测：用这一行去乘每个词元的嵌入，加上偏置，再对整个词表做 softmax。这里让同一个预测层也去读嵌入之后、每一层之后同一位置上的行，看它在那里会猜什么。嵌入之后的那一行只是 [MASK] 的嵌入加上位置、再做归一化（LayerNorm），所以只要 [MASK] 在同一个位置，那一组猜测在任何句子里都一样。这就是“logit lens”（nostalgebraist，2020）。预测层只在最后一层的行上训练过：较浅深度的那组猜测说明这一行在那个深度已经指向什么，并不是层数更少的模型会给出的回答。如果所有概率都很小、列出的字词看上去毫无关联，说明预测层在那一行里读不出什么，但后面的层仍可能把它变成最后的猜测。',
  'lens.hiding': '遮住“{token}”：预测层在每个深度的猜测',
  'lens.masked': '[MASK] {m}：预测层在每个深度的猜测',
  'lens.sentence': '模型读到的句子：{sentence}',
  'lens.embeddings': '嵌入之后',
  'lens.layer': '第 {layer} 层之后',
  'lens.last': '第 {layer} 层之后：模型的猜测',
  'lens.answerTitle': '{token}：被遮住的内容',
  'lens.answerAside': '（被遮住的内容）',
  'lens.rank': '“{text}”在这里排第 {rank} 位（共 {candidates} 个，概率 {p}）',
  'lens.cannot': '“{token}”不能遮住：只有汉字或一个词的开头可以遮住。请点另一个词元。',
  'lens.knocked': '在实验室里关闭的头在每个深度也都关闭着：{heads}。',
});

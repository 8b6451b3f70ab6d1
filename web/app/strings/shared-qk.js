// The words of the Q/K experiment (experiments/shared-qk-view.js), in English
// and Chinese: a chunk with the view, loaded when it opens. Whether a head gets
// qk.oneWay.next / previous is the core's decision (trace.qkSymmetry's oneWay).
export const SHARED_QK_EN = Object.freeze({
  'qk.explain': 'Why are queries and keys two matrices, W_q and W_k? With one matrix for both, q_i · k_j = q_j · k_i: every score matrix Q·Kᵀ is symmetric, so the score 喜 gives 欢 is the score 欢 gives 喜. The weights need not be equal: softmax normalises each row on its own, so one score can be a large share of one row and a small share of another. But a head can no longer raise the score one way without raising it the other way, and a token’s score with itself, |q_i|², is at least its score with any key no longer than its own query (q_i · q_j ≤ |q_i| · |q_j|). With one matrix, a head that looks at the next token and not back needs row i + 1 to give some other key a higher score than token i, because score(i → i + 1) = score(i + 1 → i).',
  'qk.shippedTitle': 'The lab’s model on your sentence',
  'qk.shippedExplain': 'How symmetric each head’s Q·Kᵀ is on “{sentence}”: the symmetric part (S + Sᵀ)/2’s share of the scores’ sum of squares, once each row’s offset (which no softmax sees) and each key’s offset (a key every query looks at, such as [SEP]) are taken out. 1 would be one matrix; about 0.5, the score i gives j and the score j gives i are unrelated. The weight on itself is averaged over the real tokens as queries, [CLS] and [SEP] left out, as in “What each head does”.',
  'qk.layer': 'layer',
  'qk.head': 'head',
  'qk.label': 'what it does',
  'qk.symmetric': 'how symmetric',
  'qk.self': 'weight on itself (mean over the real tokens)',
  'qk.oneWay.next': 'Layer {layer}, head {head} looks at the next token ({share} of its weight), although its scores are mostly symmetric ({symmetric}). The part that is not symmetric holds {anti} of the scores’ sum of squares; a difference of Δ between two scores in the same row becomes, after ÷√d_k, a factor e^(Δ/√d_k) between their weights, and softmax normalises each row on its own: together they can pick one direction.',
  'qk.oneWay.previous': 'Layer {layer}, head {head} looks at the previous token ({share} of its weight), although its scores are mostly symmetric ({symmetric}). The part that is not symmetric holds {anti} of the scores’ sum of squares; a difference of Δ between two scores in the same row becomes, after ÷√d_k, a factor e^(Δ/√d_k) between their weights, and softmax normalises each row on its own: together they can pick one direction.',
  'qk.trainTitle': 'Train the two side by side',
  'qk.trainExplain': '“Run the Q/K experiment” below trains two models on the same text with the same seed, one with W_q and W_k apart and one with a single matrix for both, and compares them: held-out loss, how symmetric their scores are, how much weight stays on each token itself, and their heads on your sentence.',
});

export const SHARED_QK_ZH = Object.freeze({
  'qk.explain': '查询和键为什么要用两个矩阵 W_q 和 W_k？如果共用一个矩阵，q_i · k_j = q_j · k_i：每个分数矩阵 Q·Kᵀ 都是对称的，“喜”给“欢”的分数就是“欢”给“喜”的分数。权重却不一定相等：softmax 对每一行分别归一化，同一个分数可以在这一行里占很大份额，在另一行里只占很小的份额。但一个头再也不能只提高一个方向的分数而不提高另一个方向的；而且一个词元与自己的分数 |q_i|² 不会小于它与任何一个键的分数，只要那个键不比它自己的查询长（q_i · q_j ≤ |q_i| · |q_j|）。共用一个矩阵时，一个只看后一个词元、不回看的头，需要第 i + 1 行给另一个键比词元 i 更高的分数，因为分数(i → i + 1) = 分数(i + 1 → i)。',
  'qk.shippedTitle': '实验室的模型在你的句子上',
  'qk.shippedExplain': '每个头的 Q·Kᵀ 在“{sentence}”上有多对称：先去掉每一行的偏移（softmax 看不到它）和每个键的偏移（每个查询都看的键，比如 [SEP]），再看对称部分 (S + Sᵀ)/2 的平方和占全部分数平方和的比例。共用一个矩阵时为 1；约 0.5 表示 i 给 j 的分数和 j 给 i 的分数毫无关系。“留给自己的权重”只把真实的词元当作查询来取平均，不算 [CLS] 和 [SEP]，与“每个头在做什么”里的一样。',
  'qk.layer': '层',
  'qk.head': '头',
  'qk.label': '它做什么',
  'qk.symmetric': '对称程度',
  'qk.self': '留给自己的权重（真实词元的平均）',
  'qk.oneWay.next': '第 {layer} 层的第 {head} 个头看后一个词元（占它权重的 {share}），可它的分数大部分是对称的（{symmetric}）。不对称的那部分占分数平方和的 {anti}；同一行里两个分数相差 Δ，除以 √d_k 之后，两者权重之比就是 e^(Δ/√d_k)，而且 softmax 对每一行分别归一化：两者合起来，就可能定出一个方向。',
  'qk.oneWay.previous': '第 {layer} 层的第 {head} 个头看前一个词元（占它权重的 {share}），可它的分数大部分是对称的（{symmetric}）。不对称的那部分占分数平方和的 {anti}；同一行里两个分数相差 Δ，除以 √d_k 之后，两者权重之比就是 e^(Δ/√d_k)，而且 softmax 对每一行分别归一化：两者合起来，就可能定出一个方向。',
  'qk.trainTitle': '并排训练两个模型',
  'qk.trainExplain': '下面的“运行 Q/K 对照实验”用同样的文本和种子训练两个模型，一个 W_q 和 W_k 分开，一个两者共用一个矩阵，然后比较：留出句子上的损失、分数有多对称、每个词元留给自己多少权重，以及它们在你的句子上的各个头。',
});

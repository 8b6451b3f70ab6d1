// The words of the rollout experiment (experiments/rollout-view.js), in English
// and Chinese: a chunk with the view, loaded when it opens. Which of
// rollout.lastSelf / lastOther, throughSelf / throughOther and whether
// rollout.differ is said are the core's decisions (trace.rolloutRow).
export const ROLLOUT_EN = Object.freeze({
  'rollout.explain': 'Attention rollout (Abnar & Zuidema, 2020) estimates how much of each input token ends up in each output after all the layers. It is a heuristic built from the attention weights alone: each layer’s weights are averaged over its heads, and the residual connection is assumed to carry half of each token past the layer, Ã = ½ · mean of the heads’ A + ½ · I; the layers’ Ã are then multiplied, the last on the left: R = {product}. The ½ is the authors’ assumption, not a measurement, and rollout leaves out the values V, W_O, the feed-forward blocks and LayerNorm, all of which this model has (with LayerNorm after each residual, no token passes a layer unchanged). Row i of R is rollout’s estimate of how much of each input token reaches output i; each row adds up to 1.',
  'rollout.explainOne': 'Attention rollout (a heuristic; Abnar & Zuidema, 2020) estimates from the attention weights alone how much of each input token ends up in each output, assuming that the residual connection carries half of each token past a layer. This model has one layer of one head: its rollout is ½ · A + ½ · I. The trained model, with two layers, shows what multiplying the layers adds.',
  'rollout.rolloutTitle': 'Rollout through every layer: R',
  'rollout.lastTitle': 'The last layer alone, heads averaged',
  'rollout.rowTitle': 'Row “{token}”',
  'rollout.key': 'input token',
  'rollout.last': 'last layer',
  'rollout.rollout': 'rollout',
  'rollout.lastOther': 'In the last layer (its heads averaged), “{token}”’s largest share goes to “{top}” ({share}); its own is {self}.',
  'rollout.lastSelf': 'In the last layer (its heads averaged), “{token}”’s largest share stays on itself ({self}); among the others, “{top}” gets the most ({share}).',
  'rollout.throughSelf': 'By rollout’s estimate, the largest part of output “{token}” is “{token}” itself ({self}), in part because rollout assumes that the residual carries half of each token past every layer; among the others, “{top}” gives the most ({share}).',
  'rollout.throughOther': 'By rollout’s estimate, the largest part of output “{token}” comes from “{top}” ({share}), more than from “{token}” itself ({self}).',
  'rollout.differ': 'Among the others the two disagree: in the last layer alone “{token}” gives the most to “{lastTop}”, while rollout credits “{rolloutTop}” with the most through every layer: by its account, the layers before had already mixed “{rolloutTop}” into the tokens the last layer takes in.',
  'rollout.byWords': 'The two maps are between your words, by the rule every view uses: to a word, the sum over its tokens; from a word, the mean over its tokens. The row below stays by tokens.',
  'rollout.knocked': 'Knocked-out heads are left out of their layer’s average (heads averaged, layer by layer: {counts}).',
});

export const ROLLOUT_ZH = Object.freeze({
  'rollout.explain': '注意力展开（attention rollout，Abnar 与 Zuidema，2020）估计经过所有层之后，每个输入词元有多少进入了每个输出。它是一种仅用注意力权重的启发式方法：每层的注意力先对各个头取平均，再假设残差连接把每个词元的一半带过这一层，Ã = ½ · 各头 A 的平均 + ½ · I；然后把各层的 Ã 相乘，最后一层在最左边：R = {product}。这个 ½ 是作者的假设，不是测量结果；展开也没有计入值向量 V、W_O、前馈层和 LayerNorm，而这个模型都有（每个残差之后都有 LayerNorm，没有哪个词元能原封不动地穿过一层）。R 的第 i 行是展开对“每个输入词元有多少到达输出 i”的估计；每一行加起来都是 1。',
  'rollout.explainOne': '注意力展开（一种启发式方法；Abnar 与 Zuidema，2020）仅用注意力权重来估计每个输入词元有多少进入了每个输出，并假设残差连接把每个词元的一半带过这一层。这个模型只有一层、一个头：它的展开就是 ½ · A + ½ · I。训练好的模型有两层，能看出把各层相乘多告诉了我们什么。',
  'rollout.rolloutTitle': '经过所有层的展开：R',
  'rollout.lastTitle': '只看最后一层，各头取平均',
  'rollout.rowTitle': '“{token}”这一行',
  'rollout.key': '输入词元',
  'rollout.last': '最后一层',
  'rollout.rollout': '展开',
  'rollout.lastOther': '在最后一层（各头取平均），“{token}”给得最多的是“{top}”（{share}）；留给自己的是 {self}。',
  'rollout.lastSelf': '在最后一层（各头取平均），“{token}”留给自己的份额最大（{self}）；在其他词元里，“{top}”得到的最多（{share}）。',
  'rollout.throughSelf': '按展开的估计，输出“{token}”里最大的一部分是“{token}”自己（{self}），部分原因是展开假设每一层的残差都把每个词元的一半带过去；在其他词元里，来自“{top}”的最多（{share}）。',
  'rollout.throughOther': '按展开的估计，输出“{token}”里最大的一部分来自“{top}”（{share}），比来自“{token}”自己的（{self}）还多。',
  'rollout.differ': '在其他词元里，两者并不一致：只看最后一层，“{token}”给得最多的是“{lastTop}”；而按展开的估计，经过所有层后来自“{rolloutTop}”的最多：照它的算法，前面的层早已把“{rolloutTop}”混进了最后一层所接收的词元里。',
  'rollout.byWords': '上面两张图按你的词显示，规则与各处相同：给一个词的是它各词元之和，一个词发出的是它各词元的平均。下面这一行仍按词元。',
  'rollout.knocked': '被关闭的头不计入所在层的平均（每层参与平均的头数：{counts}）。',
});

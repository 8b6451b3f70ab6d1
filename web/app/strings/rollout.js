// The words of the rollout experiment (experiments/rollout-view.js), in English
// and Chinese: a chunk with the view, loaded when it opens. Which of
// rollout.lastSelf / lastOther, throughSelf / throughOther and whether
// rollout.differ is said are the core's decisions (trace.rolloutRow).
export const ROLLOUT_EN = Object.freeze({
  'rollout.explain': 'Attention rollout (Abnar & Zuidema, 2020) follows every input token through all the layers and says how much of it ends up in each output, counting both the attention and the residual connection, which carries every token past each layer unchanged. Each layer’s attention is averaged over its heads and mixed half and half with the identity, Ã = ½ · mean of the heads’ A + ½ · I, and the layers are multiplied, the last on the left: R = {product}. Row i of R is how much of each input token reaches output i through every layer; each row adds up to 1.',
  'rollout.explainOne': 'Attention rollout says how much of each input token ends up in each output, counting both the attention and the residual connection that carries every token past a layer. This model has one layer of one head: its rollout is ½ · A + ½ · I. The trained model, with two layers, shows what rollout adds.',
  'rollout.rolloutTitle': 'Rollout through every layer: R',
  'rollout.lastTitle': 'The last layer alone, heads averaged',
  'rollout.rowTitle': 'Row {token}',
  'rollout.key': 'input token',
  'rollout.last': 'last layer',
  'rollout.rollout': 'rollout',
  'rollout.lastOther': 'In the last layer (its heads averaged), {token}’s largest share goes to {top} ({share}); its own is {self}.',
  'rollout.lastSelf': 'In the last layer (its heads averaged), {token}’s largest share stays on itself ({self}); among the others, {top} gets the most ({share}).',
  'rollout.throughSelf': 'Through every layer, the largest part of output {token} is {token} itself ({self}): at each layer the residual carries half of it past; among the others, {top} gives the most ({share}).',
  'rollout.throughOther': 'Through every layer, the largest part of output {token} comes from {top} ({share}), more than from {token} itself ({self}).',
  'rollout.differ': 'Among the others the two disagree: in the last layer alone {token} gives the most to {lastTop}, through every layer the most comes from {rolloutTop}. The earlier layers had already mixed {rolloutTop} into the tokens the last layer takes in.',
  'rollout.byWords': 'The two maps are between your words, by the rule every view uses: to a word, the sum over its tokens; from a word, the mean over its tokens. The row below stays by tokens.',
  'rollout.knocked': 'Knocked-out heads are left out of their layer’s average (heads averaged, layer by layer: {counts}).',
});

export const ROLLOUT_ZH = Object.freeze({
  'rollout.explain': '注意力展开（attention rollout，Abnar 与 Zuidema，2020）跟着每个输入词元穿过所有层，算出它最后有多少进入了每个输出；注意力和残差连接都算在内，残差连接把每个词元原封不动地带过每一层。具体做法：每层的注意力先对各个头取平均，再与单位矩阵各占一半，Ã = ½ · 各头 A 的平均 + ½ · I；然后把各层相乘，最后一层在最左边：R = {product}。R 的第 i 行表示经过所有层之后，每个输入词元有多少到达了输出 i；每一行加起来都是 1。',
  'rollout.explainOne': '注意力展开（attention rollout）算的是每个输入词元最后有多少进入了每个输出，注意力和把词元带过这一层的残差连接都算在内。这个模型只有一层、一个头：它的展开就是 ½ · A + ½ · I。训练好的模型有两层，能看出展开多告诉了我们什么。',
  'rollout.rolloutTitle': '经过所有层的展开：R',
  'rollout.lastTitle': '只看最后一层，各头取平均',
  'rollout.rowTitle': '第 {token} 行',
  'rollout.key': '输入词元',
  'rollout.last': '最后一层',
  'rollout.rollout': '展开',
  'rollout.lastOther': '在最后一层（各头取平均），{token} 给得最多的是 {top}（{share}）；留给自己的是 {self}。',
  'rollout.lastSelf': '在最后一层（各头取平均），{token} 留给自己的份额最大（{self}）；在其他词元里，{top} 得到的最多（{share}）。',
  'rollout.throughSelf': '经过所有层之后，输出 {token} 里最大的一部分是 {token} 自己（{self}）：每一层的残差都把它的一半原样带过去；在其他词元里，来自 {top} 的最多（{share}）。',
  'rollout.throughOther': '经过所有层之后，输出 {token} 里最大的一部分来自 {top}（{share}），比来自 {token} 自己的（{self}）还多。',
  'rollout.differ': '在其他词元里，两者并不一致：只看最后一层，{token} 给得最多的是 {lastTop}；经过所有层，来自 {rolloutTop} 的最多。这是因为前面的层早已把 {rolloutTop} 混进了最后一层所接收的词元里。',
  'rollout.byWords': '上面两张图按你的词显示，规则与各处相同：给一个词的是它各词元之和，一个词发出的是它各词元的平均。下面这一行仍按词元。',
  'rollout.knocked': '被关闭的头不计入所在层的平均（每层参与平均的头数：{counts}）。',
});

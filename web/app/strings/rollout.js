// The words of the rollout experiment (experiments/rollout-view.js), in English
// and Chinese: a chunk with the view, loaded when it opens.
export const ROLLOUT_EN = Object.freeze({
  'rollout.explain': 'Each layer mixes the tokens by its attention, but the residual connection also carries every token past the layer unchanged. Attention rollout (Abnar & Zuidema, 2020) counts both: each layer’s attention is averaged over its heads and mixed half and half with the identity, Ã = ½ · mean of the heads’ A + ½ · I, and the layers are multiplied, the last on the left: R = {product}. Row i of R is how much of each input token reaches output i through every layer; each row adds up to 1.',
  'rollout.explainOne': 'This model has one layer of one head: its rollout is ½ · A + ½ · I, the attention and the residual that carries each token past it. The trained model, with two layers, shows what rollout adds.',
  'rollout.rolloutTitle': 'Rollout through every layer: R',
  'rollout.lastTitle': 'The last layer alone, heads averaged',
  'rollout.rowTitle': 'Row {token}',
  'rollout.key': 'input token',
  'rollout.last': 'last layer',
  'rollout.rollout': 'rollout',
  'rollout.same': 'In the last layer {token} gives its largest share, after itself, to {top} ({last}); through every layer the most of it also comes from {top} ({rollout}).',
  'rollout.differ': 'In the last layer {token} gives its largest share, after itself, to {lastTop} ({last}); through every layer the most of it comes from {rolloutTop} ({rollout}): the earlier layers had already moved that token into what the last layer looks at.',
  'rollout.self': 'Through every layer, {self} of output {token} is still {token} itself (the residual’s half at each layer), against {lastSelf} in the last layer’s attention.',
  'rollout.byWords': 'The two maps are between your words, by the rule every view uses: to a word, the sum over its tokens; from a word, the mean over its tokens. The row below stays by tokens.',
  'rollout.knocked': 'Knocked-out heads are left out of their layer’s average (heads averaged, layer by layer: {counts}).',
});

export const ROLLOUT_ZH = Object.freeze({
  'rollout.explain': '每一层用注意力把词元混合起来，但残差连接也把每个词元原封不动地带过这一层。注意力展开（attention rollout，Abnar 与 Zuidema，2020）把两者都算上：每层的注意力先对各个头取平均，再与单位矩阵各占一半，Ã = ½ · 各头 A 的平均 + ½ · I；然后把各层相乘，最后一层在最左边：R = {product}。R 的第 i 行表示经过所有层之后，每个输入词元有多少到达了输出 i；每一行加起来都是 1。',
  'rollout.explainOne': '这个模型只有一层、一个头：它的展开就是 ½ · A + ½ · I，即注意力加上把每个词元带过这一层的残差。训练好的模型有两层，能看出展开多告诉了我们什么。',
  'rollout.rolloutTitle': '经过所有层的展开：R',
  'rollout.lastTitle': '只看最后一层，各头取平均',
  'rollout.rowTitle': '第 {token} 行',
  'rollout.key': '输入词元',
  'rollout.last': '最后一层',
  'rollout.rollout': '展开',
  'rollout.same': '在最后一层，{token} 除了自己之外给 {top} 的份额最大（{last}）；经过所有层之后，来自 {top} 的也最多（{rollout}）。',
  'rollout.differ': '在最后一层，{token} 除了自己之外给 {lastTop} 的份额最大（{last}）；经过所有层之后，来自 {rolloutTop} 的最多（{rollout}）：前面的层早已把那个词元混进了最后一层所看的东西里。',
  'rollout.self': '经过所有层之后，输出 {token} 里仍有 {self} 是 {token} 自己（每一层残差各占一半），而在最后一层的注意力里只有 {lastSelf}。',
  'rollout.byWords': '上面两张图按你的词显示，规则与各处相同：给一个词的是它各词元之和，一个词发出的是它各词元的平均。下面这一行仍按词元。',
  'rollout.knocked': '被关闭的头不计入所在层的平均（每层参与平均的头数：{counts}）。',
});

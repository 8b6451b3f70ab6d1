// The words of the Code switch (steps/code-view.js), in English and Chinese: a chunk with the
// view, loaded when it first opens. The code shown is the article's PyTorch, as it prints it, and
// the core's C++, taken from cpp/src/stages.cpp at build time (scripts/core-code.mjs).
export const CODE_EN = Object.freeze({
  'code.article': 'The article’s code for this step',
  'code.articleNone': 'The article shows no code for this step.',
  'code.core': 'The core’s C++: {name} in {file}',
  'code.coreElsewhere': 'The core computes this step in {name} ({file}), too long to show here.',
  'code.kernels': 'This reference is what the tests hold the page’s numbers to: the run itself computed them with the core’s SIMD kernels (cpp/src/kernels.cpp), which the tests find equal to it within float rounding.',
  'code.same': 'The run called this very function: the numbers on the page are its output.',
  'code.noMask': 'This model has no causal mask, so the masked scores are just the scaled scores.',
  'code.live': 'This run',
  'code.shape': '{stage}: {rows} × {cols}; row {i} ({token}) begins {values}',
  'code.pytorchShapes': 'The article’s shapes are PyTorch’s: [B, L, 768] is a batch of B sentences of L tokens, 768 wide; here B = 1, L = {n} and the head is {dk} wide.',
});

export const CODE_ZH = Object.freeze({
  'code.article': '文章里这一步的代码',
  'code.articleNone': '文章没有给出这一步的代码。',
  'code.core': '核心的 C++：{file} 里的 {name}',
  'code.coreElsewhere': '核心在 {file} 的 {name} 里计算这一步，代码太长，这里不列出。',
  'code.kernels': '测试用这段参考代码来核对页面上的数：这次运行本身是用 cpp/src/kernels.cpp 里的 SIMD 快速版本算的，测试确认两者在浮点舍入误差之内一致。',
  'code.same': '这次运行调用的就是这个函数：页面上的数就是它的输出。',
  'code.noMask': '这个模型没有因果掩码：masked 就是 scaled。',
  'code.live': '这次运行',
  'code.shape': '{stage}：{rows} × {cols}；第 {i} 行（{token}）开头是 {values}',
  'code.pytorchShapes': '文章里的形状是 PyTorch 的：[B, L, 768] 表示一批 B 个句子、每句 L 个词元、宽 768；这里 B = 1，L = {n}，这个头宽 {dk}。',
});

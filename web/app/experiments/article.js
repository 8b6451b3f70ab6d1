// The tutorial article's worked example and the figures it printed, as data.
// The page shows these printed figures beside the core's own computation; the
// article's numbers are never used as results.
export const ARTICLE_ROW = Object.freeze({
  tokens: ['我', '喜', '欢', '人', '工', '智', '能', 'CLS', 'SEP'],
  scores: [15.3, 22.7, 18.2, 2.1, 1.8, 3.2, 2.9, 5.6, 4.1],
  dK: 64,
  printed: {
    scaled: [1.9125, 2.8375, 2.275, 0.2625, 0.225, 0.4, 0.3625, 0.7, 0.5125],
    exps: [6.77, 17.07, 9.73, 1.30, 1.25, 1.49, 1.44, 2.01, 1.67],
    sum: 42.73,
    probs: [0.16, 0.40, 0.23, 0.03, 0.03, 0.03, 0.03, 0.05, 0.04],
  },
});

// Each erratum: the inputs the article used, what it printed, and how the page
// recomputes it with the core (softmaxRow with this dK; gradient target); 'text': words only.
// printedText: what the article printed, as it printed it (≈0, 0, its decimals), quoted beside the core's
// (two lists: its softmax and its gradient, joined as the page's language joins them).
// kind: 'figure' (a printed number is wrong), 'inconsistency' (its code and its text describe
// different heads, each right on its own) or 'reasoning' (an argument that does not hold).
export const ERRATA = Object.freeze([
  { id: 'E1', kind: 'figure', scores: ARTICLE_ROW.scores, dK: 64, printed: { sum: 42.73 }, show: 'sum' },
  { id: 'E2', kind: 'figure', scores: [15.3, 22.7, 18.2, 2.1, 1.8], dK: 1, printed: { probs: [0.001, 0.997, 0.002, 0, 0] }, printedText: '[0.001, 0.997, 0.002, ≈0, ≈0]', show: 'probs' },
  { id: 'E3', kind: 'figure', scores: [15.3, 22.7, 18.2, 2.1, 1.8], dK: 64, printed: { probs: [0.187, 0.473, 0.270, 0.036, 0.035] }, printedText: '[0.187, 0.473, 0.270, 0.036, 0.035]', show: 'probs' },
  { id: 'E4', kind: 'figure', scores: [20, -10, 5], dK: 1, printed: { probs: [0.9999, 0.0000, 0.0001], gradient: [-0.0001, 0, 0] },
    printedText: ['[0.9999, 0.0000, 0.0001]', '[−0.0001, 0, 0]'], show: 'gradient' },
  { id: 'E5', kind: 'figure', scores: [20, -10, 5], dK: 64, printed: { probs: [0.76, 0.02, 0.22], gradient: [-0.24, 0.02, 0.22] },
    printedText: ['[0.76, 0.02, 0.22]', '[−0.24, 0.02, 0.22]'], show: 'gradient' },
  // Its token ids: 4263 is 爱 in bert-base-chinese's vocabulary, not 喜 (a figure, shown as words).
  { id: 'E9', kind: 'figure', show: 'text' },
  // Its code's head (768 wide) against its text's (one BERT-base head, 64 wide): E6 the divisor, E7 the output's width.
  { id: 'E6', kind: 'inconsistency', show: 'text' },
  { id: 'E7', kind: 'inconsistency', show: 'text' },
  // Its reason, not a figure: p − one-hot vanishes only with the peak on the right answer (here the third is
  // taken as the right one); the gradient through softmax, its Jacobian, vanishes whatever the answer.
  { id: 'E8', kind: 'reasoning', scores: [20, -10, 5], dK: 64, target: 2, printed: { gradient: [-0.0001, 0, 0] }, printedText: '[−0.0001, 0, 0]', show: 'jacobian' },
]);

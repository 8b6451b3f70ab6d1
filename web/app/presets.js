// Example sentences in the Examples menu; the first is the article's. Those
// with [MASK] are for the trained model's guess (it read documentation text:
// it guesses best in sentences like these).
export const PRESETS = [
  '我喜欢人工智能',
  '人工智能喜欢我',
  '小猫坐在垫子上，因为它很累。',
  '请[MASK]入密码',
  '网络连[MASK]失败',
  'I love artificial intelligence.',
  'The cat sat on the mat.',
  "The animal didn't cross the street because it was too tired.",
];

export const DEFAULT_SENTENCE = PRESETS[0];

// Example sentences in the Examples menu; the first is the article's. Those
// with [MASK] show the trained model's guess for the hidden character or word
// (it read everyday Chinese and English: children's activities, the desktop's
// help, a game's dialogue, recipes, a story, dictionary examples; and manuals).
export const PRESETS = [
  '我喜欢人工智能',
  '人工智能喜欢我',
  '小猫坐在垫子上，因为它很累。',
  '我[MASK]欢人工智能',
  '我们明天去[MASK]京',
  '请[MASK]入密码',
  'I love artificial intelligence.',
  'The cat sat on the mat.',
  "The animal didn't cross the street because it was too tired.",
  'We must cross the [MASK] before dark',
  'Please enter your [MASK]',
];

export const DEFAULT_SENTENCE = PRESETS[0];

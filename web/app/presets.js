// Example sentences in the Examples menu; the first is the article's.
export const PRESETS = [
  '我喜欢人工智能',
  '人工智能喜欢我',
  '小猫坐在垫子上，因为它很累。',
  'I love artificial intelligence.',
  'The cat sat on the mat.',
  "The animal didn't cross the street because it was too tired.",
];

export const DEFAULT_SENTENCE = PRESETS[0];

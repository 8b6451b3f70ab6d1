// What the bench's parts share: where the repository is, medians, sentences of
// n tokens, sizes in KB.
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
export const sentenceOf = (n) => '字'.repeat(n - 2); // n tokens with [CLS] and [SEP]
export const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

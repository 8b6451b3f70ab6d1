// Every word of the page in Chinese, as one table: a chunk of its own
// (i18n.js loads it the first time a lab needs Chinese).
import { STRINGS_ZH } from './zh.js';
import { HEADS_ZH } from './heads-zh.js';

export const WORDS_ZH = Object.freeze({ ...STRINGS_ZH, ...HEADS_ZH });

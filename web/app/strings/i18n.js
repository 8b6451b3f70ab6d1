// The page's words in English, simplified Chinese and traditional Chinese. A lab
// holds the words of its own language (loadWords) and passes them on: t(key,
// params) fills {name} slots. A key missing from a language shows as ⟦key⟧,
// which the tests look for.
// English comes with the page (its HTML reads in English, and English is what
// a lab shows until another language is there); each Chinese is a chunk of its
// own, loaded the first time a lab asks for it: words-zh.js, and the traditional
// made from it at build time (scripts/zh-hant-words.mjs: OpenCC's Taiwan
// conversion and read-through corrections) with the Examples menu's sentences.
import { STRINGS_EN } from './en.js';
import { HEADS_EN } from './heads-en.js';

export const LANGUAGE_IDS = Object.freeze(['en', 'zh', 'zh-Hant']);

/** One of LANGUAGE_IDS, whatever its case ('zh-hant' → 'zh-Hant'), or null. */
export const languageId = (text) => LANGUAGE_IDS.find((id) => id.toLowerCase() === String(text ?? '').toLowerCase()) ?? null;

/** The lab's language for a language tag (a browser's, a learner's preference), or null:
 *  Chinese in traditional characters (zh-Hant, zh-TW, zh-HK, zh-MO) is 'zh-Hant', any other Chinese 'zh'. */
export function languageOfTag(tag) {
  const t = String(tag ?? '').trim().toLowerCase();
  if (/^zh(-|$)/.test(t)) return /^zh-(hant|tw|hk|mo)\b/.test(t) ? 'zh-Hant' : 'zh';
  return /^en(-|$)/.test(t) ? 'en' : null;
}

/** The language of a lang parameter, else the browser's first Chinese (traditional or
 *  simplified), else English. */
export function pickLanguage(param, navigatorLanguages = []) {
  return languageId(param) ?? navigatorLanguages.map(languageOfTag).find((lang) => lang && lang !== 'en') ?? 'en';
}

/** Between two sentences of a text: a space, none in Chinese (simplified or traditional). */
export const sentenceGap = (lang) => (lang === 'zh' || lang === 'zh-Hant' ? '' : ' ');

/** Sentences of one language as one text: the non-empty parts joined by its sentenceGap. */
export const sentences = (lang, ...parts) => parts.filter(Boolean).join(sentenceGap(lang));

/** t(key, params) over one table of words: fills {name} slots; a missing key shows as ⟦key⟧.
 *  (Parts of the page that load later, such as the tour, bring their own table.) */
export const translator = (table) => (key, params = {}) => {
  const template = table[key];
  if (template === undefined) return `⟦${key}⟧`;
  return template.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
};

// As an HTML lang value: the traditional words use Taiwan's phrases.
const HTML_LANG = Object.freeze({ en: 'en', zh: 'zh-CN', 'zh-Hant': 'zh-TW' });

function makeWords(lang, table, examples = null) {
  const t = translator(table);
  return Object.freeze({
    lang,
    /** As an HTML lang value. */
    htmlLang: HTML_LANG[lang],
    t,
    /** The Examples menu's sentences in this language's characters, or null: the page's own. */
    examples,
    /** An AttentionLabError in this language (its English message otherwise). */
    errorText(error) {
      const key = `error.${error?.code}`;
      if (lang !== 'en' && key in table) return t(key, error.params ?? {});
      return String(error?.message ?? error);
    },
  });
}

/** The English words, there from the start: { lang, htmlLang, t, examples, errorText }. */
export const ENGLISH = makeWords('en', Object.freeze({ ...STRINGS_EN, ...HEADS_EN }));

const TABLES = Object.freeze({
  en: async () => ENGLISH,
  zh: async () => makeWords('zh', (await import('./words-zh.js')).WORDS_ZH),
  'zh-Hant': async () => {
    const { WORDS_ZH_HANT, PRESETS_ZH_HANT } = await import('../../generated/words/words-zh-hant.js');
    return makeWords('zh-Hant', WORDS_ZH_HANT, PRESETS_ZH_HANT);
  },
});

// Shared by every lab: one frozen set of words a language, loaded once.
const LOADED = new Map();

/** The words of `lang` ('en' for an unknown one), once loaded: { lang, htmlLang, t, examples, errorText }.
 *  A failed load is forgotten, so a later call tries again. */
export function loadWords(lang) {
  const id = languageId(lang) ?? 'en';
  if (!LOADED.has(id)) {
    LOADED.set(id, TABLES[id]().catch((error) => {
      LOADED.delete(id);
      throw error;
    }));
  }
  return LOADED.get(id);
}

/** Fills every element under root marked data-i18n (text; its {name} slots from the JSON
 *  object in data-i18n-args), data-i18n-title, data-i18n-aria-label with its words in `t`'s language. */
export function translateStatic(root, t) {
  // Only what differs is written: the page's HTML already reads in English, and
  // a rewrite with the same words would still cost the browser a new layout.
  for (const el of root.querySelectorAll('[data-i18n]')) {
    const text = t(el.dataset.i18n, el.dataset.i18nArgs ? JSON.parse(el.dataset.i18nArgs) : {});
    if (el.textContent !== text) el.textContent = text;
  }
  for (const el of root.querySelectorAll('[data-i18n-title]')) {
    const text = t(el.dataset.i18nTitle);
    if (el.title !== text) el.title = text;
  }
  for (const el of root.querySelectorAll('[data-i18n-aria-label]')) {
    const text = t(el.dataset.i18nAriaLabel);
    if (el.getAttribute('aria-label') !== text) el.setAttribute('aria-label', text);
  }
}

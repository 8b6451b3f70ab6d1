// The page's words in English and Chinese. A lab holds the words of its own
// language (loadWords) and passes them on: t(key, params) fills {name} slots.
// A key missing from a language shows as ⟦key⟧, which the tests look for.
// English comes with the page (its HTML reads in English, and English is what
// a lab shows until another language is there); Chinese is a chunk of its own,
// words-zh.js, loaded the first time a lab asks for it.
import { STRINGS_EN } from './en.js';
import { HEADS_EN } from './heads-en.js';

export const LANGUAGE_IDS = Object.freeze(['en', 'zh']);

/** 'zh' or 'en' from a lang parameter, else from the browser's languages. */
export function pickLanguage(param, navigatorLanguages = []) {
  if (LANGUAGE_IDS.includes(param)) return param;
  return navigatorLanguages.some((l) => /^zh\b/i.test(l)) ? 'zh' : 'en';
}

/** t(key, params) over one table of words: fills {name} slots; a missing key shows as ⟦key⟧.
 *  (Parts of the page that load later, such as the tour, bring their own table.) */
export const translator = (table) => (key, params = {}) => {
  const template = table[key];
  if (template === undefined) return `⟦${key}⟧`;
  return template.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
};

function makeWords(lang, table) {
  const t = translator(table);
  return Object.freeze({
    lang,
    /** As an HTML lang value. */
    htmlLang: lang === 'zh' ? 'zh-CN' : 'en',
    t,
    /** An AttentionLabError in this language (its English message otherwise). */
    errorText(error) {
      const key = `error.${error?.code}`;
      if (lang !== 'en' && key in table) return t(key, error.params ?? {});
      return String(error?.message ?? error);
    },
  });
}

/** The English words, there from the start: { lang, htmlLang, t, errorText }. */
export const ENGLISH = makeWords('en', Object.freeze({ ...STRINGS_EN, ...HEADS_EN }));

const TABLES = Object.freeze({
  en: async () => ENGLISH,
  zh: async () => makeWords('zh', (await import('./words-zh.js')).WORDS_ZH),
});

// Shared by every lab: one frozen set of words a language, loaded once.
const LOADED = new Map();

/** The words of `lang` ('en' for an unknown one), once loaded: { lang, htmlLang, t, errorText }.
 *  A failed load is forgotten, so a later call tries again. */
export function loadWords(lang) {
  const id = LANGUAGE_IDS.includes(lang) ? lang : 'en';
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

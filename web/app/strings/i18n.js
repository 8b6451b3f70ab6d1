// The page's words in English and Chinese. A lab holds the words of its own
// language (wordsFor) and passes them on: t(key, params) fills {name} slots.
// A key missing from a language shows as ⟦key⟧, which the tests look for.
import { STRINGS_EN } from './en.js';
import { STRINGS_ZH } from './zh.js';
import { HEADS_EN, HEADS_ZH } from './heads.js';

export const LANGUAGES = Object.freeze({
  en: { ...STRINGS_EN, ...HEADS_EN }, zh: { ...STRINGS_ZH, ...HEADS_ZH } });

/** 'zh' or 'en' from a lang parameter, else from the browser's languages. */
export function pickLanguage(param, navigatorLanguages = []) {
  if (param && param in LANGUAGES) return param;
  return navigatorLanguages.some((l) => /^zh\b/i.test(l)) ? 'zh' : 'en';
}

/** t(key, params) over one table of words: fills {name} slots; a missing key shows as ⟦key⟧.
 *  (Parts of the page that load later, such as the tour, bring their own table.) */
export const translator = (table) => (key, params = {}) => {
  const template = table[key];
  if (template === undefined) return `⟦${key}⟧`;
  return template.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
};

function makeWords(lang) {
  const table = LANGUAGES[lang];
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

// One frozen set of words a language: nothing here changes once made.
const WORDS = Object.freeze(Object.fromEntries(Object.keys(LANGUAGES).map((lang) => [lang, makeWords(lang)])));

/** The words of `lang` ('en' for an unknown one): { lang, htmlLang, t, errorText }. */
export const wordsFor = (lang) => WORDS[lang in WORDS ? lang : 'en'];

/** Fills every element under root marked data-i18n (text), data-i18n-title,
 *  data-i18n-aria-label with its words in `t`'s language. */
export function translateStatic(root, t) {
  // Only what differs is written: the page's HTML already reads in English, and
  // a rewrite with the same words would still cost the browser a new layout.
  for (const el of root.querySelectorAll('[data-i18n]')) {
    const text = t(el.dataset.i18n);
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

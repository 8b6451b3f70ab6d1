// The page's words in English and Chinese. t(key, params) fills {name} slots.
// A key missing from a language shows as ⟦key⟧, which the tests look for.
import { STRINGS_EN } from './strings-en.js';
import { STRINGS_ZH } from './strings-zh.js';
import { HEADS_EN, HEADS_ZH } from './strings-heads.js';
import { EXERCISES_EN, EXERCISES_ZH } from './strings-exercises.js';

export const LANGUAGES = Object.freeze({
  en: { ...STRINGS_EN, ...HEADS_EN, ...EXERCISES_EN }, zh: { ...STRINGS_ZH, ...HEADS_ZH, ...EXERCISES_ZH } });
let current = 'en';

/** 'zh' or 'en' from a lang parameter, else from the browser's languages. */
export function pickLanguage(param, navigatorLanguages = []) {
  if (param && param in LANGUAGES) return param;
  return navigatorLanguages.some((l) => /^zh\b/i.test(l)) ? 'zh' : 'en';
}

/** The language t() writes in, for the page: its <html lang> follows. */
export function setLanguage(lang) {
  useLanguage(lang);
  document.documentElement.lang = htmlLang();
}

/** The language t() writes in, and nothing else (a lab element sets its own lang). */
export function useLanguage(lang) {
  current = lang in LANGUAGES ? lang : 'en';
}

/** The current language as an HTML lang value. */
export const htmlLang = () => (current === 'zh' ? 'zh-CN' : 'en');

export const language = () => current;

export function t(key, params = {}) {
  const template = LANGUAGES[current][key];
  if (template === undefined) return `⟦${key}⟧`;
  return template.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
}

/** An AttentionLabError in the current language (its English message otherwise). */
export function errorText(error) {
  const key = `error.${error?.code}`;
  if (current !== 'en' && key in LANGUAGES[current]) return t(key, error.params ?? {});
  return String(error?.message ?? error);
}

/** Fills every element marked data-i18n (text), data-i18n-title, data-i18n-aria-label. */
export function translateStatic(root = document, { title = true } = {}) {
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
  if (title && document.title !== t('page.title')) document.title = t('page.title');
}

// A lab's language: the words it writes (strings/i18n.js), the language menu,
// the Examples menu's sentences (in traditional characters for traditional
// Chinese), and what says the language (the page's <html lang> and title, or
// the element's frame). The other languages' words load as soon as the learner
// reaches for the menu.
import { ENGLISH, LANGUAGE_IDS, loadWords, translateStatic } from '../strings/i18n.js';
import { h } from '../ui/dom.js';
import { PRESETS } from './presets.js';

/** The Examples menu (its first option, the placeholder, kept) with these sentences. */
function showExamples(menu, sentences) {
  const now = [...menu.options].slice(1).map((option) => option.value);
  if (now.length === sentences.length && now.every((text, k) => text === sentences[k])) return;
  menu.replaceChildren(menu.options[0], ...sentences.map((text) => h('option', { value: text }, text)));
}

/** select: the language menu; scope: the lab's root (its static words and its Examples menu,
 *  #presets); env: { page, frame }; message: the lab's message line. Returns { words, use(lang) }. */
export function createLanguage({ select, scope, env, message }) {
  let words = ENGLISH;
  let wanted = words.lang; // the last language asked for, which wins over any still loading
  const examples = scope.getElementById('presets');
  showExamples(examples, PRESETS);
  const preload = () => LANGUAGE_IDS.forEach((lang) => loadWords(lang).catch(() => {}));
  for (const kind of ['pointerenter', 'focus']) select.addEventListener(kind, preload, { once: true });

  return {
    /** { lang, htmlLang, t, errorText } of the language in place. */
    get words() { return words; },
    /** Resolves true once lang's words are in place (false if another language was asked for
     *  meanwhile, or its words could not be loaded: the lab then says so and keeps the words it has). */
    async use(lang) {
      wanted = lang;
      let next;
      try {
        next = await loadWords(lang);
      } catch (error) {
        if (wanted !== lang) return false;
        select.value = words.lang;
        const name = [...select.options].find((option) => option.value === lang)?.textContent ?? lang;
        message.show(words.t('msg.wordsFailed', { language: name, error: error?.message ?? error }), 'error');
        return false;
      }
      if (wanted !== lang) return false;
      words = next;
      select.value = words.lang;
      translateStatic(scope, words.t);
      showExamples(examples, words.examples ?? PRESETS);
      if (env.page) {
        document.documentElement.lang = words.htmlLang;
        document.title = words.t('page.title');
      } else env.frame.lang = words.htmlLang;
      return true;
    },
  };
}

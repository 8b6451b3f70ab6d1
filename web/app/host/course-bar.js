// The page's course bar: what the learning platform that launched the lesson
// (cmi5, host/cmi5.js) knows of it, in the lab's language (relabel() follows the
// language menu), and Finish, which ends the session and goes back to the course.
// A chunk with the cmi5 adapter: its words are its own (strings/course.js, and the traditional
// made from it at build time); the page's translator comes in (imported here, it would make a
// chunk the first load fetches too).
import { COURSE_WORDS } from '../../generated/words/course.js';

/** scope: the page's document; lang: the lab's language now; translator: strings/i18n.js's.
 *  Returns { show(key, args), exitable(on), onExit(action), relabel(lang) }. */
export function createCourseBar(scope, lang, translator) {
  const WORDS = Object.fromEntries(Object.entries(COURSE_WORDS).map(([id, table]) => [id, translator(table)]));
  const bar = scope.getElementById('course-bar');
  const status = scope.getElementById('course-status');
  const exit = scope.getElementById('course-exit');
  let t = WORDS[lang] ?? WORDS.en;
  let said = null; // [key, args]: what the bar says, said again in another language
  const draw = () => {
    exit.textContent = t('course.exit');
    if (!said) return;
    status.textContent = t(said[0], said[1] ?? {}); // as text, never markup
    bar.dataset.state = said[0];
    bar.hidden = false;
  };
  return {
    /** Says `key` of the course's words, its {slots} from args. */
    show(key, args = null) {
      said = [key, args];
      draw();
    },
    exitable(on) {
      exit.hidden = !on;
    },
    onExit(action) {
      exit.addEventListener('click', () => {
        exit.disabled = true;
        action();
      });
    },
    relabel(next) {
      t = WORDS[next] ?? WORDS.en;
      draw();
    },
  };
}

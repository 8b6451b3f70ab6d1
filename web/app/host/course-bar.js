// The page's course bar: what the learning platform that launched the lesson
// (cmi5, host/cmi5.js) knows of it, in the lab's words (they follow the
// language menu), and Finish, which ends the session and goes back to the course.

/** scope: the page's document; t: the lab's words. Returns { show(key, args), exitable(on), onExit(action) }. */
export function createCourseBar(scope, t) {
  const bar = scope.getElementById('course-bar');
  const status = scope.getElementById('course-status');
  const exit = scope.getElementById('course-exit');
  return {
    /** Says `key` of the lab's words, its {slots} from args (as text, never markup). */
    show(key, args = null) {
      status.dataset.i18n = key;
      if (args) status.dataset.i18nArgs = JSON.stringify(args);
      else delete status.dataset.i18nArgs;
      status.textContent = t(key, args ?? {});
      bar.dataset.state = key;
      bar.hidden = false;
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
  };
}

// The teaching page: one lab (start-lab.js) over the whole document, opened from the
// address bar's link, writing it back, and talking to a parent frame if any.
// A packaged page (scripts/package-scorm.mjs, package-cmi5.mjs) carries its link in a
// <meta name="attention-lab-link">; the address bar's parameters win over it.
// On a learning platform, exercise results and the tour are reported to it, and a
// relaunch goes on where the learner left: through cmi5 when the platform launched
// the page with cmi5's parameters (host/cmi5.js), else through a SCORM runtime in a
// parent frame or the opener (host/scorm.js).
import { readCmi5Launch } from '../host/cmi5-launch.js';
import { createCourseBar } from '../host/course-bar.js';
import { startLab } from './start-lab.js';

function startPage() {
  const link = new URLSearchParams(document.querySelector('meta[name="attention-lab-link"]')?.content ?? '');
  for (const [name, value] of new URLSearchParams(location.search)) link.set(name, value);
  // Read before the lab rewrites the address bar (which drops the launch's parameters).
  const cmi5 = readCmi5Launch(location.search);
  // A platform's SCORM runtime is in a parent frame or the opener: only then does the
  // SCORM adapter load (what the learner does meanwhile waits for it).
  let framed = true;
  try {
    framed = window.parent !== window || Boolean(window.opener);
  } catch {
    // a parent of another origin: framed all the same
  }
  const reporting = cmi5 ? Boolean(cmi5.launch) : framed;
  let course = null; // the platform's session
  const early = [];
  const report = (kind, body) => (course ? course[kind](body) : reporting && early.push([kind, body]));
  const lab = startLab({ scope: document, frame: document.body, search: link.toString(), page: true,
    onExercise: (result) => report('record', result), onTour: (move) => report('tour', move) });
  const begin = (session) => {
    course = session;
    for (const [kind, body] of early.splice(0)) course[kind](body);
  };
  if (cmi5) {
    const bar = createCourseBar(document, lab.t);
    if (!cmi5.launch) {
      bar.show('course.failed.params', { names: cmi5.problems.join(', ') });
      return;
    }
    import('../host/cmi5.js').then(({ connectCmi5 }) => {
      const session = connectCmi5(window, cmi5.launch, { progress: () => lab.progress(), restore: (saved) => lab.restore(saved),
        useLanguage: (lang) => lab.switchLanguage(lang), sentence: () => lab.progress()?.s ?? '' }, bar);
      bar.onExit(() => session.exit());
      window.addEventListener('pagehide', () => session.finish());
      begin(session);
    });
  } else if (framed) {
    import('../host/scorm.js').then(({ connectScorm }) => {
      begin(connectScorm(window, { progress: () => lab.progress(), onResume: (saved) => lab.restore(saved) }));
    });
  }
}

startPage();

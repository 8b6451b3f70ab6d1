// The teaching page: one lab (start-lab.js) over the whole document, opened from the
// address bar's link, writing it back, and talking to a parent frame if any.
// A packaged page (scripts/package-scorm.mjs, package-cmi5.mjs) carries its link in a
// <meta name="attention-lab-link">; the address bar's parameters win over it.
// On a learning platform, exercise results and the tour are reported to it, and a
// relaunch goes on where the learner left: through cmi5 when the platform launched
// the page with cmi5's parameters (host/cmi5.js), else through a SCORM runtime in a
// parent frame or the opener (host/scorm.js).
import { isCmi5Launch } from '../host/cmi5-launch.js';
import { languageOfTag, translator } from '../strings/i18n.js';
import { startLab } from './start-lab.js';

function startPage() {
  const link = new URLSearchParams(document.querySelector('meta[name="attention-lab-link"]')?.content ?? '');
  for (const [name, value] of new URLSearchParams(location.search)) link.set(name, value);
  // Kept before the lab rewrites the address bar (which drops the launch's parameters).
  const launched = location.search;
  const cmi5 = isCmi5Launch(launched);
  // A platform's SCORM runtime is in a parent frame or the opener: only then does the
  // SCORM adapter load (what the learner does meanwhile waits for it).
  let framed = true;
  try {
    framed = window.parent !== window || Boolean(window.opener);
  } catch {
    // a parent of another origin: framed all the same
  }
  let course = null; // the platform's session
  let bar = null; // the course bar (cmi5)
  const early = [];
  const report = (kind, body) => (course ? course[kind](body) : (cmi5 || framed) && early.push([kind, body]));
  const lab = startLab({ scope: document, frame: document.body, search: link.toString(), page: true,
    onExercise: (result) => report('record', result), onTour: (move) => report('tour', move), onLanguage: (lang) => bar?.relabel(lang) });
  const begin = (session) => {
    course = session;
    for (const [kind, body] of early.splice(0)) course?.[kind](body);
  };
  if (cmi5) {
    import('../host/cmi5.js').then(({ startCmi5 }) => {
      const started = startCmi5(window, launched, { progress: () => lab.progress(), restore: (saved) => lab.restore(saved),
        useLanguage: (lang) => lab.switchLanguage(lang), languageOf: languageOfTag, sentence: () => lab.progress()?.s ?? '' },
        { lang: lab.lang(), translator });
      bar = started.bar;
      begin(started.session);
    });
  } else if (framed) {
    import('../host/scorm.js').then(({ connectScorm }) => {
      begin(connectScorm(window, { progress: () => lab.progress(), onResume: (saved) => lab.restore(saved) }));
    });
  }
}

startPage();

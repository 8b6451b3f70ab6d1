// The teaching page: one lab (start-lab.js) over the whole document, opened from the
// address bar's link, writing it back, and talking to a parent frame if any.
// A packaged page (scripts/package-scorm.mjs) carries its link in a
// <meta name="attention-lab-link">; the address bar's parameters win over it.
// On a learning platform with a SCORM runtime, exercise results are reported
// to it, and a relaunch goes on where the learner left (host/scorm.js).
import { startLab } from './start-lab.js';

function startPage() {
  const link = new URLSearchParams(document.querySelector('meta[name="attention-lab-link"]')?.content ?? '');
  for (const [name, value] of new URLSearchParams(location.search)) link.set(name, value);
  // A platform's runtime is in a parent frame or the opener: only then does the
  // SCORM adapter load (what the learner does meanwhile waits for it).
  let framed = true;
  try {
    framed = window.parent !== window || Boolean(window.opener);
  } catch {
    // a parent of another origin: framed all the same
  }
  let scorm = null;
  const early = [];
  const report = (kind, body) => (scorm ? scorm[kind](body) : framed && early.push([kind, body]));
  const lab = startLab({ scope: document, frame: document.body, search: link.toString(), page: true,
    onExercise: (result) => report('record', result), onTour: (move) => report('tour', move) });
  if (framed) {
    import('../host/scorm.js').then(({ connectScorm }) => {
      scorm = connectScorm(window, { progress: () => lab.progress(), onResume: (saved) => lab.restore(saved) });
      for (const [kind, body] of early.splice(0)) scorm[kind](body);
    });
  }
}

startPage();

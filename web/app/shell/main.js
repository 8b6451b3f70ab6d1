// The teaching page: one lab (start-lab.js) over the whole document, opened from the
// address bar's link, writing it back, and talking to a parent frame if any.
// A packaged page (scripts/package-scorm.mjs) carries its link in a
// <meta name="attention-lab-link">; the address bar's parameters win over it.
// On a learning platform with a SCORM runtime, exercise results are reported
// to it, and a relaunch goes on where the learner left (host/scorm.js).
import { startLab } from './start-lab.js';
import { connectScorm } from '../host/scorm.js';

function startPage() {
  const link = new URLSearchParams(document.querySelector('meta[name="attention-lab-link"]')?.content ?? '');
  for (const [name, value] of new URLSearchParams(location.search)) link.set(name, value);
  let scorm = null; // answers need a learner: the session is there before the first one
  const lab = startLab({ scope: document, frame: document.body, search: link.toString(), page: true,
    onExercise: (result) => scorm.record(result), onTour: (move) => scorm.tour(move) });
  scorm = connectScorm(window, { progress: () => lab.progress(), onResume: (saved) => lab.restore(saved) });
}

startPage();

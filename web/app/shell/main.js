// The teaching page: one lab (start-lab.js) over the whole document, opened from the
// address bar's link, writing it back, and talking to a parent frame if any.
// A packaged page (scripts/package-scorm.mjs) carries its link in a
// <meta name="attention-lab-link">; the address bar's parameters win over it.
// On a learning platform with the SCORM 1.2 API, exercise results are reported
// to it (scorm.js).
import { startLab } from './start-lab.js';
import { connectScorm } from '../host/scorm.js';

function startPage() {
  const link = new URLSearchParams(document.querySelector('meta[name="attention-lab-link"]')?.content ?? '');
  for (const [name, value] of new URLSearchParams(location.search)) link.set(name, value);
  const scorm = connectScorm(window);
  startLab({ scope: document, frame: document.body, search: link.toString(), page: true, onExercise: scorm?.record });
}

startPage();

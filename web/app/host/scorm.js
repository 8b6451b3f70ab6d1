// Reports "Your turn" to a learning platform through the SCORM 1.2 runtime API
// (the `API` object an LMS puts in a parent frame of the lesson it launches).
// Without one, nothing happens and the page is the plain page. What it writes:
//   cmi.core.score.raw / min / max   the share of the set answered right, 0 … 100
//   cmi.core.lesson_status           incomplete; once every exercise is answered,
//                                    passed or failed against the platform's
//                                    mastery score if it has one, else completed
//   cmi.interactions.n.*             each answer: id, type numeric, the learner's
//                                    answer, the core's value, correct or wrong
//   cmi.core.session_time, cmi.core.exit   when the page is left
// scripts/package-scorm.mjs packages the offline page for such platforms.

const MAX_PARENTS = 10;

/** The SCORM 1.2 API of the nearest parent frame (or opener) that has one, or null. */
export function findScormApi(win = globalThis.window) {
  const look = (start) => {
    let w = start;
    for (let k = 0; w && k <= MAX_PARENTS; k += 1) {
      try {
        if (w.API && typeof w.API.LMSInitialize === 'function') return w.API;
      } catch {
        // a frame of another origin: its API is not ours to use
      }
      if (w.parent === w) break;
      w = w.parent;
    }
    return null;
  };
  let opener = null;
  try {
    opener = win?.opener ?? null;
  } catch {
    opener = null;
  }
  return look(win) ?? (opener ? look(opener) : null);
}

/** Starts a SCORM session if a platform is there: { record(result), finish() }, or null. */
export function connectScorm(win = globalThis.window) {
  const api = findScormApi(win);
  if (!api || String(api.LMSInitialize('')) !== 'true') return null;
  const started = Date.now();
  const mastery = Number.parseFloat(api.LMSGetValue('cmi.student_data.mastery_score'));
  let interactions = Number.parseInt(api.LMSGetValue('cmi.interactions._count'), 10) || 0;
  const status = api.LMSGetValue('cmi.core.lesson_status');
  if (!status || status === 'not attempted') api.LMSSetValue('cmi.core.lesson_status', 'incomplete');
  api.LMSCommit('');
  let finished = false;

  const session = {
    /** An exercise result (exercise-panel.js). */
    record(result) {
      const { set } = result;
      const score = Math.round((100 * set.right) / set.count);
      api.LMSSetValue('cmi.core.score.min', '0');
      api.LMSSetValue('cmi.core.score.max', '100');
      api.LMSSetValue('cmi.core.score.raw', String(score));
      const n = `cmi.interactions.${interactions}`;
      interactions += 1;
      api.LMSSetValue(`${n}.id`, `${result.exercise}-${result.cell.row}-${result.cell.col}`);
      api.LMSSetValue(`${n}.type`, 'numeric');
      api.LMSSetValue(`${n}.student_response`, String(result.answer));
      api.LMSSetValue(`${n}.correct_responses.0.pattern`, String(result.expected));
      api.LMSSetValue(`${n}.result`, result.correct ? 'correct' : 'wrong');
      if (set.answered === set.count) {
        const done = Number.isFinite(mastery) ? (score >= mastery ? 'passed' : 'failed') : 'completed';
        api.LMSSetValue('cmi.core.lesson_status', done);
      }
      api.LMSCommit('');
    },
    /** Ends the session (when the page is left). */
    finish() {
      if (finished) return;
      finished = true;
      api.LMSSetValue('cmi.core.session_time', sessionTime(Date.now() - started));
      api.LMSSetValue('cmi.core.exit', '');
      api.LMSCommit('');
      api.LMSFinish('');
    },
  };
  win.addEventListener('pagehide', () => session.finish());
  return session;
}

/** A duration in SCORM 1.2's CMITimespan, HHHH:MM:SS.SS. */
export function sessionTime(ms) {
  const centis = Math.floor(ms / 10);
  const pad = (v, width) => String(v).padStart(width, '0');
  const hours = Math.floor(centis / 360000);
  const minutes = Math.floor(centis / 6000) % 60;
  const seconds = Math.floor(centis / 100) % 60;
  return `${pad(Math.min(hours, 9999), 4)}:${pad(minutes, 2)}:${pad(seconds, 2)}.${pad(centis % 100, 2)}`;
}

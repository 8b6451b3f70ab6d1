// Reports "Your turn" to a learning platform through its SCORM runtime API:
// SCORM 2004 (the `API_1484_11` object) or SCORM 1.2 (`API`), found in a parent
// frame or the opener of the lesson, also when the platform sets it up a little
// after the lesson starts. Without one, nothing happens and the page is the
// plain page. What it writes (1.2 name / 2004 name):
//   score            cmi.core.score.raw / cmi.score.raw (and .scaled), min 0, max 100:
//                    the best share of the set answered right in this attempt
//   status           cmi.core.lesson_status / cmi.completion_status + cmi.success_status:
//                    incomplete until every exercise is answered; then passed or failed
//                    against the platform's mastery score (completed if it has none).
//                    The rule: the best score counts, so a pass stays a pass. Going
//                    through the guided tour to its end completes the lesson too
//                    (its score still comes from the exercises).
//   interactions     cmi.interactions.n.*: each answer's id, type numeric, the learner's
//                    answer, the right value (2004: as a range of its tolerance), result
//   suspend_data     where the learner is (the sentence, token, step, answers), so a
//                    relaunch with entry = resume goes on from there; exit = suspend
//                    until the set is finished
//   session_time     when the page is hidden or left; committed after each answer too
// scripts/package-scorm.mjs packages the offline page for such platforms.
import { acceptedRange, decimal } from './interaction.js';

const MAX_PARENTS = 10;
const LATE_API_MS = 5000; // how long a framed lesson looks for an API the platform sets up late
const LATE_API_STEP_MS = 200;

// The two runtimes: the API object's name, its calls, and the data model's names.
const RUNTIMES = Object.freeze([
  Object.freeze({
    version: '2004', object: 'API_1484_11', init: 'Initialize', get: 'GetValue', set: 'SetValue', commit: 'Commit', finish: 'Terminate',
    score: 'cmi.score', exit: 'cmi.exit', normalExit: 'normal', entry: 'cmi.entry', interactions: 'cmi.interactions',
    response: 'learner_response', wrong: 'incorrect', suspendLimit: 64000,
    mastery: (read) => 100 * Number.parseFloat(read('cmi.scaled_passing_score')),
    time: (ms) => `PT${(ms / 1000).toFixed(2)}S`,
  }),
  Object.freeze({
    version: '1.2', object: 'API', init: 'LMSInitialize', get: 'LMSGetValue', set: 'LMSSetValue', commit: 'LMSCommit', finish: 'LMSFinish',
    score: 'cmi.core.score', exit: 'cmi.core.exit', normalExit: '', entry: 'cmi.core.entry', interactions: 'cmi.interactions',
    response: 'student_response', wrong: 'wrong', suspendLimit: 4096,
    mastery: (read) => Number.parseFloat(read('cmi.student_data.mastery_score')),
    time: (ms) => sessionTime(ms),
  }),
]);

/** The runtime API of the nearest frame (then the opener's) that has one:
 *  { api, runtime } (SCORM 2004 before 1.2 in the same frame), or null. */
export function findScormApi(win = globalThis.window) {
  const look = (start) => {
    let w = start;
    for (let k = 0; w && k <= MAX_PARENTS; k += 1) {
      try {
        for (const runtime of RUNTIMES) {
          const api = w[runtime.object];
          if (api && typeof api[runtime.init] === 'function') return { api, runtime };
        }
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

/** The suspend_data for progress (the lab's progress()), within `limit` characters:
 *  the sentence is left out first, then the answers' text, if it does not fit. */
export function suspendData(progress, limit) {
  const tries = [progress, { ...progress, s: undefined },
    { ...progress, s: undefined, x: progress.x && { ...progress.x, results: progress.x.results.map((r) => (r ? [r[0], ''] : null)) } }];
  for (const attempt of tries) {
    const text = JSON.stringify(attempt);
    if (text.length <= limit) return text;
  }
  return '';
}

/**
 * Starts a SCORM session when a platform is there (now, or within a few
 * seconds for a framed lesson). progress(): where the learner is (the lab's
 * progress()); onResume(saved): a relaunch goes on from a saved progress.
 * Returns { record(result), save(), finish(), connected: Promise<boolean> }.
 */
export function connectScorm(win, { progress, onResume }) {
  let session = null;
  let looking = true; // answers given while the lesson looks for a late API wait for it
  const queue = [];
  const handle = {
    record(result) {
      if (session) session.record(result);
      else if (looking) queue.push(result);
    },
    /** A move in the guided tour ({ card, index, count, finished }). */
    tour(move) { session?.tour(move); },
    save() { session?.save(); },
    finish() { session?.finish(); },
    connected: null,
  };
  const start = (found) => {
    session = startSession(found, { progress, onResume });
    if (!session) return false;
    for (const result of queue.splice(0)) session.record(result);
    win.addEventListener('visibilitychange', () => { if (win.document.visibilityState === 'hidden') session.save(); });
    win.addEventListener('pagehide', () => session.finish());
    return true;
  };
  const now = findScormApi(win);
  let framed = false;
  try {
    framed = win.parent !== win || Boolean(win.opener);
  } catch {
    framed = true;
  }
  const connected = now ? Promise.resolve(start(now)) : !framed ? Promise.resolve(false) : new Promise((resolve) => {
    const began = Date.now();
    const look = () => {
      const found = findScormApi(win);
      if (found) resolve(start(found));
      else if (Date.now() - began >= LATE_API_MS) resolve(false);
      else setTimeout(look, LATE_API_STEP_MS);
    };
    setTimeout(look, LATE_API_STEP_MS);
  });
  handle.connected = connected.then((on) => {
    looking = false;
    queue.length = 0;
    return on;
  });
  return handle;
}

function startSession({ api, runtime: r }, { progress, onResume }) {
  if (String(api[r.init]('')) !== 'true') return null;
  const read = (key) => String(api[r.get](key) ?? '');
  const write = (key, value) => api[r.set](key, value);
  const commit = () => api[r.commit]('');
  const started = Date.now();
  const mastery = r.mastery(read);
  let interactions = Number.parseInt(read(`${r.interactions}._count`), 10) || 0;
  let best = Number.parseFloat(read(`${r.score}.raw`)); // a resumed attempt keeps its best score
  if (!Number.isFinite(best)) best = -1;
  let finishedSet = false;
  let tourDone = false;
  let ended = false;

  const status = (done) => {
    const passed = Number.isFinite(mastery) ? best >= mastery : null;
    if (r.version === '1.2') {
      write('cmi.core.lesson_status', !done ? (tourDone ? 'completed' : 'incomplete') : passed === null ? 'completed' : passed ? 'passed' : 'failed');
    } else {
      write('cmi.completion_status', done || tourDone ? 'completed' : 'incomplete');
      write('cmi.success_status', !done || passed === null ? 'unknown' : passed ? 'passed' : 'failed');
    }
  };
  const save = () => {
    const now = progress();
    if (now) write('cmi.suspend_data', suspendData(now, r.suspendLimit));
    write(r.exit, finishedSet ? r.normalExit : 'suspend');
    write(r.version === '1.2' ? 'cmi.core.session_time' : 'cmi.session_time', r.time(Date.now() - started));
    commit();
  };

  if (read(r.entry) === 'resume') {
    try {
      onResume(JSON.parse(read('cmi.suspend_data')));
    } catch {
      // a damaged save: the lesson starts over
    }
  }
  const already = r.version === '1.2' ? read('cmi.core.lesson_status') : read('cmi.completion_status');
  if (!['passed', 'completed', 'failed'].includes(already)) status(false);
  write(r.exit, 'suspend');
  commit();

  return {
    /** An exercise result (panels/exercise-panel.js). */
    record(result) {
      const { set } = result;
      best = Math.max(best, Math.round((100 * set.right) / set.count));
      write(`${r.score}.min`, '0');
      write(`${r.score}.max`, '100');
      write(`${r.score}.raw`, String(best));
      if (r.version === '2004') write('cmi.score.scaled', decimal(best / 100));
      const n = `${r.interactions}.${interactions}`;
      interactions += 1;
      write(`${n}.id`, `${result.exercise}-${result.cell.row}-${result.cell.col}`);
      write(`${n}.type`, 'numeric');
      write(`${n}.${r.response}`, decimal(result.answer).slice(0, 255));
      write(`${n}.correct_responses.0.pattern`, r.version === '1.2' ? decimal(result.expected)
        : acceptedRange(result));
      write(`${n}.result`, result.correct ? 'correct' : r.wrong);
      finishedSet ||= set.answered === set.count;
      status(finishedSet);
      save();
    },
    tour(move) {
      if (ended) return;
      if (move.finished) {
        tourDone = true;
        status(finishedSet);
      }
      save();
    },
    /** Keeps where the learner is and the time spent (when the page is hidden). */
    save() {
      if (!ended) save();
    },
    /** Ends the session (when the page is left). */
    finish() {
      if (ended) return;
      save();
      ended = true;
      api[r.finish]('');
    },
  };
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

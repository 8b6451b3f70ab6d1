// The lesson as a cmi5 assignable unit (AU): loaded by main.js only when the
// platform launched it with cmi5's parameters (host/cmi5-launch.js). It speaks
// cmi5 (the xAPI profile) to the platform's endpoint, with no library:
//   - POSTs the one-time fetch URL for the session's auth token (an error the
//     platform gives, such as a used fetch URL, is shown to the learner);
//   - reads the platform's LMS.LaunchData state (context template with the
//     session id, launch mode, mastery score, return URL) and the learner's
//     cmi5LearnerPreferences (the language);
//   - reads its own state document (stateId attention-lab-progress) and goes
//     back to where the learner was: the sentence, step, answers, tour card;
//   - sends, in this order: initialized; an "answered" statement per exercise
//     (a cmi5 allowed statement: a numeric interaction under the lesson);
//     once every exercise of the set is answered, passed or failed by the
//     mastery score (the set's share right, once a session and never after a
//     pass in the registration) and completed (once a registration; going
//     through the guided tour completes it too); terminated, last;
//   - in the Browse and Review launch modes, only initialized, answered and
//     terminated, and it keeps no progress;
//   - keeps its state document after each answer and when the page is hidden.
// Finish (the course bar's button) terminates and goes to the platform's
// returnURL; leaving the page otherwise terminates as it goes (keepalive).
// Anything that goes wrong says so in the course bar; the lab itself works on.
import { CATEGORY, EXTENSION, PROGRESS_STATE, VERBS, XAPI_VERSION, exerciseActivity, isoDuration, preferredLanguage, readCmi5Launch, readLaunchData, uuid } from './cmi5-data.js';
import { createCourseBar } from './course-bar.js';
import { decimal } from './interaction.js';
import { suspendData } from './scorm.js';

const CONNECT_TIMEOUT_MS = 20000;
const STATE_LIMIT = 16000; // characters of the lab's progress in the state document (a keepalive request carries 64 KB)

/**
 * The page's cmi5 session for the launch in `search` (the address as the page opened), with the
 * course bar in the lab's language: { session (connectCmi5's, or null when the launch is not
 * usable), bar }. lesson: as connectCmi5 takes it; words: { lang (the lab's now), translator }.
 */
export function startCmi5(win, search, lesson, { lang, translator }) {
  const bar = createCourseBar(win.document, lang, translator);
  const read = readCmi5Launch(search);
  if (!read?.launch) {
    bar.show('course.failed.params', { names: (read?.problems ?? []).join(', ') });
    return { session: null, bar };
  }
  const session = connectCmi5(win, read.launch, lesson, bar);
  bar.onExit(() => session.exit());
  win.addEventListener('pagehide', () => session.finish());
  return { session, bar };
}

/** An error the learner can read: what went wrong, with the platform's words where it gave some. */
class CourseError extends Error {
  constructor(kind, detail) {
    super(detail);
    this.kind = kind;
  }
}

/**
 * Connects the page to the platform that launched it (launch: readCmi5Launch's).
 * lesson: { progress(): where the learner is, restore(saved), useLanguage(lang), languageOf(tag) (the
 * lab's language for a language tag, or null), sentence() },
 * bar: { show(key, args), exitable(on) } (the course bar). Returns { record(result), tour(move),
 * save(), finish(), exit(), connected: Promise<boolean> }: what the page reports, and Finish.
 */
export function connectCmi5(win, launch, lesson, bar) {
  const agent = encodeURIComponent(JSON.stringify(launch.actor));
  const headers = (token, json) => ({ Authorization: `Basic ${token}`, 'X-Experience-API-Version': XAPI_VERSION,
    ...(json ? { 'Content-Type': 'application/json' } : {}) });
  const stateUrl = (stateId) => `${launch.endpoint}activities/state?stateId=${encodeURIComponent(stateId)}`
    + `&activityId=${encodeURIComponent(launch.activityId)}&agent=${agent}&registration=${encodeURIComponent(launch.registration)}`;
  const early = []; // what the learner did before the session began
  let session = null;
  let ended = false;

  const handle = {
    record(result) { if (session) session.record(result); else if (!ended) early.push(['record', result]); },
    tour(move) { if (session) session.tour(move); else if (!ended) early.push(['tour', move]); },
    save() { session?.save(false); },
    /** The page is going: terminated, as it goes. */
    finish() {
      if (session) session.terminate(true);
      ended = true;
    },
    /** Finish: terminated, then back to the platform. */
    async exit() {
      if (!session) return;
      const back = await session.terminate(false);
      ended = true;
      if (back) win.location.assign(back);
      else bar.show('course.ended');
    },
    connected: null,
  };

  async function connect() {
    bar.show('course.connecting');
    const signal = () => AbortSignal.timeout(CONNECT_TIMEOUT_MS);
    let token;
    try {
      const response = await fetch(launch.fetchUrl, { method: 'POST', signal: signal(), cache: 'no-store' });
      const body = await response.json().catch(() => null);
      if (!response.ok || !body) throw new CourseError('token', `HTTP ${response.status}`);
      if (typeof body['auth-token'] !== 'string') {
        throw new CourseError('token', body['error-text'] ? `${body['error-text']} (${body['error-code'] ?? '?'})` : 'no auth-token');
      }
      token = body['auth-token'];
    } catch (error) {
      throw error instanceof CourseError ? error : new CourseError('fetch', error.message);
    }
    const read = async (url, kind) => {
      let response;
      try {
        response = await fetch(url, { headers: headers(token, false), signal: signal(), cache: 'no-store' });
      } catch (error) {
        throw new CourseError(kind, error.message);
      }
      if (response.status === 404) return null;
      if (!response.ok) throw new CourseError(kind, `HTTP ${response.status}`);
      try {
        return await response.json();
      } catch {
        throw new CourseError(kind, 'not JSON');
      }
    };
    let data;
    try {
      data = readLaunchData(await read(stateUrl('LMS.LaunchData'), 'launchData'));
    } catch (error) {
      throw error instanceof CourseError ? error : new CourseError('launchData', error.message);
    }
    // The learner's preferences and the lesson's own state: a platform without them is no failure.
    const preferences = await read(`${launch.endpoint}agents/profile?profileId=cmi5LearnerPreferences&agent=${agent}`, 'launchData').catch(() => null);
    const saved = await read(stateUrl(PROGRESS_STATE), 'launchData').catch(() => null);
    return { token, data, preferences, saved: saved && typeof saved === 'object' ? saved : null };
  }

  handle.connected = connect().then(async ({ token, data, preferences, saved }) => {
    const language = preferredLanguage(preferences, lesson.languageOf);
    if (language) await lesson.useLanguage(language);
    if (saved?.lab) await lesson.restore(saved.lab);
    session = startSession({ launch, token, data, lesson, bar, headers, stateUrl,
      registration: { completed: saved?.completed === true, passed: saved?.passed === true } });
    for (const [kind, body] of early.splice(0)) session[kind](body);
    win.addEventListener('visibilitychange', () => { if (win.document.visibilityState === 'hidden') session.save(true); });
    return true;
  }, (error) => {
    ended = true;
    early.length = 0;
    bar.show(`course.failed.${error.kind ?? 'fetch'}`, { detail: error.message });
    return false;
  });
  return handle;
}

function startSession({ launch, token, data, lesson, bar, headers, stateUrl, registration }) {
  const normal = data.mode === 'Normal';
  const started = Date.now();
  let last = 0; // statements' timestamps rise strictly: cmi5 orders a session's statements by them
  let judged = false; // passed or failed sent in this session
  let over = false;
  let outbox = [];
  let sending = null; // the request under way

  const timestamp = () => {
    last = Math.max(Date.now(), last + 1);
    return new Date(last).toISOString();
  };
  /** The platform's context template with the registration, plus what a statement adds (never overwriting the template's). */
  const context = ({ categories = [], parent = null, extensions = {} } = {}) => {
    const c = structuredClone(data.template);
    c.registration = launch.registration;
    const activities = { ...(c.contextActivities ?? {}) };
    if (categories.length) activities.category = [...(activities.category ?? []), ...categories.map((id) => ({ objectType: 'Activity', id }))];
    if (parent) activities.parent = [...(activities.parent ?? []), { objectType: 'Activity', id: parent }];
    if (Object.keys(activities).length) c.contextActivities = activities;
    c.extensions = { ...extensions, ...(c.extensions ?? {}) };
    return c;
  };
  const statement = (v, object, result, ctx) => ({ id: uuid(), timestamp: timestamp(), actor: launch.actor, verb: v, object,
    ...(result ? { result } : {}), context: ctx });
  const lessonObject = { objectType: 'Activity', id: launch.activityId };
  /** A cmi5 defined statement: the lesson as its object, cmi5's category (and moveon's with success or completion). */
  const defined = (v, result = null, extensions = {}) => statement(v, lessonObject, result,
    context({ categories: [CATEGORY.cmi5, ...(result && ('success' in result || 'completion' in result) ? [CATEGORY.moveOn] : [])], extensions }));
  const duration = () => isoDuration(Date.now() - started);

  const post = (batch, keepalive) => fetch(`${launch.endpoint}statements`, { method: 'POST', headers: headers(token, true),
    body: JSON.stringify(batch), keepalive, cache: 'no-store' }).then((response) => {
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
  });
  const lost = (error) => bar.show('course.lost', { detail: error.message });
  // One request at a time, in order; what comes meanwhile goes in the next one.
  const pump = () => {
    if (sending || !outbox.length || over) return;
    const batch = outbox;
    outbox = [];
    sending = post(batch, true).catch(lost).finally(() => {
      sending = null;
      pump();
    });
  };
  const send = (...statements) => {
    outbox.push(...statements);
    pump();
  };
  const keep = (keepalive) => {
    if (!normal) return Promise.resolve();
    // Within what a keepalive request may carry: a long sentence is left out first (as in SCORM's suspend_data).
    const progress = lesson.progress();
    const lab = progress ? suspendData(progress, STATE_LIMIT) || 'null' : 'null';
    const body = `{"lab":${lab},"completed":${registration.completed},"passed":${registration.passed}}`;
    return fetch(stateUrl(PROGRESS_STATE), { method: 'PUT', headers: headers(token, true), body, keepalive, cache: 'no-store' })
      .then((response) => { if (!response.ok) throw new Error(`HTTP ${response.status}`); })
      .catch(lost);
  };
  const complete = () => {
    if (!normal || registration.completed) return [];
    registration.completed = true;
    return [defined(VERBS.completed, { completion: true, duration: duration() })];
  };

  send(defined(VERBS.initialized));
  bar.show(normal ? 'course.connected' : data.mode === 'Browse' ? 'course.browse' : 'course.review');
  bar.exitable(true);

  return {
    /** An answer to an exercise (panels/exercise-panel.js's result). */
    record(result) {
      if (over) return;
      const { set } = result;
      const item = `${result.exercise}-${result.cell.row}-${result.cell.col}`;
      const success = Boolean(result.correct) && !result.revealed;
      const answered = statement(VERBS.answered, {
        objectType: 'Activity',
        id: exerciseActivity(launch.activityId, item),
        definition: result.interaction, // host/interaction.js, put on the result by the exercise panel
      }, { score: { scaled: success ? 1 : 0, raw: success ? 1 : 0, min: 0, max: 1 }, success, response: decimal(result.answer) },
      context({ parent: launch.activityId }));
      const after = [];
      if (normal && set.answered === set.count) {
        if (data.mastery !== null && !judged && !registration.passed) {
          judged = true;
          const scaled = Math.round((10000 * set.right) / set.count) / 10000;
          const pass = scaled >= data.mastery;
          registration.passed = pass;
          after.push(defined(pass ? VERBS.passed : VERBS.failed,
            { score: { scaled, raw: set.right, min: 0, max: set.count }, success: pass, duration: duration() },
            { [EXTENSION.mastery]: data.mastery }));
        }
        after.push(...complete());
      }
      send(answered, ...after);
      keep(false);
    },
    /** A move in the guided tour: its end completes the lesson. */
    tour(move) {
      if (over) return;
      if (move.finished) send(...complete());
      keep(false);
    },
    /** Keeps where the learner is (when the page is hidden). */
    save(keepalive) {
      if (!over) keep(keepalive);
    },
    /** Ends the session: terminated, last (sent at once, with anything still waiting, when the page is going).
     *  Resolves to the address to go back to (returnURL), or null. */
    async terminate(going) {
      if (over) return null;
      const saving = keep(going);
      const batch = [...outbox, defined(VERBS.terminated, { duration: duration() })];
      outbox = [];
      over = true;
      bar.exitable(false);
      if (going) {
        post(batch, true).catch(() => {});
        return null;
      }
      await sending; // the statements before it arrive first
      try {
        await Promise.all([saving, post(batch, true)]);
      } catch (error) {
        lost(error);
      }
      return data.returnUrl;
    },
  };
}

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
import { createCourseBar } from './course-bar.js';
import { decimal } from './interaction.js';
import { suspendData } from './scorm.js';


export const XAPI_VERSION = '1.0.3';
export const PROGRESS_STATE = 'attention-lab-progress';
const CMI5 = 'https://w3id.org/xapi/cmi5/context/';
export const CATEGORY = Object.freeze({ cmi5: `${CMI5}categories/cmi5`, moveOn: `${CMI5}categories/moveon` });
export const EXTENSION = Object.freeze({ session: `${CMI5}extensions/sessionid`, mastery: `${CMI5}extensions/masteryscore` });
const verb = (id, name) => Object.freeze({ id, display: Object.freeze({ 'en-US': name }) });
export const VERBS = Object.freeze({
  initialized: verb('http://adlnet.gov/expapi/verbs/initialized', 'initialized'),
  answered: verb('http://adlnet.gov/expapi/verbs/answered', 'answered'),
  passed: verb('http://adlnet.gov/expapi/verbs/passed', 'passed'),
  failed: verb('http://adlnet.gov/expapi/verbs/failed', 'failed'),
  completed: verb('http://adlnet.gov/expapi/verbs/completed', 'completed'),
  terminated: verb('http://adlnet.gov/expapi/verbs/terminated', 'terminated'),
});
const MODES = ['Normal', 'Browse', 'Review'];
const CONNECT_TIMEOUT_MS = 20000;
const STATE_LIMIT = 16000; // characters of the lab's progress in the state document (a keepalive request carries 64 KB)

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const httpUrl = (text) => {
  try {
    const url = new URL(text);
    return ['http:', 'https:'].includes(url.protocol) ? url : null;
  } catch {
    return null;
  }
};

// An absolute IRI: a scheme, then something (URLs and URNs alike).
const iri = (text) => /^[a-z][a-z0-9+.-]*:\S+$/i.test(text);

/** The learner as the launch gives it: an Agent with an account { homePage, name }, or null. */
function agentOf(text) {
  let actor;
  try {
    actor = JSON.parse(text);
  } catch {
    return null;
  }
  const account = actor?.account;
  const ok = actor && typeof actor === 'object' && (actor.objectType === undefined || actor.objectType === 'Agent')
    && account && typeof account.name === 'string' && account.name !== '' && typeof account.homePage === 'string' && httpUrl(account.homePage);
  return ok ? actor : null;
}

/**
 * The cmi5 launch in a query string: null when it has none of cmi5's
 * parameters (not a cmi5 launch); else { launch } with the five values
 * checked (endpoint ending in '/'), or { problems: [names] } naming each one
 * that is missing or not valid.
 */
export function readCmi5Launch(search) {
  const params = new URLSearchParams(search);
  const get = (name) => params.get(name) ?? '';
  // Each of cmi5's five parameters (cmi5-launch.js's list), checked.
  const checked = { endpoint: httpUrl(get('endpoint')), fetch: httpUrl(get('fetch')), actor: agentOf(get('actor')),
    registration: UUID_PATTERN.test(get('registration')) ? get('registration') : null, activityId: iri(get('activityId')) ? get('activityId') : null };
  if (!Object.keys(checked).some((name) => params.has(name))) return null;
  const problems = Object.keys(checked).filter((name) => !checked[name]);
  if (problems.length) return { problems };
  const { endpoint, fetch: fetchUrl, actor, registration, activityId } = checked;
  const base = endpoint.href.endsWith('/') ? endpoint.href : `${endpoint.href}/`;
  return { launch: { endpoint: base, fetchUrl: fetchUrl.href, actor, registration, activityId } };
}

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

/** A version 4 UUID (statement ids), also where crypto.randomUUID is missing (a page on plain http). */
export function uuid(crypto = globalThis.crypto) {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** An ISO 8601 duration of ms milliseconds, as xAPI's result.duration takes it. */
export const isoDuration = (ms) => `PT${(Math.max(0, ms) / 1000).toFixed(2)}S`;

/** The activity id of one exercise (item: softmax-2-3) under the lesson's activity id. */
export function exerciseActivity(activityId, item) {
  if (!/[?#]/.test(activityId)) return `${activityId}/exercises/${item}`;
  return `${activityId}${activityId.includes('#') ? '' : '#'}/exercises/${item}`;
}

/** The launch data the platform wrote (cmi5 section 10), checked: { template, mode, mastery, returnUrl }; throws naming what is wrong. */
export function readLaunchData(data) {
  const template = data?.contextTemplate;
  if (!template || typeof template !== 'object') throw new Error('no contextTemplate');
  if (typeof template.extensions?.[EXTENSION.session] !== 'string') throw new Error('no session id in its contextTemplate');
  if (!MODES.includes(data.launchMode)) throw new Error(`launchMode ${JSON.stringify(data.launchMode)} is not Normal, Browse or Review`);
  const mastery = data.masteryScore === undefined || data.masteryScore === null ? null : Number(data.masteryScore);
  if (mastery !== null && !(mastery >= 0 && mastery <= 1)) throw new Error(`masteryScore ${JSON.stringify(data.masteryScore)} is not from 0 to 1`);
  let returnUrl = null;
  if (typeof data.returnURL === 'string' && data.returnURL) {
    try {
      const url = new URL(data.returnURL);
      if (['http:', 'https:'].includes(url.protocol)) returnUrl = url.href; // never a javascript: address
    } catch {
      returnUrl = null;
    }
  }
  return { template, mode: data.launchMode, mastery, returnUrl };
}

/** The lab's language among the learner's preferences ('en-US,zh-CN'), or null. */
export function preferredLanguage(preferences) {
  const list = typeof preferences?.languagePreference === 'string' ? preferences.languagePreference.split(',') : [];
  for (const tag of list) {
    const lang = tag.trim().toLowerCase().split('-')[0];
    if (lang === 'zh' || lang === 'en') return lang;
  }
  return null;
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
 * lesson: { progress(): where the learner is, restore(saved), useLanguage(lang), sentence() },
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
    const language = preferredLanguage(preferences);
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

// What cmi5 names and what the lesson checks of what a platform hands it: the xAPI
// version, verbs, categories and extensions; the launch's five parameters
// (readCmi5Launch) and its LMS.LaunchData (readLaunchData); the learner's
// preferred language; statement ids, durations and exercise activity ids.
// No I/O: host/cmi5.js speaks to the platform with these.

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

/** The lab's language among the learner's preferences ('en-US,zh-TW'), or null; languageOf(tag):
 *  the lab's language for a tag, or null (strings/i18n.js's languageOfTag, handed in by the page). */
export function preferredLanguage(preferences, languageOf) {
  const list = typeof preferences?.languagePreference === 'string' ? preferences.languagePreference.split(',') : [];
  return list.map(languageOf).find(Boolean) ?? null;
}

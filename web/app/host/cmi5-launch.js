// A cmi5 launch (cmi5 section 8.1): the learning platform opens the lesson with
// five parameters in its query string, endpoint (the xAPI base), fetch (a
// one-time URL for the session's auth token), actor (the learner, an xAPI Agent
// with an account), registration (the enrolment, a UUID) and activityId (the
// lesson's activity IRI). Read here before the lab rewrites its address bar;
// host/cmi5.js, loaded only for such a launch, talks to the platform.

export const CMI5_PARAMS = Object.freeze(['endpoint', 'fetch', 'actor', 'registration', 'activityId']);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
  if (!CMI5_PARAMS.some((name) => params.has(name))) return null;
  const get = (name) => params.get(name) ?? '';
  const endpoint = httpUrl(get('endpoint'));
  const fetchUrl = httpUrl(get('fetch'));
  const actor = agentOf(get('actor'));
  const registration = UUID.test(get('registration')) ? get('registration') : null;
  const activityId = iri(get('activityId')) ? get('activityId') : null;
  const checked = { endpoint, fetch: fetchUrl, actor, registration, activityId };
  const problems = CMI5_PARAMS.filter((name) => !checked[name]);
  if (problems.length) return { problems };
  const base = endpoint.href.endsWith('/') ? endpoint.href : `${endpoint.href}/`;
  return { launch: { endpoint: base, fetchUrl: fetchUrl.href, actor, registration, activityId } };
}

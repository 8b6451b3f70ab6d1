// Whether a learning platform launched the lesson with cmi5 (cmi5 section 8.1):
// any of its five query parameters. Only then does the page load the cmi5
// adapter (host/cmi5.js), which reads and checks them.

export const CMI5_PARAMS = Object.freeze(['endpoint', 'fetch', 'actor', 'registration', 'activityId']);

/** Whether the query string has any of cmi5's launch parameters. */
export function isCmi5Launch(search) {
  const params = new URLSearchParams(search);
  return CMI5_PARAMS.some((name) => params.has(name));
}

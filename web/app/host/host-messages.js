// The postMessage protocol for course pages that embed the lab in an iframe
// (docs/embedding.md). Every message is validated for shape and type before it
// is used; with ?origin=… only that origin is listened to and written to.
// Older names still work: a "set" may name its step as `stage`, and every
// "step" event is followed by the older "stage" event. A chunk of its own: a page
// that is in a frame loads it (shell/boot-lab.js); a page on its own needs none of it.
export const PROTOCOL = 'attention-lab';

const OPTION_TYPES = { model: 'string', dModel: 'number', dK: 'number', seed: 'number', scale: 'boolean', causal: 'boolean', positional: 'boolean' };
const SET_KEYS = Object.freeze(['protocol', 'type', 'sentence', 'step', 'stage', 'selected', 'options', 'head', 'layer', 'exercises', 'tour', 'card']);
const MAX_EXERCISES = 400; // characters of an exercise set (20 items with their cells fit)
const MAX_SENTENCE = 20000;

const isPlainObject = (v) => v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype;

/** Returns why a message is not acceptable, or null when it is. */
export function checkMessage(data, stepIds) {
  if (data.type === 'get') return null;
  if (data.type !== 'set') return `unknown message type ${JSON.stringify(String(data.type)).slice(0, 40)}; the types are "set" and "get"`;
  for (const key of Object.keys(data)) {
    if (!SET_KEYS.includes(key)) return `unknown field "${key.slice(0, 40)}" in a "set" message`;
  }
  if ('sentence' in data && (typeof data.sentence !== 'string' || data.sentence.length > MAX_SENTENCE)) {
    return `sentence must be a string of at most ${MAX_SENTENCE} characters`;
  }
  if ('exercises' in data && (typeof data.exercises !== 'string' || data.exercises.length > MAX_EXERCISES)) {
    return `exercises must be a string of at most ${MAX_EXERCISES} characters, such as "softmax:2:3,output"`;
  }
  for (const key of ['step', 'stage']) {
    if (key in data && !stepIds.includes(data[key])) return `${key} must be one of ${stepIds.join(', ')}`;
  }
  if ('step' in data && 'stage' in data && data.step !== data.stage) return 'step and stage (its older name) disagree';
  if ('selected' in data && !(Number.isSafeInteger(data.selected) && data.selected >= 0)) {
    return 'selected must be a token index (an integer from 0)';
  }
  if ('tour' in data && data.tour !== 'article' && data.tour !== null) return 'tour must be "article" (the guided tour) or null (none)';
  for (const key of ['head', 'layer', 'card']) {
    if (key in data && !(Number.isSafeInteger(data[key]) && data[key] >= 0)) return `${key} must be an integer from 0`;
  }
  if ('options' in data) {
    if (!isPlainObject(data.options)) return 'options must be an object such as { "dK": 64 }';
    for (const [name, value] of Object.entries(data.options)) {
      if (!(name in OPTION_TYPES)) return `unknown option "${name.slice(0, 40)}"; the options are ${Object.keys(OPTION_TYPES).join(', ')}`;
      if (typeof value !== OPTION_TYPES[name]) return `option ${name} must be a ${OPTION_TYPES[name]}`;
    }
  }
  return null;
}

/** A message body with the older names beside the new: the step ids as
 *  `stages` too, and a state's `step` as `stage` too. */
export function withOlderNames(body) {
  const named = { ...body };
  if (body.steps) named.stages = body.steps;
  if (body.state) named.state = { ...body.state, stage: body.state.step };
  return named;
}

/**
 * Listens to the embedding page. apply(message) carries out a valid "set" and
 * returns an error ({ code, message }) or null; state() describes the view;
 * signal: the lab's life (its abort stops the listening). Returns { announce(type, body) }. For a page in a frame.
 */
export function connectHost({ allowedOrigin, stepIds, apply, state, signal }) {
  const target = allowedOrigin ?? '*';
  const post = (type, body) => window.parent.postMessage({ protocol: PROTOCOL, type, ...body }, target);
  const announce = (type, body = {}) => {
    const named = withOlderNames(body);
    post(type, named);
    if (type === 'step') post('stage', { stage: body.step, index: body.index, selected: body.selected });
  };
  window.addEventListener('message', (event) => {
    if (event.source !== window.parent) return;
    if (allowedOrigin && event.origin !== allowedOrigin) return;
    const data = event.data;
    if (!isPlainObject(data) || data.protocol !== PROTOCOL) return; // not for us
    const problem = checkMessage(data, stepIds);
    if (problem) {
      announce('error', { code: 'invalid_message', message: problem });
      return;
    }
    if (data.type === 'set') {
      const error = apply(data);
      if (error) announce('error', { code: error.code, message: error.message });
    }
    announce('state', { state: state() });
  }, { signal });
  return { announce };
}

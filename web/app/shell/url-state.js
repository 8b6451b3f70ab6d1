// The view's state in the URL (?s=…&step=…&t=…&head=…), so a link reopens it.
// model=random picks the seeded head (its dModel, dK, seed and switches then
// apply; a link with those and no model= is one from before the trained model,
// and opens on the seeded head as it did); head= and layer= pick a trained
// model's head (counted from 0, as the API does), written once a head was
// chosen; without them the lab opens on the core's article head.
// embed=1 hides the page chrome; origin=… restricts host messages to one origin.
// replaceState only: stepping through the steps does not flood the history.
// ?stage=… is the older name of ?step=…, ?lab=… of ?experiment=…; both still work.
// words=2-3,4-7: tokens the learner made into words (byWords=0: the views show tokens all the same).
// edit=3:0,5:0.25 (renorm=0): the what-if experiment's weights for the selected row, key:weight, in order.
// code=1: the Code switch is on.
import { parseWordsParam, wordsParam } from '../ui/token-groups.js';
import { languageId } from '../strings/i18n.js';

const OPTION_PARAMS = ['dModel', 'dK', 'seed'];
const FLAG_PARAMS = ['scale', 'causal', 'positional'];
const KEPT_PARAMS = ['embed', 'origin', 'exercises']; // set by the embedding page; carried along as they are

/** An origin given as ?origin=…: the origin itself, or null if it is not one. */
export function parseOrigin(text) {
  try {
    const { origin } = new URL(text);
    return origin !== 'null' && origin === text.replace(/\/$/, '') ? origin : null;
  } catch {
    return null;
  }
}

/** Reads what it can; returns { state, ignored: [names of bad parameters] }. */
export function readUrl(search, defaults) {
  const params = new URLSearchParams(search);
  const ignored = [];
  const state = {
    sentence: defaults.sentence, step: defaults.step, selected: null, options: {}, head: null, layer: null,
    embed: params.get('embed') === '1', origin: params.get('origin'), lang: null, experiment: null, tour: null, card: null, exercises: params.get('exercises') ?? '',
    words: [], byWords: true, whatIf: null, code: false,
  };
  if (params.has('words')) {
    const words = parseWordsParam(params.get('words'));
    if (words) state.words = words;
    else ignored.push('words');
  }
  if (params.has('edit') || params.has('renorm')) {
    const edits = (params.get('edit') ?? '').split(',').filter(Boolean).map((item) => /^(\d{1,4}):(0|1|0?\.\d{1,4}|1\.0{1,4})$/.exec(item));
    const renorm = params.get('renorm') ?? '1';
    if (edits.every(Boolean) && ['0', '1'].includes(renorm)) {
      state.whatIf = Object.freeze({ edits: Object.freeze(edits.map(([, key, weight]) => Object.freeze({ key: Number(key), weight: Number(weight) }))), renormalise: renorm === '1' });
    } else {
      ignored.push('edit');
    }
  }
  if (params.has('code')) {
    if (['0', '1'].includes(params.get('code'))) state.code = params.get('code') === '1';
    else ignored.push('code');
  }
  if (params.has('byWords')) {
    if (['0', '1'].includes(params.get('byWords'))) state.byWords = params.get('byWords') === '1';
    else ignored.push('byWords');
  }
  const experimentParam = params.has('experiment') ? 'experiment' : 'lab'; // `lab`: the older name
  if (params.has(experimentParam)) {
    if (defaults.experiments.includes(params.get(experimentParam))) state.experiment = params.get(experimentParam);
    else ignored.push(experimentParam);
  }
  if (params.has('tour')) {
    if (params.get('tour') === 'article') state.tour = 'article';
    else ignored.push('tour');
  }
  if (params.has('lang')) {
    if (languageId(params.get('lang'))) state.lang = languageId(params.get('lang'));
    else ignored.push('lang');
  }
  // At most 20 000 characters (the input box's limit), cut between characters.
  if (params.has('s')) state.sentence = Array.from(params.get('s').slice(0, 40000)).slice(0, 20000).join('');
  const step = params.get('step') ?? params.get('stage'); // the older name, still read
  if (step !== null) state.step = step;
  if (params.has('t')) {
    const t = Number(params.get('t'));
    if (Number.isSafeInteger(t) && t >= 0) state.selected = t;
    else ignored.push('t');
  }
  if (params.has('model')) {
    if (/^[\w.-]{1,64}$/.test(params.get('model'))) state.options.model = params.get('model');
    else ignored.push('model');
  }
  // An integer parameter (from `min`), or null with its name noted as ignored.
  const integer = (name, min = -Infinity) => {
    const value = Number(params.get(name));
    if (params.get(name).trim() !== '' && Number.isSafeInteger(value) && value >= min) return value;
    ignored.push(name);
    return null;
  };
  for (const name of ['head', 'layer', 'card']) if (params.has(name)) state[name] = integer(name, 0);
  for (const name of OPTION_PARAMS.filter((n) => params.has(n))) {
    const value = integer(name);
    if (value !== null) state.options[name] = value;
  }
  for (const name of FLAG_PARAMS) {
    if (!params.has(name)) continue;
    const value = params.get(name);
    if (value === '1' || value === 'true') state.options[name] = true;
    else if (value === '0' || value === 'false') state.options[name] = false;
    else ignored.push(name);
  }
  const seeded = [...OPTION_PARAMS, ...FLAG_PARAMS].some((name) => name in state.options);
  if (seeded && !params.has('model')) state.options.model = 'random';
  return { state, ignored };
}

/** What a link asks that cannot be done, as notices to show (t: the lab's
 *  words); the origin it allows host messages from (null: any, or none when it
 *  is not an origin); and the index of its step (stepIndex(id) → −1 for an unknown one). */
export function checkLink(state, ignored, stepIndex, t) {
  const notices = [];
  let allowedOrigin = null;
  if (state.origin !== null) {
    allowedOrigin = parseOrigin(state.origin);
    if (!allowedOrigin) notices.push(t('msg.badOrigin'));
  }
  if (ignored.length) notices.push(t('msg.ignored', { names: ignored.join(t('list.sep')) }));
  let step = stepIndex(state.step);
  if (step < 0) {
    notices.push(t('msg.noStep', { step: state.step }));
    step = 0;
  }
  return { notices, allowedOrigin, step };
}

/** view: what is shown; defaults: { model, options } (the page's model and the seeded head's options). */
function writeUrl({ sentence, step, selected, options, trained, where, headPicked, lang, experiment, tour, words, byWords, whatIf, code }, defaults) {
  const params = new URLSearchParams();
  const current = new URLSearchParams(location.search);
  for (const name of KEPT_PARAMS) if (current.has(name)) params.set(name, current.get(name));
  params.set('s', sentence);
  params.set('step', step);
  params.set('t', String(selected));
  params.set('lang', lang);
  if (code) params.set('code', '1');
  if (experiment) params.set('experiment', experiment);
  if (experiment === 'what-if' && whatIf) {
    if (whatIf.edits.length) params.set('edit', whatIf.edits.map((e) => `${e.key}:${e.weight}`).join(','));
    if (!whatIf.renormalise) params.set('renorm', '0');
  }
  if (words?.length) params.set('words', wordsParam(words));
  if (words?.length && !byWords) params.set('byWords', '0');
  if (tour) {
    params.set('tour', 'article');
    params.set('card', String(tour.card));
  }
  if (options.model !== defaults.model) params.set('model', options.model);
  if (trained && headPicked) { // a chosen head; without one the link reopens on the core's article head, as this view did
    params.set('layer', String(where.layer));
    params.set('head', String(where.head));
  } else if (!trained) {
    for (const name of OPTION_PARAMS) if (options[name] !== defaults.options[name]) params.set(name, String(options[name]));
    for (const name of FLAG_PARAMS) if (options[name] !== defaults.options[name]) params.set(name, options[name] ? '1' : '0');
  }
  const url = `${location.pathname}?${params}`;
  if (url !== `${location.pathname}${location.search}`) history.replaceState(null, '', url);
}

// history.replaceState costs ~10 ms a call in Chromium: too much for every
// keystroke or slider step. The page asks for the URL to follow soon; it is
// written once things settle, and at once when the page is hidden.

/** The page's address bar: { soon(view, defaults, delay), flush() } writes
 *  writeUrl(view, defaults) `delay` ms after the last call, or at once; until
 *  signal aborts (then what is pending is written). */
export function createUrlWriter(signal) {
  let pending = null;
  let timer = 0;
  const writer = {
    soon(view, defaults, delay = 250) {
      pending = [view, defaults];
      clearTimeout(timer);
      timer = setTimeout(writer.flush, delay);
    },
    flush() {
      clearTimeout(timer);
      if (!pending) return;
      const [view, defaults] = pending;
      pending = null;
      writeUrl(view, defaults);
    },
  };
  globalThis.addEventListener?.('pagehide', writer.flush, { signal });
  signal.addEventListener('abort', writer.flush);
  return writer;
}

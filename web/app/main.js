// The teaching page: wires the sentence, the stage rail, the controls and the
// settings to the wasm core, and hands each stage to its view module. It draws;
// the numbers all come from the trace.
import { loadAttentionLab } from '../lib/attention-lab.js';
import { renderDetail } from './detail-panel.js';
import { afterNextPaint, clear, h, morphChildren, prefersReducedMotion, setText, sleep } from './dom.js';
import { exportView } from './exports.js';
import { connectHost, parseOrigin } from './host-messages.js';
import { errorText, language, pickLanguage, setLanguage, t, translateStatic } from './i18n.js';
import { fillSettings, onSettingsChange, readSettings } from './settings.js';
import { LABS, labIndex } from './labs/index.js';
import { renderLegend } from './legend.js';
import { loadFailureMessage } from './load-failure.js';
import { hideMessage, showMessage } from './messages.js';
import { DEFAULT_SENTENCE, PRESETS } from './presets.js';
import { STAGES, stageIndex } from './stages.js';
import { hideTooltip } from './tooltip.js';
import { mark } from './timeline.js';
import { readUrl, writeUrlSoon } from './url-state.js';
import { stopWarmUp, warmUp } from './warm-up.js';

const TYPING_DELAY_MS = 180;
const DWELL_MS = 1600;
const $ = (id) => document.getElementById(id);

const page = {
  lab: null, defaults: null, host: { announce() {} }, // the core, its default options, the embedding host
  trace: null, cache: new Map(), sentence: DEFAULT_SENTENCE, options: null, // the current run and its stages
  stage: 0, selected: 2, playing: false, speed: 1, renderId: 0, announcedStage: null, // what is shown
  labId: null, labKey: null, // the open lab, and what it was drawn for
};

// ---- running the core --------------------------------------------------------
const defaultSelection = (n) => (n > 3 ? 2 : 1); // the second real token after [CLS]: 喜 in the default sentence

/** Runs the core; on success swaps in the new trace and returns null, on
 *  failure leaves everything as it was and returns the error. */
function tryCompute(sentence, options) {
  let next;
  try {
    next = page.lab.run(sentence, options);
  } catch (error) {
    return error;
  }
  page.trace?.dispose();
  page.trace = next;
  page.cache = new Map();
  page.sentence = sentence;
  page.options = { ...next.config };
  if (page.selected === null || page.selected >= next.tokens.length) page.selected = defaultSelection(next.tokens.length);
  hideMessage();
  renderChips();
  return null;
}

/** tryCompute for the learner's edits: a failure is shown inline. */
function compute(sentence, options) {
  const error = tryCompute(sentence, options);
  if (error) showMessage(t('msg.lastGood', { error: errorText(error) }));
  return !error;
}

function context(animate) {
  const { trace } = page;
  return {
    trace,
    stage: (id) => {
      if (!page.cache.has(id)) page.cache.set(id, trace.stage(id));
      return page.cache.get(id);
    },
    sentence: page.sentence,
    tokens: trace.tokens,
    ids: trace.ids,
    n: trace.tokens.length,
    selected: page.selected,
    config: trace.config,
    animate: animate && !prefersReducedMotion(),
    select: selectToken,
  };
}

// ---- drawing ---------------------------------------------------------------
function renderChips() {
  const chips = page.trace.tokens.map((token, i) => h('li', {},
    h('button', {
      type: 'button',
      class: 'chip',
      'aria-pressed': String(i === page.selected),
      title: t('page.follow', { token, i }),
      onclick: () => selectToken(i),
    }, h('span', { class: 'text' }, token), h('span', { class: 'id' }, String(page.trace.ids[i])))));
  morphChildren($('token-chips'), h('ol', {}, chips));
}

function renderRail() {
  const items = STAGES.map((stage, k) => h('li', {},
    h('button', { type: 'button', dataset: { stage: stage.id }, onclick: () => { pause(); goTo(k, true); } }, stage.label())));
  clear($('stage-rail')).append(...items);
}

function updateRail() {
  $('stage-rail').querySelectorAll('button').forEach((button, k) => {
    if (k === page.stage) button.setAttribute('aria-current', 'step');
    else button.removeAttribute('aria-current');
    button.classList.toggle('done', k < page.stage);
  });
  const part = STAGES[page.stage].formulaPart;
  document.querySelectorAll('#formula [data-part]').forEach((el) => el.classList.toggle('current', el.dataset.part === part));
}


/** Draws the current stage; animate = play its transition. Resolves when done.
 *  The view is morphed into the page, so an edit (or a step between stages
 *  that share a matrix) changes numbers and colours in place instead of
 *  rebuilding what is there. */
async function show(animate) {
  const id = ++page.renderId;
  stopWarmUp();
  hideTooltip();
  const view = STAGES[page.stage];
  updateRail();
  if (animate && !prefersReducedMotion()) {
    // A step (its script, then its first frame) is over a frame's time: begun late in a frame it makes
    // the next one late. Begun right after a paint, it has the interval and the next frame is its own.
    await afterNextPaint();
    if (id !== page.renderId) return;
    mark('step'); // where a step's own script starts (the benchmark times it from here)
  }
  const ctx = context(animate);
  document.body.dataset.stage = view.id;
  setText($('stage-title'), `${page.stage + 1}. ${view.title(ctx)}`);
  const links = (view.labs ?? []).map((lab) => [' ', h('button', { type: 'button', class: 'why-link', dataset: { lab }, onclick: () => openLab(lab, true) },
    t('labs.open', { lab: LABS[labIndex(lab)].label() }))]);
  morphChildren($('stage-explain'), h('p', {}, view.explain(ctx), links.flat()));
  renderDetail($('detail-body'), $('detail-title'), ctx, view.id);
  renderLab();
  syncUrl();
  setText($('announcer'), t('page.announce', { k: page.stage + 1, n: STAGES.length, title: view.title(ctx) }));
  if (view.id !== page.announcedStage) {
    page.announcedStage = view.id;
    page.host.announce('stage', { stage: view.id, index: page.stage, selected: page.selected });
  }
  // The view is built detached and morphed into the page at once; an
  // animation then plays on the page's elements (see live() in dom.js).
  if (ctx.animate) renderLegend($('legend'), []);
  const fresh = h('div');
  const drawing = view.render(fresh, ctx);
  morphChildren($('stage-body'), fresh);
  const scales = await drawing;
  if (id === page.renderId) {
    renderLegend($('legend'), scales);
    document.body.dataset.rendered = String(id);
  }
}

// Redraws after edits (typing, settings, selection) are coalesced: the core
// recomputes on every change, the page draws once when the task that made the
// changes is over, so the drawing is done before the next frame starts.
let redrawPending = false;
function scheduleRedraw() {
  if (redrawPending) return;
  redrawPending = true;
  queueMicrotask(() => {
    redrawPending = false;
    show(false);
  });
}

// ---- labs ---------------------------------------------------------------------
function renderLabTabs() {
  clear($('lab-tabs')).append(...LABS.map((lab) => h('button', {
    type: 'button',
    dataset: { lab: lab.id },
    'aria-pressed': String(lab.id === page.labId),
    onclick: () => openLab(lab.id === page.labId ? null : lab.id),
  }, lab.label())));
}

/** Draws the open lab again when what it shows has changed (not on every stage step). */
function renderLab(force = false) {
  const key = [page.labId, page.trace, page.selected, language()];
  if (!force && page.labKey && key.every((v, k) => v === page.labKey[k])) return;
  page.labKey = key;
  if (!page.labId) {
    morphChildren($('lab-body'), h('div', {}, h('p', { class: 'hint' }, t('labs.none'))));
    return;
  }
  LABS[labIndex(page.labId)].render(clear($('lab-body')), { ...context(false), lab: page.lab });
}

function openLab(id, scroll = false) {
  page.labId = id;
  renderLabTabs();
  renderLab(true);
  syncUrl();
  if (scroll) $('lab-body').scrollIntoView({ block: 'nearest' });
}

/** Puts the current view into the address bar (soon: see url-state.js). */
function syncUrl() {
  writeUrlSoon({ sentence: page.sentence, stage: STAGES[page.stage].id, selected: page.selected, options: page.options,
    lang: language(), lab: page.labId }, { options: page.defaults });
}

function goTo(k, animate) {
  page.stage = Math.max(0, Math.min(STAGES.length - 1, k));
  return show(animate);
}

function selectToken(i) {
  page.selected = i;
  renderChips();
  scheduleRedraw();
}

// ---- playback --------------------------------------------------------------
function setPlaying(playing) {
  page.playing = playing;
  const button = $('play');
  setText(button, t(playing ? 'page.pause' : 'page.play')); // unchanged on most clicks: no write, no restyle
  if (button.getAttribute('aria-pressed') !== String(playing)) button.setAttribute('aria-pressed', String(playing));
}
function pause() {
  setPlaying(false);
}
async function play() {
  if (page.playing) return;
  setPlaying(true);
  if (page.stage === STAGES.length - 1) await goTo(0, true);
  while (page.playing && page.stage < STAGES.length - 1) {
    await sleep(DWELL_MS / page.speed);
    if (!page.playing) break;
    await goTo(page.stage + 1, true);
  }
  pause(); // the last stage is reached, or the learner paused
}

function setSpeed(speed) {
  page.speed = speed;
  document.documentElement.style.setProperty('--motion', prefersReducedMotion() ? '0ms' : `${Math.round(450 / speed)}ms`);
}

// ---- settings and host messages ---------------------------------------------
function applySettings() {
  if (compute(page.sentence, readSettings())) scheduleRedraw();
}

/** Carries out a validated "set" message from the embedding page. */
function applyHostMessage(message) {
  if ('sentence' in message || 'options' in message) {
    const sentence = message.sentence ?? page.sentence;
    const error = tryCompute(sentence, { ...page.options, ...message.options });
    if (error) {
      showMessage(t('msg.lastGood', { error: errorText(error) }));
      return error;
    }
    $('sentence').value = sentence;
    fillSettings(page.options);
  }
  if ('selected' in message) {
    page.selected = Math.min(message.selected, page.trace.tokens.length - 1);
    renderChips();
  }
  if ('stage' in message) page.stage = stageIndex(message.stage);
  scheduleRedraw();
  return null;
}

function viewState() {
  return { sentence: page.sentence, stage: STAGES[page.stage].id, selected: page.selected,
    tokens: [...page.trace.tokens], options: { ...page.options } };
}

// ---- wiring ----------------------------------------------------------------
function wire() {
  let typing = 0;
  $('sentence').addEventListener('input', () => {
    clearTimeout(typing);
    typing = setTimeout(() => {
      if (compute($('sentence').value, page.options)) scheduleRedraw();
    }, TYPING_DELAY_MS);
  });
  $('sentence-form').addEventListener('submit', (event) => event.preventDefault());
  $('presets').append(...PRESETS.map((text) => h('option', { value: text }, text)));
  $('presets').addEventListener('change', () => {
    const text = $('presets').value;
    if (!text) return;
    $('sentence').value = text;
    $('presets').value = '';
    page.selected = null;
    if (compute(text, page.options)) show(true);
  });
  $('prev').addEventListener('click', () => { pause(); goTo(page.stage - 1, true); });
  $('next').addEventListener('click', () => { pause(); goTo(page.stage + 1, true); });
  $('restart').addEventListener('click', () => { pause(); goTo(0, true); });
  $('play').addEventListener('click', () => (page.playing ? pause() : play()));
  $('speed').addEventListener('change', () => setSpeed(Number($('speed').value)));
  onSettingsChange(applySettings);
  for (const kind of ['png', 'csv', 'latex', 'json']) {
    $(`export-${kind}`).addEventListener('click', () => exportView(kind, STAGES[page.stage].id, page.trace, page.lab.stageNames,
      () => showMessage(t('msg.tokensExport'), 'notice')));
  }

  document.addEventListener('keydown', (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest('input, select, textarea, table.matrix')) return;
    if (event.key === 'ArrowRight') { pause(); goTo(page.stage + 1, true); }
    else if (event.key === 'ArrowLeft') { pause(); goTo(page.stage - 1, true); }
    else if (event.key === 'Home') { pause(); goTo(0, true); }
    else if (event.key === ' ' && !event.target.closest('button')) { event.preventDefault(); page.playing ? pause() : play(); }
    else return;
  });
}

/** Switches every word on the page to another language. */
function switchLanguage(lang) {
  setLanguage(lang);
  $('lang').value = language();
  translateStatic();
  renderRail();
  renderLabTabs();
  setPlaying(page.playing);
  if (page.trace) {
    renderChips();
    show(false);
  }
}

async function boot() {
  mark('script');
  const loading = loadAttentionLab(); // the core downloads and compiles while the page sets up
  const params = new URLSearchParams(location.search);
  setLanguage(pickLanguage(params.get('lang'), navigator.languages ?? [navigator.language]));
  $('lang').value = language();
  translateStatic();
  $('lang').addEventListener('change', () => switchLanguage($('lang').value));
  renderRail();
  setSpeed(1);
  try {
    page.lab = await loading;
  } catch (error) {
    $('loading').textContent = loadFailureMessage(error);
    $('loading').className = 'message error';
    $('loading').setAttribute('role', 'alert');
    return;
  }
  mark('core-ready');
  $('loading').hidden = true;
  page.defaults = { ...page.lab.defaults };
  const { state, ignored } = readUrl(location.search, { sentence: DEFAULT_SENTENCE, stage: STAGES[0].id, labs: LABS.map((l) => l.id) });
  page.labId = state.lab;
  renderLabTabs();
  const notices = [];
  document.body.classList.toggle('embed', state.embed);
  let allowedOrigin = null;
  if (state.origin !== null) {
    allowedOrigin = parseOrigin(state.origin);
    if (!allowedOrigin) notices.push(t('msg.badOrigin'));
  }
  if (ignored.length) notices.push(t('msg.ignored', { names: ignored.join(', ') }));
  let k = stageIndex(state.stage);
  if (k < 0) {
    notices.push(t('msg.noStage', { stage: state.stage }));
    k = 0;
  }
  page.stage = k;
  page.selected = state.selected;
  $('sentence').value = state.sentence;
  let error = tryCompute(state.sentence, { ...page.defaults, ...state.options });
  if (error && error.code === 'invalid_config') {
    notices.push(t('msg.linkSettings', { error: errorText(error) }));
    error = tryCompute(state.sentence, page.defaults);
  }
  if (error) {
    notices.push(t('msg.linkSentence', { error: errorText(error) }));
    $('sentence').value = DEFAULT_SENTENCE;
    tryCompute(DEFAULT_SENTENCE, page.defaults);
  }
  mark('first-run');
  fillSettings(page.options);
  wire();
  if (state.origin === null || allowedOrigin) {
    page.host = connectHost({ allowedOrigin, stageIds: STAGES.map((v) => v.id), apply: applyHostMessage, state: viewState });
  }
  page.announcedStage = STAGES[page.stage].id; // "ready" reports the first stage
  await show(false);
  page.host.announce('ready', { stages: STAGES.map((v) => v.id), state: viewState() });
  if (notices.length) showMessage(notices.join(' '), 'notice');
  document.body.dataset.ready = 'true';
  mark('drawn');
  const after = [...STAGES.slice(page.stage + 1), ...STAGES.slice(0, page.stage).reverse()]; // Next's stages first
  // The two stages Next leads to are drawn right after the first paints, idle time or not.
  warmUp($('stage-body'), page.trace.tokens.length, after.map((view) => (sheet) => view.render(sheet, context(false))), { urgent: 2 });
}

boot();

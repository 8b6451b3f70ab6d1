// One lab: wires the sentence, the step rail, the controls and the settings to
// the wasm core, and hands each step to its view module. It draws; the numbers
// all come from the trace. The page (main.js) is one lab; each <attention-lab>
// element (element.js) is another, in its shadow root, sharing the one core.
//
// About 330 lines on purpose: a lab's state and every handler that shares it,
// in one place to follow from boot() at the end. Each concern of its own lives
// beside it: steps.js and views/ (what a step draws), view-context.js (what from),
// model-controls.js (heads, knock-out, [MASK]), the panels (*-panel.js),
// host-control.js (what a host may change), rail.js, playback.js, url-state.js,
// warm-up.js, exports.js; instance.js says which lab is drawing.
import { loadAttentionLab } from '../lib/attention-lab.js';
import { renderGuess } from './guess-panel.js';
import { createExercises } from './exercise-panel.js';
import { renderHeads } from './heads-panel.js';
import { createModelControls } from './model-controls.js';
import { selectedHead, viewContext } from './view-context.js';
import { renderDetail } from './detail-panel.js';
import { afterNextPaint, h, morphChildren, prefersReducedMotion, setText } from './dom.js';
import { exportView } from './exports.js';
import { connectHost } from './host-messages.js';
import { createHostControl } from './host-control.js';
import { errorText, htmlLang, language, pickLanguage, setLanguage, t, translateStatic } from './i18n.js';
import { enter, enterOn } from './instance.js';
import { fillSettings, onModelFile, onSettingsChange, readSettings } from './settings.js';
import { LABS, labIndex } from './labs/index.js';
import { createLabPanel } from './lab-panel.js';
import { renderLegend } from './legend.js';
import { loadFailureMessage } from './load-failure.js';
import { hideMessage, showMessage } from './messages.js';
import { DEFAULT_SENTENCE, PRESETS } from './presets.js';
import { bindControls, createPlayer } from './playback.js';
import { renderChips as chipsOf, renderRail as railOf, updateRail as markRail } from './rail.js';
import { STEPS, stepIndex } from './steps.js';
import { hideTooltip } from './tooltip.js';
import { mark } from './timeline.js';
import { checkLink, readUrl, writeUrlSoon } from './url-state.js';
import { stopWarmUp, warmUp } from './warm-up.js';

const TYPING_DELAY_MS = 180;
/** Starts a lab. env: { scope: document or a ShadowRoot (where its ids are), frame: what stands
 *  for <body> (its data-* and classes), search: the link's query (the page's URL, or an element's
 *  attributes as one), page: true for the page itself (it writes the address bar, <html lang> and
 *  the title, and talks to a parent frame), announce(type, body): an element's events,
 *  onExercise(result): each answer to Your turn (the page's SCORM session) }. Returns { ready,
 *  apply, switchLanguage, openLab, setExercises, applyLink }: what an element's attributes call. */
export function startApp(env) {
  const $ = (id) => env.scope.getElementById(id);
  const instance = { scope: env.scope, frame: env.frame, lang: 'en' };
  enter(instance);
  enterOn(instance);
  const page = {
    lab: null, defaults: null, host: { announce() {} }, // the core, its default options, the embedding host
    trace: null, cache: new Map(), sentence: DEFAULT_SENTENCE, options: null, // the current run and its stages
    step: 0, selected: 2, renderId: 0, announcedStep: null, // what is shown
    trained: false, where: { layer: 0, head: 0 }, view: null, // a trained model's selected head, and the run seen through it (view-context.js)
    knockOut: [], hidden: null, layerOpen: false, // heads knocked out; what the page hid behind [MASK]; the layer's rest unfolded
  };
  const player = createPlayer({ button: $('play'), count: STEPS.length, at: () => page.step, goTo });
  const pause = () => player.pause();
  const showSentence = (sentence) => { $('sentence').value = sentence; };
  const showSettings = () => fillSettings(page.options, page.lab.models);
  const { isTrained, modelOptions, selectHead, selectLayer, knockOut, hideAt, unhideAt, loadModelFile } = createModelControls(page, {
    compute, redraw: scheduleRedraw, showMessage, showSentence, showModels: showSettings });
  const exercises = createExercises({
    announce: (result) => { page.host.announce('exercise', result); env.onExercise?.(result); },
    showCell: (step, row) => { page.selected = row; renderChips(); pause(); goTo(stepIndex(step), true); } });
  const host = createHostControl(page, { tryCompute, modelOptions, selectHead, renderChips: () => renderChips(), redraw: scheduleRedraw, showSentence, showSettings, setExercises });
  const labs = createLabPanel({ tabs: $('lab-tabs'), body: $('lab-body'), context: () => context(false), changed: syncUrl });

  // ---- running the core --------------------------------------------------------
  const defaultSelection = (n) => (n > 3 ? 2 : 1); // the second real token after [CLS]: 喜 in the default sentence

  /** Runs the core; on success swaps in the new trace and returns null, on
   *  failure leaves everything as it was and returns the error. */
  function tryCompute(sentence, options) {
    const trained = isTrained(options.model);
    let next;
    try {
      next = page.lab.run(sentence, trained ? { ...options, knockOut: page.knockOut } : options);
    } catch (error) {
      return error;
    }
    page.trace?.dispose();
    page.trace = next;
    page.cache = new Map();
    page.sentence = sentence;
    page.options = { ...next.config };
    page.trained = trained;
    if (page.hidden?.sentence !== sentence) page.hidden = null;
    const { layer, head } = page.where;
    page.where = { layer: layer < next.config.layers ? layer : 0, head: head < next.config.heads ? head : 0 };
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

  /** What a step view (or lab) draws from; animate = play its transition. */
  const context = (animate) => viewContext(page, { animate: animate && !prefersReducedMotion(), select: selectToken,
    selectHead, selectLayer, hide: hideAt, unhide: unhideAt });

  // ---- drawing ---------------------------------------------------------------
  const renderChips = () => chipsOf($('token-chips'), page.trace.tokens, page.trace.ids, page.selected, selectToken);
  const renderRail = () => railOf($('step-rail'), (k) => { pause(); goTo(k, true); });
  const updateRail = () => markRail($('step-rail'), $('formula'), page.step);

  /** Draws the current step; animate = play its transition. Resolves when done.
   *  The view is morphed into the page, so an edit (or a step between steps
   *  that share a matrix) changes numbers and colours in place instead of
   *  rebuilding what is there. */
  async function show(animate) {
    const id = ++page.renderId;
    enter(instance);
    stopWarmUp();
    hideTooltip();
    const view = STEPS[page.step];
    updateRail();
    if (animate && !prefersReducedMotion()) {
      // A step (its script, then its first frame) is over a frame's time: begun late in a frame it makes
      // the next one late. Begun right after a paint, it has the interval and the next frame is its own.
      await afterNextPaint();
      if (id !== page.renderId) return;
      enter(instance);
      mark('step'); // where a step's own script starts (the benchmark times it from here)
    }
    const ctx = context(animate);
    env.frame.dataset.step = view.id;
    setText($('step-title'), `${page.step + 1}. ${view.title(ctx)}`);
    const links = (view.labs ?? []).map((lab) => [' ', h('button', { type: 'button', class: 'why-link', dataset: { lab }, onclick: () => labs.open(lab, true) },
      t('labs.open', { lab: LABS[labIndex(lab)].label() }))]);
    morphChildren($('step-explain'), h('p', {}, view.explain(ctx), links.flat()));
    renderDetail($('detail-body'), $('detail-title'), ctx, view);
    renderHeads($('heads-body'), ctx, { onKnockOut: knockOut });
    renderGuess($('guess-body'), ctx, { hidden: page.hidden?.originals, onHide: hideAt });
    exercises.render($('exercise-body'), ctx, scheduleRedraw);
    labs.render();
    syncUrl();
    setText($('announcer'), t('page.announce', { k: page.step + 1, n: STEPS.length, title: view.title(ctx) }));
    if (view.id !== page.announcedStep) {
      page.announcedStep = view.id;
      page.host.announce('step', { step: view.id, index: page.step, selected: page.selected });
    }
    // The view is built detached and morphed into the page at once; an
    // animation then plays on the page's elements (see live() in dom.js).
    if (ctx.animate) renderLegend($('legend'), []);
    const fresh = h('div');
    const drawing = view.render(fresh, ctx);
    morphChildren($('step-body'), fresh);
    const scales = await drawing;
    if (id === page.renderId) {
      enter(instance);
      renderLegend($('legend'), scales);
      env.frame.dataset.rendered = String(id);
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

  /** Puts the current view into the address bar (soon: see url-state.js). */
  function syncUrl() {
    if (!env.page) return;
    writeUrlSoon({ sentence: page.sentence, step: STEPS[page.step].id, selected: page.selected, options: page.options,
      trained: page.trained, where: page.where, lang: language(), lab: labs.id }, { model: page.defaults.model, options: page.lab.defaults });
  }

  function goTo(k, animate) {
    page.step = Math.max(0, Math.min(STEPS.length - 1, k));
    return show(animate);
  }

  function selectToken(i) {
    page.selected = i;
    page.host.announce('select', { selected: i, token: page.trace.tokens[i] });
    renderChips();
    scheduleRedraw();
  }

  // ---- settings and host messages ---------------------------------------------
  function applySettings() {
    const settings = readSettings();
    const switched = settings.model !== page.options.model; // another model: its own options
    if (compute(page.sentence, switched ? modelOptions(settings.model) : settings)) scheduleRedraw();
    if (switched) showSettings(); // the boxes it fixes, greyed out (or the model kept)
  }

  // ---- wiring ----------------------------------------------------------------
  function wire() {
    let typing = 0;
    $('sentence').addEventListener('input', () => {
      clearTimeout(typing);
      typing = setTimeout(() => {
        enter(instance);
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
    bindControls(player, { at: () => page.step, goTo, keys: env.page ? document : env.scope });
    onSettingsChange(applySettings);
    onModelFile(() => page.lab.models.map((m) => m.id), loadModelFile);
    for (const kind of ['png', 'csv', 'latex', 'json']) {
      $(`export-${kind}`).addEventListener('click', () => exportView(kind, STEPS[page.step], selectedHead(page), page.lab,
        () => showMessage(t('msg.tokensExport'), 'notice'), page.trained));
    }
  }

  /** Switches every word on the page to another language. */
  function switchLanguage(lang) {
    setOwnLanguage(lang);
    $('lang').value = language();
    translateStatic(env.scope, { title: env.page });
    renderRail();
    labs.renderTabs();
    player.relabel();
    if (page.trace) {
      renderChips();
      show(false);
    }
  }

  /** The lab's language: t() writes in it; the page's <html lang>, or the element's frame, says it. */
  function setOwnLanguage(lang) {
    instance.lang = lang;
    if (env.page) setLanguage(lang);
    enter(instance);
    if (!env.page) env.frame.lang = htmlLang();
  }

  async function boot() {
    mark('script');
    const loading = loadAttentionLab(); // the core downloads and compiles while the page sets up
    const params = new URLSearchParams(env.search);
    setOwnLanguage(pickLanguage(params.get('lang'), navigator.languages ?? [navigator.language]));
    $('lang').value = language();
    translateStatic(env.scope, { title: env.page });
    $('lang').addEventListener('change', () => switchLanguage($('lang').value));
    renderRail();
    player.setSpeed(1);
    try {
      page.lab = await loading;
      enter(instance);
    } catch (error) {
      enter(instance);
      $('loading').textContent = loadFailureMessage(error);
      $('loading').className = 'message error';
      $('loading').setAttribute('role', 'alert');
      $('loading').hidden = false;
      return;
    }
    mark('core-ready');
    $('loading').hidden = true;
    // The trained model, unless its file could not be read.
    page.defaults = modelOptions(page.lab.models.find((m) => m.trained)?.id ?? 'random');
    const { state, ignored } = readUrl(env.search, { sentence: DEFAULT_SENTENCE, step: STEPS[0].id, labs: LABS.map((l) => l.id) });
    labs.select(state.lab);
    const badExercises = exercises.set(state.exercises);
    const { notices, allowedOrigin, step } = checkLink(state, ignored, stepIndex);
    env.frame.classList.toggle('embed', state.embed);
    page.step = step;
    page.selected = state.selected;
    page.where = { layer: state.layer ?? 0, head: state.head ?? 0 };
    notices.push(...host.firstRun(state));
    if (badExercises.length) notices.push(t('ex.ignored', { items: badExercises.join(', ') }));
    for (const name of ['layer', 'head']) {
      if (state[name] !== null && state[name] !== page.where[name]) notices.push(t('msg.ignored', { names: name }));
    }
    mark('first-run');
    showSettings();
    wire();
    if (!env.page) page.host = { announce: env.announce };
    else if (state.origin === null || allowedOrigin) {
      page.host = connectHost({ allowedOrigin, stepIds: STEPS.map((v) => v.id), apply: host.apply, state: host.state });
    }
    page.announcedStep = STEPS[page.step].id; // "ready" reports the first step
    await show(false);
    page.host.announce('ready', { steps: STEPS.map((v) => v.id), models: page.lab.models.map((m) => ({ ...m })), state: host.state() });
    if (notices.length) showMessage(notices.join(' '), 'notice');
    env.frame.dataset.models = page.lab.models.map((m) => m.id).join(' '); // the models the core loaded
    env.frame.dataset.ready = 'true';
    mark('drawn');
    const after = [...STEPS.slice(page.step + 1), ...STEPS.slice(0, page.step).reverse()]; // Next's steps first
    // The two steps Next leads to are drawn right after the first paints, idle time or not.
    warmUp($('step-body'), page.trace.tokens.length, after.map((view) => (sheet) => view.render(sheet, context(false))),
      { urgent: 2, instance });
  }

  function setExercises(text) {
    const bad = exercises.set(text);
    if (bad.length) showMessage(t('ex.ignored', { items: bad.join(', ') }), 'notice');
    scheduleRedraw();
  }

  const ready = boot();
  return {
    ready,
    /** Carries out a "set" (see host-messages.js) once the lab is ready; returns its error or null. */
    apply: async (message) => { await ready; enter(instance); return page.lab ? host.apply(message) : null; },
    switchLanguage: async (lang) => { await ready; switchLanguage(lang); },
    openLab: async (id) => { await ready; enter(instance); labs.open(LABS.some((l) => l.id === id) ? id : null, false); },
    setExercises: async (text) => { await ready; enter(instance); setExercises(text); },
    applyLink: async (search, what) => { await ready; enter(instance); if (page.lab) host.applyLink(search, what); },
  };
}

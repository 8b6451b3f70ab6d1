// One lab: wires the sentence, the step rail, the controls, the settings and
// the panels to the lab's state and to the wasm core, and hands each step to
// its view module. The page (main.js) is one lab; each <attention-lab>
// element (element.js) is another, in its shadow root, sharing the one core.
// Everything a lab has — its elements, words, state, player, warm-up, address
// bar and host — is made here and passed on; nothing is shared through a module.
import { loadAttentionLab } from '../../lib/attention-lab.js';
import { createGuessPanel } from '../heads/guess-panel.js';
import { createLazyExercises } from './exercises.js';
import { createHeadsPanel } from '../heads/heads-panel.js';
import { createModelControls } from '../heads/model-controls.js';
import { viewContext } from '../steps/view-context.js';
import { createDetailPanel } from '../panels/detail-panel.js';
import { afterNextPaint, h, morphChildren, prefersReducedMotion, setText } from '../ui/dom.js';
import { exportView } from '../steps/exports.js';
import { connectHost } from '../host/host-messages.js';
import { createHostControl } from '../host/host-control.js';
import { pickLanguage } from '../strings/i18n.js';
import { createLanguage } from './language.js';
import { createSettings } from './settings.js';
import { EXPERIMENTS, experimentIndex } from '../experiments/index.js';
import { createExperimentPanel } from '../panels/experiment-panel.js';
import { createLabState } from './lab-state.js';
import { renderLegend } from '../matrix/legend.js';
import { loadFailureMessage } from './load-failure.js';
import { createMessageLine } from './messages.js';
import { DEFAULT_SENTENCE } from './presets.js';
import { bindSentenceInput } from './sentence-input.js';
import { createLazyTour } from './lazy-tour.js';
import { bindControls, createPlayer } from './playback.js';
import { renderRail as railOf, updateRail as markRail } from './rail.js';
import { STEPS, stepIndex } from '../steps/index.js';
import { hideTooltip } from '../ui/tooltip.js';
import { mark } from './timeline.js';
import { checkLink, createUrlWriter, readUrl } from './url-state.js';
import { createWarmUp } from './warm-up.js';
import { createLabWords } from './lab-words.js';
import { progressOf, restoreProgress } from './progress.js';

const EXPERIMENT_IDS = EXPERIMENTS.map((e) => e.id);

/** Starts a lab. env: { scope: document or a ShadowRoot (where its ids are), frame: what stands
 *  for <body> (its data-* and classes), search: the link's query (the page's URL, or an element's
 *  attributes as one), page: true for the page itself (it writes the address bar, <html lang> and
 *  the title, and talks to a parent frame), announce(type, body): an element's events,
 *  onExercise(result): each answer to Your turn, onTour(move): each move in the guided tour (the page's SCORM or cmi5 session),
 *  onLanguage(lang): the lab's language changed }.
 *  Returns { ready, apply, switchLanguage, openExperiment, setExercises, applyLink }: what an element's attributes call,
 *  { progress(), restore(saved) }: where the learner is, for a platform to keep (host/scorm.js, host/cmi5.js),
 *  lang(): its language, and dispose(): ends the lab (see below). */
export function startLab(env) {
  const $ = (id) => env.scope.getElementById(id);
  // The lab's life: its abort removes every listener the lab put outside its own
  // elements, and dispose() ends the rest (runs, workers, observers, timers).
  const life = new AbortController();
  const { signal } = life;
  const state = createLabState(STEPS.length);
  const message = createMessageLine($('input-message'));
  const language = createLanguage({ select: $('lang'), scope: env.scope, env, message }); // the lab's words: every text it writes
  const warmUp = createWarmUp(env.frame);
  const address = env.page ? createUrlWriter(signal) : null;
  let host = { announce() {} }; // the embedding host: a parent frame, or the element's events
  let renderId = 0; // the drawing under way; an older one stops where it is
  let announcedStep = null;

  const player = createPlayer({ button: $('play'), count: STEPS.length, at: () => state.step, goTo, frame: env.frame, words: () => language.words });
  const pause = () => player.pause();
  const showSentence = (sentence) => { $('sentence').value = sentence; };
  const settings = createSettings($);
  const showSettings = () => settings.fill(state.options, state.core.models, language.words.t);
  const controls = createModelControls(state, {
    words: () => language.words, compute, redraw: scheduleRedraw, message, showSentence, showModels: showSettings,
  });
  const exercises = createLazyExercises($('exercise-body'), {
    announce: (result) => { host.announce('exercise', result); env.onExercise?.(result); },
    showCell: (step, row) => { state.chooseToken(row); renderChips(); pause(); goTo(stepIndex(step), true); },
    redraw: () => scheduleRedraw(), loaded: () => { if (state.run) exercises.render(context(false)); } });
  const experiments = createExperimentPanel({ tabs: $('experiment-tabs'), body: $('experiment-body'), context: () => context(false), changed: syncUrl,
    hooks: { loadModel: (id, bytes) => controls.loadModelFile(id, bytes) } });
  const tour = createLazyTour($('tour'), { state, compute, context: () => context(false), experiments, show, showSentence, showSettings,
    wordsChanged: () => labWords.changed(),
    announce: (type, body) => { host.announce(type, body); env.onTour?.(body); } });
  const hostControl = createHostControl(state, { words: () => language.words, message, tryCompute, selectHead: controls.selectHead,
    renderChips: () => renderChips(), redraw: scheduleRedraw, showSentence, showSettings, setExercises, tour });
  const detail = createDetailPanel($('detail-body'), $('detail-title'));
  const heads = createHeadsPanel($('heads-body'));
  const guesses = createGuessPanel($('guess-body'));

  // ---- running the core --------------------------------------------------------
  /** Runs the core; on success the new run is shown and null returned, on
   *  failure everything stays as it was and the error is returned. */
  function tryCompute(sentence, options) {
    const error = state.runSentence(sentence, options);
    if (!error) {
      message.hide();
      renderChips();
    }
    return error;
  }

  /** tryCompute for the learner's edits: a failure is shown inline. */
  function compute(sentence, options) {
    const error = tryCompute(sentence, options);
    if (error) message.show(language.words.t('msg.lastGood', { error: language.words.errorText(error) }));
    return !error;
  }

  /** What a step view (or experiment) draws from; animate = play its transition. */
  const context = (animate) => viewContext(state, language.words, { animate: animate && !prefersReducedMotion(), select: selectToken,
    selectHead: controls.selectHead, selectLayer: controls.selectLayer, hide: controls.hideAt, unhide: controls.unhideAt,
    setLayerOpen: (open) => state.openLayer(open) });

  // ---- drawing ---------------------------------------------------------------
  const labWords = createLabWords({ chips: $('token-chips'), bar: $('word-bar'), state, words: () => language.words, select: selectToken,
    redraw: () => scheduleRedraw(), message, signal });
  const renderChips = () => labWords.render();
  const renderRail = () => railOf($('step-rail'), (k) => { pause(); goTo(k, true); }, language.words.t);
  const updateRail = () => markRail($('step-rail'), $('formula'), state.step);

  /** Draws the current step; animate = play its transition. Resolves when done.
   *  The view is morphed into the page, so an edit (or a step between steps
   *  that share a matrix) changes numbers and colours in place instead of
   *  rebuilding what is there. */
  async function show(animate) {
    if (signal.aborted) return;
    const id = ++renderId;
    warmUp.stop();
    hideTooltip(env.frame);
    const view = STEPS[state.step];
    updateRail();
    if (animate && !prefersReducedMotion()) {
      // A step (its script, then its first frame) is over a frame's time: begun late in a frame it makes
      // the next one late. Begun right after a paint, it has the interval and the next frame is its own.
      // Till then the old view may stand over a freed run: it takes no pointer or focus.
      $('step-body').inert = true;
      await afterNextPaint();
      if (id !== renderId || signal.aborted) return;
      mark('step'); // where a step's own script starts (the benchmark times it from here)
    }
    const ctx = context(animate);
    const { t } = ctx;
    env.frame.dataset.step = view.id;
    env.frame.dataset.layer = String(state.where.layer); // the head every step shows (a trained model's; 0 0 for the seeded one)
    env.frame.dataset.head = String(state.where.head);
    setText($('step-title'), `${state.step + 1}. ${view.title(ctx)}`);
    const links = (view.experiments ?? []).map((name) => [' ', h('button', { type: 'button', class: 'why-link', dataset: { experiment: name },
      onclick: () => experiments.open(name, true) }, t('experiments.open', { name: EXPERIMENTS[experimentIndex(name)].label(t) }))]);
    const note = view.note?.(ctx);
    morphChildren($('step-explain'), h('div', {}, h('p', {}, view.explain(ctx), links.flat()), note ? h('p', { class: 'step-note' }, note) : null));
    tour.render(ctx);
    detail.render(ctx, view);
    heads.render(ctx, { onKnockOut: controls.knockOut });
    guesses.render(ctx, { hidden: state.hidden?.originals, onHide: controls.hideAt });
    exercises.render(ctx);
    experiments.render();
    syncUrl();
    setText($('announcer'), t('page.announce', { k: state.step + 1, n: STEPS.length, title: view.title(ctx) }));
    if (view.id !== announcedStep) {
      announcedStep = view.id;
      host.announce('step', { step: view.id, index: state.step, selected: state.selected });
    }
    // The view is built detached and morphed into the page at once; an
    // animation then plays on the page's elements (see live() in dom.js).
    if (ctx.animate) renderLegend($('legend'), [], t);
    const fresh = h('div');
    const drawing = view.render(fresh, ctx);
    morphChildren($('step-body'), fresh);
    $('step-body').inert = false;
    let scales;
    try {
      scales = await drawing;
    } catch (error) {
      // A drawing that a newer one replaced (another run, step or head) may find its run freed
      // after one of its awaits: it stops there, and what it drew is gone already.
      if (id !== renderId || signal.aborted) return;
      throw error;
    }
    if (id === renderId) {
      renderLegend($('legend'), scales, t);
      env.frame.dataset.rendered = String(id);
    }
  }

  // Redraws after edits (typing, settings, selection) are coalesced: the core
  // recomputes on every change, the lab draws once when the task that made the
  // changes is over, so the drawing is done before the next frame starts.
  let redrawPending = false;
  function scheduleRedraw() {
    if (redrawPending) return;
    redrawPending = true;
    queueMicrotask(() => {
      redrawPending = false;
      if (state.run) show(false);
    });
  }

  /** Puts the page's view into the address bar (soon: see url-state.js). */
  function syncUrl() {
    address?.soon({ sentence: state.sentence, step: STEPS[state.step].id, selected: state.selected, options: state.options,
      trained: state.trained, where: state.where, headPicked: state.headPicked, lang: language.words.lang, experiment: experiments.id, tour: state.tour,
      words: state.words, byWords: state.wordsWanted },
    { model: state.defaults.model, options: state.core.defaults });
  }

  function goTo(k, animate) {
    state.chooseStep(k);
    return show(animate);
  }

  function selectToken(i) {
    state.chooseToken(i);
    host.announce('select', { selected: i, token: state.run.tokens[i] });
    renderChips();
    scheduleRedraw();
  }

  function applySettings() {
    const chosen = settings.read();
    const switched = chosen.model !== state.options.model; // another model: its own options
    if (compute(state.sentence, switched ? state.modelOptions(chosen.model) : chosen)) scheduleRedraw();
    if (switched) showSettings(); // the boxes it fixes, greyed out (or the model kept)
  }

  function setExercises(text) {
    const bad = exercises.set(text);
    if (bad.length) message.show(language.words.t('ex.ignored', { items: bad.join(', ') }), 'notice');
    scheduleRedraw();
  }

  // ---- wiring ----------------------------------------------------------------
  function wire() {
    bindSentenceInput($, { signal,
      typed: (text) => { if (compute(text, state.options)) scheduleRedraw(); },
      picked: (text) => {
        state.chooseToken(null);
        if (compute(text, state.options)) show(true);
      } });
    bindControls(player, { $, at: () => state.step, goTo, keys: env.page ? document : env.scope, signal });
    $('tour-start').addEventListener('click', () => tour.go(0));
    settings.onChange(applySettings);
    settings.onModelFile(() => state.core.models.map((m) => m.id), controls.loadModelFile);
    for (const kind of ['png', 'svg', 'csv', 'latex', 'json']) {
      $(`export-${kind}`).addEventListener('click', () => exportView(kind, STEPS[state.step], state.headView, state.core,
        () => message.show(language.words.t('msg.tokensExport'), 'notice'), state.trained,
        { sentence: state.sentence, selected: state.selected, t: language.words.t }));
    }
  }

  /** Switches every word of the lab to another language. */
  async function switchLanguage(lang) {
    if (!(await language.use(lang))) return;
    env.onLanguage?.(language.words.lang);
    renderRail();
    experiments.renderTabs(language.words.t);
    player.relabel();
    if (state.run) {
      renderChips();
      show(false);
    }
  }

  async function boot() {
    mark('script');
    const loading = loadAttentionLab(); // the core downloads and compiles while the page sets up
    const params = new URLSearchParams(env.search);
    const first = language.use(pickLanguage(params.get('lang'), navigator.languages ?? [navigator.language]));
    $('lang').addEventListener('change', () => switchLanguage($('lang').value));
    await first;
    env.onLanguage?.(language.words.lang);
    renderRail();
    player.setSpeed(1);
    let core;
    try {
      core = await loading;
    } catch (error) {
      if (signal.aborted) return;
      $('loading').textContent = loadFailureMessage(language.words.t, error);
      $('loading').className = 'message error';
      $('loading').setAttribute('role', 'alert');
      $('loading').hidden = false;
      return;
    }
    if (signal.aborted) return; // removed while the core loaded
    mark('core-ready');
    $('loading').hidden = true;
    $('loading').classList.add('done'); // and stays hidden (start-core.js's timer)
    // The trained model, unless its file could not be read.
    state.useCore(core, core.models.find((m) => m.trained)?.id ?? 'random');
    const { state: link, ignored } = readUrl(env.search, { sentence: DEFAULT_SENTENCE, step: STEPS[0].id, experiments: EXPERIMENT_IDS });
    experiments.select(link.experiment);
    experiments.renderTabs(language.words.t);
    const badExercises = exercises.set(link.exercises);
    const { notices, allowedOrigin, step } = checkLink(link, ignored, stepIndex, language.words.t);
    env.frame.classList.toggle('embed', link.embed);
    state.chooseStep(step);
    state.chooseToken(link.selected);
    if (link.head !== null || link.layer !== null) state.chooseHead(link.head ?? 0, link.layer ?? 0); // else the core's article head
    notices.push(...hostControl.firstRun(link));
    const wordsNotice = await labWords.fromLink(link.words, link.byWords);
    if (signal.aborted) return;
    if (wordsNotice) notices.push(wordsNotice);
    if (badExercises.length) notices.push(language.words.t('ex.ignored', { items: badExercises.join(', ') }));
    for (const name of ['layer', 'head']) {
      if (link[name] !== null && link[name] !== state.where[name]) notices.push(language.words.t('msg.ignored', { names: name }));
    }
    mark('first-run');
    showSettings();
    wire();
    if (!env.page) host = { announce: env.announce };
    else if (link.origin === null || allowedOrigin) {
      host = connectHost({ allowedOrigin, stepIds: STEPS.map((v) => v.id), apply: hostControl.apply, state: hostControl.report, signal });
    }
    if (link.tour) await tour.go(link.card ?? 0);
    if (signal.aborted) return;
    announcedStep = STEPS[state.step].id; // "ready" reports the first step
    await show(false);
    if (signal.aborted) return;
    host.announce('ready', { steps: STEPS.map((v) => v.id), models: core.models.map((m) => ({ ...m })), state: hostControl.report() });
    if (notices.length) message.show(notices.join(' '), 'notice');
    env.frame.dataset.models = core.models.map((m) => m.id).join(' '); // the models the core loaded
    env.frame.dataset.ready = 'true';
    mark('drawn');
    const after = [...STEPS.slice(state.step + 1), ...STEPS.slice(0, state.step).reverse()]; // Next's steps first
    // The two steps Next leads to are drawn right after the first paints, idle time or not.
    warmUp.start($('step-body'), state.run.tokens.length, after.map((view) => (sheet) => view.render(sheet, context(false))), { urgent: 2 });
  }

  /** Ends the lab: no drawing after, the player and warm-up stopped, the experiments' runs (their
   *  Workers) and the tour's and exercises' watchers ended, the core's run freed, every listener
   *  outside the lab's elements removed. The core itself stays: other labs share it. */
  function dispose() {
    if (signal.aborted) return;
    life.abort();
    renderId += 1;
    player.pause();
    warmUp.stop();
    experiments.dispose();
    exercises.dispose();
    host = { announce() {} };
    state.dispose();
  }

  const ready = boot();
  const whenReady = (action) => async (...args) => {
    await ready;
    return state.core && !signal.aborted ? action(...args) : null;
  };
  return {
    ready,
    /** Carries out a "set" (see host-messages.js) once the lab is ready; returns its error or null. */
    apply: whenReady((set) => hostControl.apply(set)),
    switchLanguage: async (lang) => { await ready; await switchLanguage(lang); },
    openExperiment: whenReady((id) => experiments.open(EXPERIMENT_IDS.includes(id) ? id : null, false)),
    setExercises: whenReady(setExercises),
    applyLink: whenReady((search, what) => hostControl.applyLink(search, what)),
    /** Where the learner is (progress.js), null before the first run. */
    progress: () => progressOf(state, exercises),
    /** Back to a progress() of an earlier visit; what does not fit (a damaged save) is left aside. */
    restore: whenReady((saved) => restoreProgress(saved, { state, apply: hostControl.apply, exercises, tour, redraw: scheduleRedraw })),
    /** Opens the tour at card (from 0), or closes it (tour null). */
    setTour: whenReady((id, card) => (id === 'article' ? tour.go(card ?? 0) : state.tour && tour.leave(false))),
    /** Shows the solution of every exercise of the set (a platform's showSolutions()). */
    revealAnswers: whenReady(() => exercises.revealAll()),
    /** The lab's language now ('en', 'zh' or 'zh-Hant'). */
    lang: () => language.words.lang,
    dispose,
  };
}

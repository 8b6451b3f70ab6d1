// One lab: makes the sentence, the step rail, the controls, the settings and
// the panels, and passes them on — to the draw loop (draw-step.js), the start
// (boot-lab.js) and the controls' wiring (wire-lab.js). The page (main.js) is
// one lab; each <attention-lab> element (element.js) is another, in its shadow
// root, sharing the one core. Everything a lab has — its elements, words,
// state, player, warm-up, address bar and host — is made here and passed on;
// nothing is shared through a module.
import { createGuessPanel } from '../heads/guess-panel.js';
import { createCodePanel } from '../steps/code-panel.js';
import { createLazyExercises } from './exercises.js';
import { createHeadsPanel } from '../heads/heads-panel.js';
import { createModelControls } from '../heads/model-controls.js';
import { createDetailPanel } from '../panels/detail-panel.js';
import { createHostControl } from './host-control.js';
import { createLanguage } from './language.js';
import { createSettings } from './settings.js';
import { EXPERIMENTS } from '../experiments/index.js';
import { createExperimentPanel } from '../panels/experiment-panel.js';
import { createLabState } from './lab-state.js';
import { createMessageLine } from './messages.js';
import { createLazyTour } from './lazy-tour.js';
import { createPlayer } from './playback.js';
import { renderRail } from './rail.js';
import { STEPS, stepIndex } from '../steps/index.js';
import { createUrlWriter } from './url-state.js';
import { createWarmUp } from './warm-up.js';
import { createLabWords } from './lab-words.js';
import { progressOf, restoreProgress } from './progress.js';
import { createStepDrawing } from './draw-step.js';
import { bootLab } from './boot-lab.js';
import { wireLab } from './wire-lab.js';
import { createLabActions } from './lab-actions.js';

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
  $('formula-bar').hidden = false; // the document is parsed (index.html says why it waits)
  // The lab's life: its abort removes every listener the lab put outside its own
  // elements, and dispose() ends the rest (runs, workers, observers, timers).
  const life = new AbortController();
  const { signal } = life;
  const state = createLabState(STEPS.length);
  const message = createMessageLine($('input-message'));
  const language = createLanguage({ select: $('lang'), scope: env.scope, env, message }); // the lab's words: every text it writes
  let host = { announce() {} }; // the embedding host: a parent frame, or the element's events
  const words = () => language.words;
  const parts = {};
  const lab = { $, env, signal, state, message, language, parts, address: env.page ? createUrlWriter(signal) : null,
    host: () => host, setHost: (next) => { host = next; },
    showSettings: () => parts.settings.fill(state.options, state.core.models, language.words.t),
    renderRail: () => renderRail($('step-rail'), (k) => { parts.player.pause(); drawing.goTo(k, true); }, language.words.t),
    wire: () => wireLab(lab) };
  const drawing = lab.drawing = createStepDrawing(lab);
  const { tryCompute, compute, context, selectToken, setExercises, switchLanguage } = Object.assign(lab, createLabActions(lab));
  const { show, scheduleRedraw: redraw } = drawing;
  const renderChips = () => parts.labWords.render();
  const showSentence = (sentence) => { $('sentence').value = sentence; };

  parts.warmUp = createWarmUp(env.frame);
  parts.player = createPlayer({ button: $('play'), count: STEPS.length, at: () => state.step, goTo: drawing.goTo, frame: env.frame, words, signal });
  parts.settings = createSettings($);
  const { showSettings } = lab;
  const controls = parts.controls = createModelControls(state, { words, compute, redraw, message, showSentence, showModels: showSettings });
  const exercises = parts.exercises = createLazyExercises($('exercise-body'), {
    announce: (result) => { host.announce('exercise', result); env.onExercise?.(result); },
    showCell: (step, row) => { state.chooseToken(row); renderChips(); parts.player.pause(); drawing.goTo(stepIndex(step), true); },
    redraw: () => redraw(), loaded: () => { if (state.run) exercises.render(context(false)); }, names: () => state.core?.exerciseNames ?? null });
  const experiments = parts.experiments = createExperimentPanel({ tabs: $('experiment-tabs'), body: $('experiment-body'), context: () => context(false),
    changed: drawing.syncUrl, hooks: { loadModel: (id, bytes) => controls.loadModelFile(id, bytes) } });
  const tour = parts.tour = createLazyTour($('tour'), { state, compute, context: () => context(false), experiments, show, showSentence, showSettings,
    wordsChanged: () => parts.labWords.changed(), showCode: () => parts.code.set(true),
    announce: (type, body) => { host.announce(type, body); env.onTour?.(body); } });
  const hostControl = parts.hostControl = createHostControl(state, { words, message, tryCompute, selectHead: controls.selectHead,
    renderChips, redraw, showSentence, showSettings, setExercises, tour });
  parts.detail = createDetailPanel($('detail-body'), $('detail-title'));
  parts.code = createCodePanel($('step-code'), $('code-toggle'), { redraw: () => redraw() });
  parts.heads = createHeadsPanel($('heads-body'));
  parts.guesses = createGuessPanel($('guess-body'));
  parts.labWords = createLabWords({ chips: $('token-chips'), bar: $('word-bar'), state, words, select: selectToken, redraw: () => redraw(), message, signal });

  /** Ends the lab: no drawing after, the player and warm-up stopped, the experiments' runs (their
   *  Workers) and the tour's and exercises' watchers ended, the core's run freed, every listener
   *  outside the lab's elements removed. The core itself stays: other labs share it. */
  function dispose() {
    if (signal.aborted) return;
    life.abort();
    drawing.stop();
    parts.player.pause();
    parts.warmUp.stop();
    experiments.dispose();
    exercises.dispose();
    parts.code.dispose();
    host = { announce() {} };
    state.dispose();
  }

  const ready = bootLab(lab);
  const whenReady = (action) => async (...args) => {
    await ready;
    return state.core && !signal.aborted ? action(...args) : null;
  };
  const experimentIds = EXPERIMENTS.map((e) => e.id);
  return {
    ready,
    /** Carries out a "set" (see host-messages.js) once the lab is ready; returns its error or null. */
    apply: whenReady((set) => hostControl.apply(set)),
    switchLanguage: async (lang) => { await ready; await switchLanguage(lang); },
    openExperiment: whenReady((id) => experiments.open(experimentIds.includes(id) ? id : null, false)),
    setExercises: whenReady(setExercises),
    applyLink: whenReady((search, what) => hostControl.applyLink(search, what)),
    /** Where the learner is (progress.js), null before the first run. */
    progress: () => progressOf(state, exercises),
    /** Back to a progress() of an earlier visit; what does not fit (a damaged save) is left aside. */
    restore: whenReady((saved) => restoreProgress(saved, { state, apply: hostControl.apply, exercises, tour, redraw })),
    /** Opens the tour at card (from 0), or closes it (tour null). */
    setTour: whenReady((id, card) => (id === 'article' ? tour.go(card ?? 0) : state.tour && tour.leave(false))),
    /** Shows the solution of every exercise of the set (a platform's showSolutions()). */
    revealAnswers: whenReady(() => exercises.revealAll()),
    /** How many exercises its set has; null before the core is loaded. */
    exerciseCount: () => exercises.count(),
    /** The lab's language now ('en', 'zh' or 'zh-Hant'). */
    lang: () => language.words.lang,
    dispose,
  };
}

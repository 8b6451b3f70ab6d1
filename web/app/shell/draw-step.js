// The draw loop of one lab: the current step drawn into the page (its title,
// explanation, panels and matrices), redraws after edits coalesced into one,
// and the address bar kept in step. Made by start-lab.js, which passes the
// lab's parts in `lab` (read when a drawing starts, so parts made later count).
import { afterNextPaint, h, morphChildren, prefersReducedMotion, setText } from '../ui/dom.js';
import { EXPERIMENTS, experimentIndex } from '../experiments/index.js';
import { renderLegend } from '../matrix/legend.js';
import { STEPS } from '../steps/index.js';
import { hideTooltip } from '../ui/tooltip.js';
import { mark } from './timeline.js';
import { revealCurrentStep, updateRail } from './rail.js';

/** lab: { $, env, signal, state, language, address, host(), context(animate), parts: { warmUp,
 *  experiments, tour, detail, heads, guesses, exercises, controls } }. Returns { show(animate),
 *  goTo(k, animate), scheduleRedraw(), syncUrl(), stop(), announced(id) }. */
export function createStepDrawing(lab) {
  const { $, env, signal, state } = lab;
  let renderId = 0; // the drawing under way; an older one stops where it is
  let announcedStep = null;

  /** Draws the current step; animate = play its transition. Resolves when done.
   *  The view is morphed into the page, so an edit (or a step between steps
   *  that share a matrix) changes numbers and colours in place instead of
   *  rebuilding what is there. */
  async function show(animate) {
    if (signal.aborted) return;
    const id = ++renderId;
    const { warmUp, experiments, tour, detail, heads, guesses, exercises, controls } = lab.parts;
    warmUp.stop();
    hideTooltip(env.frame);
    const view = STEPS[state.step];
    updateRail($('step-rail'), $('formula'), state.step);
    afterNextPaint().then(() => { if (id === renderId && !signal.aborted) revealCurrentStep($('step-rail')); });
    if (animate && !prefersReducedMotion()) {
      // A step (its script, then its first frame) is over a frame's time: begun late in a frame it makes
      // the next one late. Begun right after a paint, it has the interval and the next frame is its own.
      // Till then the old view may stand over a freed run: it takes no pointer or focus.
      $('step-body').inert = true;
      await afterNextPaint();
      if (id !== renderId || signal.aborted) return;
      mark('step'); // where a step's own script starts (the benchmark times it from here)
    }
    const ctx = lab.context(animate);
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
    lab.parts.code.render(ctx, view);
    heads.render(ctx, { onKnockOut: controls.knockOut });
    guesses.render(ctx, { hidden: state.hidden?.originals, onHide: controls.hideAt });
    exercises.render(ctx);
    experiments.render();
    syncUrl();
    setText($('announcer'), t('page.announce', { k: state.step + 1, n: STEPS.length, title: view.title(ctx) }));
    if (view.id !== announcedStep) {
      announcedStep = view.id;
      lab.host().announce('step', { step: view.id, index: state.step, selected: state.selected });
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
    lab.address?.soon({ sentence: state.sentence, step: STEPS[state.step].id, selected: state.selected, options: state.options,
      trained: state.trained, where: state.where, headPicked: state.headPicked, lang: lab.language.words.lang,
      experiment: lab.parts.experiments.id, tour: state.tour, words: state.wordGroups, byWords: state.wordsWanted, whatIf: state.whatIf,
      code: lab.parts.code.open },
    { model: state.defaults.model, options: state.core.defaults });
  }

  return {
    show,
    scheduleRedraw,
    syncUrl,
    goTo(k, animate) {
      state.chooseStep(k);
      return show(animate);
    },
    /** No drawing under way goes on (the lab ends). */
    stop() { renderId += 1; },
    /** The step "ready" reports: a step announced already is not announced again. */
    announced(id) { announcedStep = id; },
  };
}

// Where a learner is in a lab, as plain data a learning platform keeps between
// visits (host/scorm.js writes it to cmi.suspend_data):
//   { s: the sentence, t: the selected token, p: the step's id,
//     x: Your turn's position (panels/exercise-panel.js, snapshot()),
//     c: the tour's [card, answers], or null when no tour is open }
import { STEPS, stepIndex } from '../steps/index.js';

/** The lab's progress now (state: the lab's state), or null before its first run. */
export function progressOf(state, exercises) {
  if (!state.run) return null;
  return { s: state.sentence, t: state.selected, p: STEPS[state.step].id, x: exercises.snapshot(),
    c: state.tour && [state.tour.card, state.tour.answers] };
}

/** Goes back to a saved progress: apply(set) carries out a host's "set"
 *  (shell/host-control.js), tour.go(k) opens the tour (it may load first),
 *  redraw() draws; what does not fit (a damaged save) is left aside. */
export async function restoreProgress(saved, { state, apply, exercises, tour, redraw }) {
  if (!saved || typeof saved !== 'object') return;
  const set = {};
  if (typeof saved.s === 'string' && saved.s !== state.sentence) set.sentence = saved.s;
  if (Number.isInteger(saved.t) && saved.t >= 0) set.selected = saved.t;
  if (typeof saved.p === 'string' && stepIndex(saved.p) >= 0) set.step = saved.p;
  apply(set);
  await exercises.restore(saved.x);
  if (Array.isArray(saved.c) && Number.isInteger(saved.c[0])) {
    await tour.go(saved.c[0]);
    const answers = saved.c[1] && typeof saved.c[1] === 'object' ? saved.c[1] : {};
    for (const [id, choice] of Object.entries(answers)) {
      if (typeof choice === 'string' || Number.isInteger(choice)) state.answerTour(id, choice);
    }
  }
  redraw();
}

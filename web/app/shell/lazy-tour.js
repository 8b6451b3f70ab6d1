// The guided tour, loaded when it first opens: its cards, control and words are
// a chunk of their own (tour/tour.js), as Your turn's are (exercises.js). What
// the tour draws with is handed to it, so the chunk imports no page module.
import { h, morphChildren } from '../ui/dom.js';
import { fmt, share, sig } from '../ui/format.js';
import { headNumber } from '../heads/head-names.js';
import { sentenceGap, translator } from '../strings/i18n.js';
import { stepIndex } from '../steps/index.js';
import { ensureLaterStyles } from '../ui/later-styles.js';

/** One lab's tour. el: the tour's section; lab: what tour/tour-control.js takes
 *  but stepIndex (state, compute, context, experiments, show, showSentence,
 *  showSettings, announce). Returns { go(k) (a promise), leave(finished), render(ctx) }. */
export function createLazyTour(el, lab) {
  let parts = null; // { control, panel }, once loaded
  let loading = null;
  // The card's styles are later.css's: the chunk draws once they are there; its last card asks
  // the after-the-article module (a layer's heads together).
  const load = () => (loading ??= Promise.all([import('../tour/tour.js'), ensureLaterStyles(el), lab.state.compute.loadAfterArticle()]).then(([{ createTourControl, createTourPanel }]) => {
    const control = createTourControl(lab.state, { ...lab, stepIndex });
    parts = { control, panel: createTourPanel(el, control, { h, morphChildren, fmt, share, sig, headNumber, translator, sentenceGap }) };
    return parts;
  }));
  return {
    go: (k) => load().then(({ control }) => control.go(k)),
    leave: (finished) => parts?.control.leave(finished),
    /** Draws the card of an open tour (nothing before the tour has loaded: none is open). */
    render: (ctx) => parts?.panel.render(ctx, lab.state.tour),
  };
}

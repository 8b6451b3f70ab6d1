// "Your turn", loaded when it is needed: the panel's code and words are a chunk
// of their own (panels/exercise-panel.js), fetched when a link, an attribute or
// a host names an exercise set, when a saved visit had answers, or when the
// panel comes into the view once the lab's first view is drawn (watch()). Until then the panel shows its
// title and intro, and nothing else of it is on the page.
import { h, morphChildren } from '../ui/dom.js';
import { fmt } from '../ui/format.js';
import { STEPS } from '../steps/index.js';
import { sentences, translator } from '../strings/i18n.js';
import { parseExercises } from '../panels/exercise-set.js';
import { ensureLaterStyles } from '../ui/later-styles.js';

/** One lab's Your turn. body: the panel's body element; announce(result),
 *  showCell(step, row): as the panel's; redraw(): draws the lab again (after an
 *  answer); loaded(panel): the panel is there (the lab draws it, if it has a run);
 *  names(): the core's exercise names (null before the core is loaded: a set is then
 *  read again once it is). Returns { set(text) → ignored items, count() (the set's
 *  size, null before the core), render(ctx), watch(), snapshot(), restore(saved), revealAll(),
 *  dispose() }. */
export function createLazyExercises(body, { announce, showCell, redraw, loaded, names }) {
  const parse = (given) => (names() ? parseExercises(given, names()) : { items: [], ignored: [] });
  let panel = null; // the panel, once loaded
  let loading = null;
  let text = ''; // the set as last given
  let disposed = false;
  // The exercises' styles are later.css's: the panel draws once they are there.
  const load = () => (loading ??= Promise.all([import('../panels/exercise-panel.js'), ensureLaterStyles(body)]).then(([{ createExercises }]) => {
    if (disposed) return null;
    panel = createExercises({ announce, showCell }, { h, morphChildren, fmt, STEPS, translator, parseExercises: parse, sentences });
    panel.set(text);
    watching?.disconnect();
    loaded();
    return panel;
  }));
  // In the view: the learner has scrolled to it (watched from the first drawn view on: before it,
  // the page is shorter than it will be, and the panel would seem in view when it is not).
  let watching = null;

  return {
    /** A new set (the text of ?exercises=…); returns the items it ignored. A set given loads the panel. */
    set(next) {
      text = next ?? '';
      if (panel) panel.set(text);
      else if (text.trim()) load();
      return parse(text).ignored;
    },
    count: () => (names() ? parse(text).items.length : null),
    render(ctx) {
      panel?.render(body, ctx, redraw);
    },
    /** Loads the panel when it comes into the view (at once where nothing can tell). */
    watch() {
      if (disposed || panel || watching) return;
      if (typeof IntersectionObserver !== 'function') {
        load();
        return;
      }
      watching = new IntersectionObserver((seen) => { if (seen.some((e) => e.isIntersecting)) load(); });
      watching.observe(body);
    },
    snapshot: () => panel?.snapshot() ?? null,
    /** Back to a saved position (loading the panel for it first). */
    async restore(saved) {
      if (!saved) return false;
      return (await load())?.restore(saved) ?? false;
    },
    /** Shows every exercise's solution (loading the panel for it first). */
    async revealAll() {
      (await load())?.revealAll();
      redraw();
    },
    /** Stops watching for the panel to come into view; a chunk still loading is not made into a panel. */
    dispose() {
      disposed = true;
      watching?.disconnect();
    },
  };
}

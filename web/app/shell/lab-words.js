// A lab's token chips and the learner's words (tokens made into one word): the
// chips, the words' line under them, what a change of words sets off, and the
// words a link names. Which tokens make a word, and attention between words,
// are the core's (its after-the-article module, loaded with the first word).
import { renderChips } from './rail.js';
import { createWordBar } from './word-bar.js';

/**
 * chips, bar: the chips' list and the words' line; state: the lab's state; words(): its words
 * (t, errorText); select(i): a chip clicked; redraw(): every view again; message: the lab's message
 * line; signal: the lab's life. Returns { render(), changed(), fromLink(words) → a notice or null }.
 */
export function createLabWords({ chips, bar, state, words, select, redraw, message, signal }) {
  const render = () => {
    renderChips(chips, { tokens: state.run.tokens, ids: state.run.ids, selected: state.selected, onSelect: select,
      onWord: (from, to) => { state.addWordGroup(from, to); changed(); }, words: state.wordGroups, t: words().t });
    wordBar.render();
  };
  /** The learner's words changed: the chips, the words' line, every view, the link (the views by
   *  words once the core's after-the-article module, which computes them, is there). */
  function changed() {
    render();
    redraw();
    if (state.wordGroups.length && !state.core.afterArticleLoaded) {
      state.core.loadAfterArticle().then(redraw, (error) => message.show(words().errorText(error)));
    }
  }
  const wordBar = createWordBar({ bar, chips, state, changed, words, signal });

  return {
    render,
    changed,
    /** The words of a link (and whether views show them), if the core takes them as words of this
     *  sentence; else a notice saying why they were left aside. */
    async fromLink(list, byWords) {
      state.showByWords(byWords);
      if (!list.length || !state.run) return null;
      try {
        await state.core.loadAfterArticle();
        if (signal.aborted) return null;
        state.view.wordAttention(list); // the core says whether they are words of this sentence
        state.setWordGroups(list);
        render();
        return null;
      } catch (error) {
        return words().t('words.ignored', { error: words().errorText(error) });
      }
    },
  };
}

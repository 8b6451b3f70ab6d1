// What an embedding host can change in a lab, and what it is told: a framed
// lab's "set" messages (host-messages.js checks their shape first), an
// element's attributes (shell/element.js: the link's parameters, read again), the
// first run from a link, and the state every report carries.
import { DEFAULT_SENTENCE } from './presets.js';
import { EXPERIMENTS } from '../experiments/index.js';
import { STEPS, stepIndex } from '../steps/index.js';
import { readUrl } from './url-state.js';
import { sentences } from '../strings/i18n.js';

const EXPERIMENT_IDS = EXPERIMENTS.map((e) => e.id);

/** state: the lab's state; words(): its words now; message: its message line; its actions
 *  (shell/start-lab.js). Returns { apply, applyLink, firstRun, report }. */
export function createHostControl(state, { words, message, tryCompute, selectHead, renderChips, redraw, showSentence, showSettings, setExercises, tour }) {
  /** Carries out a validated "set" message from the embedding page. */
  function apply(set) {
    if ('sentence' in set || 'options' in set) {
      const sentence = set.sentence ?? state.sentence;
      const model = set.options?.model;
      const base = model !== undefined && model !== state.options.model ? state.modelOptions(model) : state.options;
      const error = tryCompute(sentence, { ...base, ...set.options });
      if (error) {
        message.show(words().t('msg.lastGood', { error: words().errorText(error) }));
        return error;
      }
      showSentence(sentence);
      showSettings();
    }
    if ('layer' in set || 'head' in set) {
      const layer = Math.min(set.layer ?? state.where.layer, state.run.config.layers - 1);
      selectHead(Math.min(set.head ?? state.where.head, state.run.config.heads - 1), layer);
    }
    if ('selected' in set) {
      state.chooseToken(set.selected);
      renderChips();
    }
    if ('exercises' in set) setExercises(set.exercises);
    if ('tour' in set) {
      if (set.tour) tour.go(set.card ?? 0);
      else if (state.tour) tour.leave(false);
    }
    const step = set.step ?? set.stage; // `stage`: the older name
    if (step !== undefined) state.chooseStep(stepIndex(step));
    redraw();
    return null;
  }

  /** What every report to the host carries. */
  function report() {
    return { sentence: state.sentence, step: STEPS[state.step].id, selected: state.selected,
      tokens: [...state.run.tokens], options: { ...state.options }, ...state.where, knockOut: state.knockOut.map((k) => ({ ...k })),
      tour: state.tour ? { tour: 'article', card: state.tour.card } : null };
  }

  /** An element's attributes changed (`what`: 'run' for the sentence and the
   *  model's options, else the one link parameter): the lab follows them. */
  function applyLink(search, what) {
    const { t } = words();
    const { state: link, ignored } = readUrl(search, { sentence: state.sentence, step: STEPS[state.step].id, experiments: EXPERIMENT_IDS });
    const notices = ignored.length ? [t('msg.ignored', { names: ignored.join(t('list.sep')) })] : [];
    let set = {};
    // The run's attributes as a whole (one removed goes back to its model's default),
    // unless one is not valid: then it is named and the view stays.
    if (what === 'run' && !ignored.length) {
      set = { sentence: link.sentence, options: { ...state.modelOptions(link.options.model ?? state.defaults.model), ...link.options } };
    }
    else if (what === 'step' && stepIndex(link.step) < 0) notices.push(t('msg.noStep', { step: link.step }));
    else if (what === 'step') set = { step: link.step };
    else if (what === 'token' && link.selected !== null) set = { selected: link.selected };
    else if ((what === 'head' || what === 'layer') && link[what] !== null) set = { [what]: link[what] };
    else if (what === 'tour') set = { tour: link.tour, card: link.card ?? 0 };
    const error = apply(set);
    if (notices.length && !error) message.show(sentences(words().lang, ...notices), 'notice');
  }

  /** The first run, from a link's state: what cannot be shown falls back to
   *  the defaults, then to the example sentence. Returns notices to show. */
  function firstRun(link) {
    const { t, errorText } = words();
    const notices = [];
    showSentence(link.sentence);
    const model = link.options.model ?? state.defaults.model;
    let error = tryCompute(link.sentence, { ...state.modelOptions(model), ...link.options });
    if (error && ['invalid_config', 'invalid_option', 'unknown_model'].includes(error.code)) {
      notices.push(t('msg.linkSettings', { error: errorText(error) }));
      error = tryCompute(link.sentence, state.defaults);
    }
    if (error) {
      notices.push(t('msg.linkSentence', { error: errorText(error) }));
      showSentence(DEFAULT_SENTENCE);
      tryCompute(DEFAULT_SENTENCE, state.defaults);
    }
    return notices;
  }

  return { apply, applyLink, firstRun, report };
}

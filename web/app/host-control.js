// What an embedding host can change in a lab, and what it is told: a framed
// lab's "set" messages (host-messages.js checks their shape first), an
// element's attributes (element.js: the link's parameters, read again), the
// first run from a link, and the state every report carries.
import { DEFAULT_SENTENCE } from './presets.js';
import { errorText, t } from './i18n.js';
import { LABS } from './labs/index.js';
import { showMessage } from './messages.js';
import { STEPS, stepIndex } from './steps.js';
import { readUrl } from './url-state.js';

/** page: the lab's state; the lab's own actions (app.js). Returns { apply, applyLink, firstRun, state }. */
export function createHostControl(page, { tryCompute, modelOptions, selectHead, renderChips, redraw, showSentence, showSettings, setExercises }) {
  /** Carries out a validated "set" message from the embedding page. */
  function apply(message) {
    if ('sentence' in message || 'options' in message) {
      const sentence = message.sentence ?? page.sentence;
      const model = message.options?.model;
      const base = model !== undefined && model !== page.options.model ? modelOptions(model) : page.options;
      const error = tryCompute(sentence, { ...base, ...message.options });
      if (error) {
        showMessage(t('msg.lastGood', { error: errorText(error) }));
        return error;
      }
      showSentence(sentence);
      showSettings();
    }
    if ('layer' in message || 'head' in message) {
      const layer = Math.min(message.layer ?? page.where.layer, page.trace.config.layers - 1);
      selectHead(Math.min(message.head ?? page.where.head, page.trace.config.heads - 1), layer);
    }
    if ('selected' in message) {
      page.selected = Math.min(message.selected, page.trace.tokens.length - 1);
      renderChips();
    }
    if ('exercises' in message) setExercises(message.exercises);
    const step = message.step ?? message.stage; // `stage`: the older name
    if (step !== undefined) page.step = stepIndex(step);
    redraw();
    return null;
  }

  function state() {
    return { sentence: page.sentence, step: STEPS[page.step].id, selected: page.selected,
      tokens: [...page.trace.tokens], options: { ...page.options }, ...page.where, knockOut: page.knockOut.map((k) => ({ ...k })) };
  }

  /** An element's attributes changed (`what`: 'run' for the sentence and the
   *  model's options, else the one link parameter): the lab follows them. */
  function applyLink(search, what) {
    const { state, ignored } = readUrl(search, { sentence: page.sentence, step: STEPS[page.step].id, labs: LABS.map((l) => l.id) });
    const notices = ignored.length ? [t('msg.ignored', { names: ignored.join(', ') })] : [];
    let message = {};
    // The run's attributes as a whole (one removed goes back to its model's default),
    // unless one is not valid: then it is named and the view stays.
    if (what === 'run' && !ignored.length) {
      message = { sentence: state.sentence, options: { ...modelOptions(state.options.model ?? page.defaults.model), ...state.options } };
    }
    else if (what === 'step' && stepIndex(state.step) < 0) notices.push(t('msg.noStep', { step: state.step }));
    else if (what === 'step') message = { step: state.step };
    else if (what === 'token' && state.selected !== null) message = { selected: state.selected };
    else if ((what === 'head' || what === 'layer') && state[what] !== null) message = { [what]: state[what] };
    const error = apply(message);
    if (notices.length && !error) showMessage(notices.join(' '), 'notice');
  }

  /** The first run, from a link's state: what cannot be shown falls back to
   *  the defaults, then to the example sentence. Returns notices to show. */
  function firstRun(link) {
    const notices = [];
    showSentence(link.sentence);
    const model = link.options.model ?? page.defaults.model;
    let error = tryCompute(link.sentence, { ...modelOptions(model), ...link.options });
    if (error && ['invalid_config', 'invalid_option', 'unknown_model'].includes(error.code)) {
      notices.push(t('msg.linkSettings', { error: errorText(error) }));
      error = tryCompute(link.sentence, page.defaults);
    }
    if (error) {
      notices.push(t('msg.linkSentence', { error: errorText(error) }));
      showSentence(DEFAULT_SENTENCE);
      tryCompute(DEFAULT_SENTENCE, page.defaults);
    }
    return notices;
  }

  return { apply, applyLink, firstRun, state };
}

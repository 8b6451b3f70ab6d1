// A lab's start: its words and the core loading side by side, then the link
// read (its step, token, head, words, exercises, experiment, tour), the first
// run, the first drawing, "ready" for the host, and the warm-up of the steps
// Next leads to. Called once by start-lab.js with the lab it made.
import { loadAttentionLab } from '../../lib/attention-lab.js';
import { pickLanguage, sentences } from '../strings/i18n.js';
import { EXPERIMENTS } from '../experiments/index.js';
import { loadFailureMessage } from './load-failure.js';
import { DEFAULT_SENTENCE } from './presets.js';
import { STEPS, stepIndex } from '../steps/index.js';
import { mark } from './timeline.js';
import { checkLink, readUrl } from './url-state.js';

/** lab: { $, env, signal, state, message, language, drawing, context(animate), parts, showSettings(),
 *  renderRail(), wire(), switchLanguage(lang), setHost(host) }. Resolves when the first step is drawn
 *  (or the core could not load, or the lab ended). */
// What the page's start-core.js fetched and compiled before the modules ran ({ wasm, model }, or
// nothing), taken once: the library keeps none of it once loaded, and neither does the page.
function takeEarly() {
  const early = globalThis.attentionLabEarly;
  delete globalThis.attentionLabEarly;
  return early;
}

export async function bootLab(lab) {
  const { $, env, signal, state, language, drawing } = lab;
  const { experiments, exercises, hostControl, labWords, tour, warmUp, player } = lab.parts;
  const t = (key, values) => language.words.t(key, values);
  mark('script');
  const loading = loadAttentionLab(takeEarly()); // the core downloads and compiles while the page sets up
  const params = new URLSearchParams(env.search);
  const first = language.use(pickLanguage(params.get('lang'), navigator.languages ?? [navigator.language]));
  $('lang').addEventListener('change', () => lab.switchLanguage($('lang').value));
  await first;
  env.onLanguage?.(language.words.lang);
  lab.renderRail();
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
  const { state: link, ignored } = readUrl(env.search, { sentence: DEFAULT_SENTENCE, step: STEPS[0].id, experiments: EXPERIMENTS.map((e) => e.id) });
  experiments.select(link.experiment);
  experiments.renderTabs(language.words.t);
  const badExercises = exercises.set(link.exercises);
  const { notices, allowedOrigin, step } = checkLink(link, ignored, stepIndex, language.words.t);
  env.frame.classList.toggle('embed', link.embed);
  state.chooseStep(step);
  state.chooseToken(link.selected);
  if (link.head !== null || link.layer !== null) state.chooseHead(link.head ?? 0, link.layer ?? 0); // else the core's article head
  state.setWhatIf(link.whatIf);
  lab.parts.code.set(link.code);
  notices.push(...hostControl.firstRun(link));
  const wordsNotice = await labWords.fromLink(link.words, link.byWords);
  if (signal.aborted) return;
  if (wordsNotice) notices.push(wordsNotice);
  if (badExercises.length) notices.push(t('ex.ignored', { items: badExercises.join(t('list.sep')) }));
  for (const name of ['layer', 'head']) {
    if (link[name] !== null && link[name] !== state.where[name]) notices.push(t('msg.ignored', { names: name }));
  }
  mark('first-run');
  lab.showSettings();
  lab.wire();
  if (!env.page) lab.setHost({ announce: env.announce });
  else if (window.parent !== window && (link.origin === null || allowedOrigin)) { // in a frame: the protocol's chunk
    const { connectHost } = await import('../host/host-messages.js');
    if (signal.aborted) return;
    lab.setHost(connectHost({ allowedOrigin, stepIds: STEPS.map((v) => v.id), apply: hostControl.apply, state: hostControl.report, signal }));
  }
  if (link.tour) await tour.go(link.card ?? 0);
  if (signal.aborted) return;
  drawing.announced(STEPS[state.step].id); // "ready" reports the first step
  await drawing.show(false);
  if (signal.aborted) return;
  lab.host().announce('ready', { steps: STEPS.map((v) => v.id), models: core.models.map((m) => ({ ...m })), state: hostControl.report() });
  if (notices.length) lab.message.show(sentences(lab.language.words.lang, ...notices), 'notice');
  env.frame.dataset.models = core.models.map((m) => m.id).join(' '); // the models the core loaded
  env.frame.dataset.ready = 'true';
  mark('drawn');
  exercises.watch(); // Your turn loads when the learner scrolls to it
  const after = [...STEPS.slice(state.step + 1), ...STEPS.slice(0, state.step).reverse()]; // Next's steps first
  // The two steps Next leads to are drawn right after the first paints, idle time or not.
  warmUp.start($('step-body'), state.run.tokens.length, after.map((view) => (sheet) => view.render(sheet, lab.context(false))), { urgent: 2 });
}

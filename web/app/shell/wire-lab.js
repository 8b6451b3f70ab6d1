// A lab's controls wired to it once it has run: the sentence box and examples,
// playback and its keys, the tour's start, the settings and a model file, and
// the export buttons. Called by boot-lab.js; every listener outside the lab's
// elements goes with the lab's signal.
import { makeScale } from '../matrix/colors.js';
import { fmt } from '../ui/format.js';
import { headNumber } from '../heads/head-names.js';
import { STEPS } from '../steps/index.js';
import { bindSentenceInput } from './sentence-input.js';
import { bindControls } from './playback.js';

/** lab: { $, env, signal, state, message, language, drawing, compute(sentence, options), parts,
 *  showSettings() }. */
export function wireLab(lab) {
  const { $, env, signal, state, drawing } = lab;
  const { player, tour, settings, controls } = lab.parts;
  bindSentenceInput($, { signal,
    typed: (text) => { if (lab.compute(text, state.options)) drawing.scheduleRedraw(); },
    picked: (text) => {
      state.chooseToken(null);
      if (lab.compute(text, state.options)) drawing.show(true);
    } });
  bindControls(player, { $, at: () => state.step, goTo: drawing.goTo, keys: env.page ? document : env.scope, signal });
  $('tour-start').addEventListener('click', () => tour.go(0));
  $('code-toggle').addEventListener('click', () => {
    lab.parts.code.set(!lab.parts.code.open);
    drawing.scheduleRedraw();
  });
  settings.onChange(() => {
    const chosen = settings.read();
    const switched = chosen.model !== state.options.model; // another model: its own options
    if (lab.compute(state.sentence, switched ? state.modelOptions(chosen.model) : chosen)) drawing.scheduleRedraw();
    if (switched) lab.showSettings(); // the boxes it fixes, greyed out (or the model kept)
  });
  settings.onModelFile(() => state.core.models.map((m) => m.id), controls.loadModelFile);
  for (const kind of ['png', 'svg', 'csv', 'latex', 'json', 'python']) {
    // The exports' code is a chunk, loaded at the first click on one (nothing needs it to draw); it
    // saves the lab as it is once the chunk is there, and nothing if the lab has gone meanwhile.
    $(`export-${kind}`).addEventListener('click', async () => {
      const { exportView } = await import('../steps/exports.js');
      if (signal.aborted) return;
      await exportView(kind, STEPS[state.step], state.view, state.core,
        () => lab.message.show(lab.language.words.t('msg.tokensExport'), 'notice'), state.trained,
        { sentence: state.sentence, selected: state.selected, t: lab.language.words.t }, { makeScale, fmt, headNumber });
    });
  }
}

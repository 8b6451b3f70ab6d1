// Experiment: what if a head's row of weights were different. The learner changes the selected
// token's row in the selected head and the core runs the model again with it (core.whatIf). Its
// view is a chunk loaded when it opens, with the after-the-article module that compares the runs.
import { h, morphChildren } from '../ui/dom.js';
import { fmt } from '../ui/format.js';
import { translator } from '../strings/i18n.js';
import { guessList } from '../heads/guess-panel.js';
import { headNumber } from '../heads/head-names.js';
import { lazyExperiment } from './lazy.js';

export default lazyExperiment({
  id: 'what-if',
  label: (t) => t('experiment.whatIf.label'),
  words: { loading: 'experiments.loading', failed: 'experiments.loadFailed' },
  load: (ctx) => Promise.all([import('./what-if-view.js'), ctx.compute.loadAfterArticle()]).then(([{ createWhatIfView }]) => (element) =>
    createWhatIfView(element, { h, morphChildren, fmt, translator, guessList, headNumber })),
});

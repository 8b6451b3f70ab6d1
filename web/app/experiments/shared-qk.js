// Experiment: one matrix for queries and keys, or two. How symmetric the lab's
// model's heads are, and the Q/K experiment in a training lab of its own. Its
// view and the training lab are chunks loaded when it opens.
import { h, morphChildren } from '../ui/dom.js';
import { fmt } from '../ui/format.js';
import { translator } from '../strings/i18n.js';
import { labelText } from '../heads/heads-panel.js';
import { lazyExperiment } from './lazy.js';
import { trainingLabDeps } from './training.js';

export default lazyExperiment({
  id: 'shared-qk',
  label: (t) => t('experiment.shared-qk.label'),
  words: { loading: 'experiments.loading', failed: 'experiments.loadFailed' },
  load: (ctx) => Promise.all([import('./shared-qk-view.js'), import('../training/training-lab.js'), ctx.compute.loadAfterArticle()])
    .then(([{ createSharedQkView }, { createTrainingLab }]) => (element, { hooks, current }) => createSharedQkView(element, {
      h, morphChildren, fmt, translator, labelText, trainingLab: (root) => createTrainingLab(root, trainingLabDeps(hooks, current)) })),
});

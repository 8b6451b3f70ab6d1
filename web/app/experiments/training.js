// Experiment: watch attention learn. The training lab (web/app/training/) is a
// chunk loaded when this opens, and it keeps its runs while the lab draws
// again: one per lab, made once and updated with each view.
import { clear, h, morphChildren } from '../ui/dom.js';
import { fmt } from '../ui/format.js';
import { translator } from '../strings/i18n.js';
import { headGrid } from '../heads/head-grid.js';
import { lazyExperiment } from './lazy.js';

/** What a training lab draws with and reaches (training/training-lab.js's deps), for a lab's hooks
 *  ({ loadModel }) and its latest view context (current()). */
export const trainingLabDeps = (hooks, current) => ({
  h, clear, morphChildren, fmt, translator, headGrid,
  // Served beside the page (web/lib/), not bundled: its worker loads from there.
  loadTraining: () => import('../../lib/training.js'),
  textUrl: () => new URL('../models/training-text.txt', import.meta.url).href,
  loadModel: hooks.loadModel,
  errorText: (error) => current().errorText(error),
});

export default lazyExperiment({
  id: 'train',
  label: (t) => t('experiment.train.label'),
  words: { loading: 'experiment.train.loading', failed: 'experiment.train.loadFailed' },
  className: 'training-lab',
  load: () => import('../training/training-lab.js').then(({ createTrainingLab }) => (element, { hooks, current }) =>
    createTrainingLab(element, trainingLabDeps(hooks, current))),
});

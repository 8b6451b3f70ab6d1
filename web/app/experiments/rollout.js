// Experiment: attention rollout through every layer (Abnar & Zuidema, 2020),
// beside the last layer's head-averaged attention. Its view is a chunk loaded when it opens.
import { h, morphChildren } from '../ui/dom.js';
import { fmt, share } from '../ui/format.js';
import { translator } from '../strings/i18n.js';
import { renderMatrix } from '../matrix/matrix-view.js';
import { groupAt, groupLabels } from '../ui/token-groups.js';
import { lazyExperiment } from './lazy.js';

export default lazyExperiment({
  id: 'rollout',
  label: (t) => t('experiment.rollout.label'),
  words: { loading: 'experiments.loading', failed: 'experiments.loadFailed' },
  load: (ctx) => Promise.all([import('./rollout-view.js'), ctx.compute.loadAfterArticle()]).then(([{ createRolloutView }]) => (element) =>
    createRolloutView(element, { h, morphChildren, fmt, share, translator, renderMatrix, groupAt, groupLabels })),
});

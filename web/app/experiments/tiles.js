// Experiment: softmax(QKᵀ/√d_k)·V tile by tile, as large models compute it
// (FlashAttention's online softmax). Its view is a chunk loaded when it opens.
import { h, morphChildren } from '../ui/dom.js';
import { fmt } from '../ui/format.js';
import { translator } from '../strings/i18n.js';
import { lazyExperiment } from './lazy.js';

export default lazyExperiment({
  id: 'tiles',
  label: (t) => t('experiment.tiles.label'),
  words: { loading: 'experiments.loading', failed: 'experiments.loadFailed' },
  load: (ctx) => Promise.all([import('./tiles-view.js'), ctx.compute.loadAfterArticle()])
    .then(([{ createTilesView }]) => (element) => createTilesView(element, { h, morphChildren, fmt, translator })),
});

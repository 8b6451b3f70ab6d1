// Experiment: queries and keys as geometry (after Yeh et al., "AttentionViz", 2023). The selected
// head's keys in the plane of the selected query, and random vectors whose lengths and scores grow
// with d_k. Its view is a chunk loaded when it opens, with the after-the-article module that computes it.
import { h, morphChildren } from '../ui/dom.js';
import { fmt, share } from '../ui/format.js';
import { sentenceGap, translator } from '../strings/i18n.js';
import { headNumber } from '../heads/head-names.js';
import { lazyExperiment } from './lazy.js';

export default lazyExperiment({
  id: 'geometry',
  label: (t) => t('experiment.geometry.label'),
  words: { loading: 'experiments.loading', failed: 'experiments.loadFailed' },
  load: (ctx) => Promise.all([import('./geometry-view.js'), ctx.compute.loadAfterArticle()]).then(([{ createGeometryView }]) => (element) =>
    createGeometryView(element, { h, morphChildren, fmt, share, translator, headNumber, sentenceGap })),
});

// Experiment: what each layer would guess. The prediction layer read after the
// embeddings and after every layer at a hidden token (the "logit lens",
// nostalgebraist 2020). Its view is a chunk loaded when it opens.
import { h, morphChildren } from '../ui/dom.js';
import { translator } from '../strings/i18n.js';
import { guessList, whyNoGuess } from '../heads/guess-panel.js';
import { headsInText } from '../heads/head-names.js';
import { hideToken, MASK, maskNumber } from '../heads/masking.js';
import { sig } from '../ui/format.js';
import { lazyExperiment } from './lazy.js';

export default lazyExperiment({
  id: 'lens',
  label: (t) => t('experiment.lens.label'),
  words: { loading: 'experiments.loading', failed: 'experiments.loadFailed' },
  load: () => import('./lens-view.js').then(({ createLensView }) => (element) =>
    createLensView(element, { h, morphChildren, translator, guessList, whyNoGuess, headsInText, hideToken, MASK, maskNumber, sig })),
});

// Experiment: watch attention learn. The training lab (web/app/training/) is a
// chunk loaded when this opens, and it keeps its runs while the lab draws
// again: one per lab, made once (create) and updated with each view (update).
import { clear, h, morphChildren } from '../ui/dom.js';
import { fmt } from '../ui/format.js';
import { translator } from '../strings/i18n.js';
import { headGrid } from '../heads/head-grid.js';

export default {
  id: 'train',
  label: (t) => t('experiment.train.label'),
  /** The lab's own training lab: { element, update(ctx), dispose() }. hooks: { loadModel(id, bytes) }. */
  create(ctx, hooks) {
    const element = h('div', { class: 'training-lab' }, h('p', { class: 'hint' }, ctx.t('experiment.train.loading')));
    let lab = null;
    let latest = ctx;
    let disposed = false;
    import('../training/training-lab.js').then(({ createTrainingLab }) => {
      if (disposed) return;
      lab = createTrainingLab(element, {
        h, clear, morphChildren, fmt, translator, headGrid,
        // Served beside the page (web/lib/), not bundled: its worker loads from there.
        loadTraining: () => import('../../lib/training.js'),
        textUrl: () => new URL('../models/training-text.txt', import.meta.url).href,
        loadModel: hooks.loadModel,
        errorText: (error) => latest.errorText(error),
      });
      lab.update(latest);
    }, (error) => {
      if (disposed) return;
      element.replaceChildren(h('p', { class: 'message error', role: 'alert' }, latest.t('experiment.train.loadFailed', { error: String(error?.message ?? error) })));
    });
    return {
      element,
      update(next) {
        latest = next;
        lab?.update(next);
      },
      dispose() {
        disposed = true;
        lab?.dispose();
        lab = null;
      },
    };
  },
};

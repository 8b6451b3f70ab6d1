// The training lab's two-run experiments: which runs each starts, what differs
// between them, and the verdict on them, the trainer's (training.js's
// Trainer.lossVerdict), in the words of each experiment.

// Each experiment's two runs: [key, what differs], the first the reference its verdict compares with;
// its verdict's words (verdict.<worse|better|same>) and what they quote: the two final held-out losses
// (3 decimals) as losses, and per figure [report key, decimals, its slot in the reference, in the variant].
export const EXPERIMENT_RUNS = Object.freeze({
  scaling: {
    runs: [['with', { scaled: true }], ['without', { scaled: false }]],
    verdict: 'train.verdict',
    losses: ['with', 'without'],
    figures: [['oneHotShare', 2, 'withShare', 'withoutShare'], ['gradWq', 3, 'withGrad', 'withoutGrad']],
  },
  sharedQk: {
    runs: [['two', { sharedQk: false }], ['shared', { sharedQk: true }]],
    verdict: 'train.qkVerdict',
    losses: ['two', 'one'],
    figures: [['symmetricShare', 2, 'twoSym', 'oneSym'], ['selfShare', 2, 'twoSelf', 'oneSelf']],
  },
});

/** The last held-out loss a run reported, or NaN. */
export const lastHeldout = (r) => r.reports.findLast((p) => p.heldoutLoss !== undefined && p.heldoutLoss !== null)?.heldoutLoss ?? Number.NaN;

/** deps: { h, fmt, schedule() (draws again once a verdict arrives) }. Returns { draw(runs, trainer, t) }:
 *  the verdict's paragraph for the lab's two runs, null for one. */
export function createVerdict({ h, fmt, schedule }) {
  let verdicts = new Map(); // the trainer's verdict on two final held-out losses, by 'reference variant'

  function draw(runs, trainer, t) {
    if (runs.length !== 2) return null;
    const [reference, variant] = runs;
    const done = runs.every((r) => ['finished', 'stopped'].includes(r.run?.state));
    if (!done) return h('p', { class: 'hint train-verdict', dataset: { verdict: 'pending' } }, t('train.verdictPending'));
    const a = lastHeldout(reference);
    const b = lastHeldout(variant);
    const key = `${a} ${b}`;
    const kind = verdicts.get(key);
    if (!kind) {
      if (!verdicts.has(key)) {
        verdicts = new Map([[key, null]]); // the last pair only
        trainer.lossVerdict(a, b).then((v) => { if (verdicts.has(key)) verdicts.set(key, v); schedule(); }, () => {});
      }
      return h('p', { class: 'hint train-verdict', dataset: { verdict: 'pending' } }, t('train.verdictPending'));
    }
    const { verdict: words, losses, figures } = EXPERIMENT_RUNS[reference.experiment];
    const [ref, other] = [reference.reports.at(-1), variant.reports.at(-1)];
    const quoted = { [losses[0]]: fmt(a, 3), [losses[1]]: fmt(b, 3) };
    for (const [key, decimals, refSlot, otherSlot] of figures) {
      Object.assign(quoted, { [refSlot]: fmt(ref[key], decimals), [otherSlot]: fmt(other[key], decimals) });
    }
    return h('p', { class: 'train-verdict', dataset: { verdict: kind, experiment: reference.experiment } }, t(`${words}.${kind}`, quoted));
  }

  return { draw };
}

// What if one head's row of attention weights were changed (core.whatIf; the lab's what-if
// experiment): the row edited by the core's rules (cpp/include/attention/what_if.hpp), the
// trained model run with softmax's row and with the edited one, and what moved between the two.
// It travels with the after-the-article module (trace-after.js's AFTER_JS), whose functions compare
// the runs; checks.js's helpers come in from core.js (imported here, they would leave the first load
// for a chunk of their own).

// One row of a stage, copied out of the whole matrix.
const rowOf = (m, i) => m.data.slice(i * m.cols, (i + 1) * m.cols);

/** api: the core's API; after: the after-the-article module; checks: checks.js's CHECKS. See core.whatIf. */
export function whatIfOf({ api, after, checks }, sentence, options = {}) {
  const { checkFlag, checkHead, checkIndex, describe, fail, unwrap } = checks;
  if (options === null || typeof options !== 'object') fail(`options must be an object, got ${describe(options)}`, 'invalid_option');
  const { model, row, edits = [], renormalise = true, knockOut = [], topK = 5, traditional = false } = options;
  const { layer, head } = checkHead(options);
  checkIndex('row', row);
  checkFlag('renormalise', renormalise);
  if (!Array.isArray(edits)) fail(`edits must be an array of { key, weight }, got ${describe(edits)}`, 'invalid_argument');
  for (const e of edits) {
    if (e === null || typeof e !== 'object') fail(`each edit is { key, weight }, got ${describe(e)}`, 'invalid_argument');
    checkIndex('an edit\'s key', e.key);
    if (typeof e.weight !== 'number') fail(`an edit's weight must be a number from 0 to 1, got ${describe(e.weight)}`, 'invalid_argument');
  }
  const runs = [];
  try {
    const before = api.run(sentence, { model, knockOut });
    runs.push(before);
    if (!before.config.layers) fail('whatIf needs a trained model; the random model has a single head', 'invalid_option', { name: 'model', got: describe(model) });
    const n = before.tokens.length;
    if (row < 0 || row >= n) fail(`row must be a token's index, from 0 to ${n - 1}, got ${row}`, 'invalid_argument');
    const weights = rowOf(before.stage('weights', { layer, head }), row);
    const edited = unwrap(after.editRow(weights, edits.map((e) => e.key), edits.map((e) => e.weight), renormalise));
    const override = { layer, head, row, weights: edited.weights };
    const changed = api.run(sentence, { model, knockOut, override });
    runs.push(changed);
    const moved = (id, where, i) => Object.freeze(unwrap(after.moved(rowOf(before.stage(id, where), i), rowOf(changed.stage(id, where), i))));
    // The edited token's row at each stage from the head on: the head's output, × W_O, the layer's output, each later layer's.
    const stages = [{ id: 'output', where: { layer, head } }, { id: 'projected', where: { layer } }];
    for (let l = layer; l < before.config.layers; l += 1) stages.push({ id: 'layerOutput', where: { layer: l } });
    const last = { layer: before.config.layers - 1 };
    const masks = before.tokens.flatMap((t, i) => (t === '[MASK]' ? [i] : [])); // as predictMasked counts them
    let guesses = [];
    if (masks.length) {
      const ask = (extra) => api.predictMasked(sentence, { model, knockOut, topK, traditional, ...extra });
      const plain = ask({}), shifted = ask({ override });
      guesses = masks.map((i, m) => Object.freeze({
        index: i, before: plain[m], after: shifted[m],
        moved: moved('layerOutput', last, i), shift: Object.freeze(unwrap(after.guessShift(plain[m], shifted[m]))),
      }));
    }
    return Object.freeze({
      tokens: before.tokens, layer, head, row, renormalise,
      weights: Object.freeze({ before: weights, after: edited.weights, sum: edited.sum }),
      stages: Object.freeze(stages.map(({ id, where }) => Object.freeze({ id, layer: where.layer, ...moved(id, where, row) }))),
      masks: Object.freeze(guesses),
    });
  } finally {
    for (const run of runs) run.dispose();
  }
}

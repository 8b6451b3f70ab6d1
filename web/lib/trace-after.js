// What a Trace computes after the article (FlashAttention's tiles, words, symmetry, rollout): each
// reads the head's stages as the core hands them out and passes them to the after-the-article module
// (web/lib/after-wasm.js), and they come with it: AFTER_JS below is what the module carries. The
// Trace methods of the same names (without Of) call these with `run`: { after(name),
// headStages(where, ids), everyHead(), ids, checks } (checks: checks.js's CHECKS, handed in so that
// nothing here is part of the first load); core.whatIf and core.randomKeys with { api, after, checks }.
import { whatIfOf } from './what-if.js';

/** Query row i of a head through softmax(QKᵀ/√d_k)·V a block of `block` keys at a time, as
 *  FlashAttention computes it (cpp/include/attention/tiled.hpp): { row, block, blocks, output,
 *  full, maxDifference, relativeDifference }. Each block is { begin, end, scores, blockMax,
 *  maxBefore, maxAfter, rescale, exps, sumBefore, sumAfter, accBefore, accAfter }: the running
 *  maximum m, e^(m_before − m_after), the running sum ℓ and the accumulator before and after it.
 *  output = the last accAfter ÷ sumAfter; full = the row as the whole computation gives it. */
export function tiledRowOf(run, i, { block, ...where } = {}) {
  const { checkIndex, unwrap } = run.checks;
  checkIndex('row', i);
  checkIndex('block', block);
  const after = run.after('tiledRow');
  const [masked, v, output] = run.headStages(where, ['masked', 'v', 'output']);
  const r = unwrap(after.tiledRow(masked.data, v.data, output.data, masked.rows, v.cols, i, block));
  return Object.freeze({ ...r, blocks: Object.freeze(r.blocks.map(Object.freeze)) });
}

/** Every row of a head block by block: { block, output (n × dK), maxDifference,
 *  relativeDifference, fullScores (n × n: the weights held at once the whole way),
 *  tiledScores (n × block: a block's weights for every query) }. */
export function tiledAttentionOf(run, { block, ...where } = {}) {
  const { checkIndex, unwrap, wrapMatrix } = run.checks;
  checkIndex('block', block);
  const after = run.after('tiledAttention');
  const [masked, v, output] = run.headStages(where, ['masked', 'v', 'output']);
  const a = unwrap(after.tiledAttention(masked.data, v.data, output.data, masked.rows, v.cols, block));
  return Object.freeze({ ...a, output: wrapMatrix(a.output) });
}

/** A head's attention between words, not tokens (Clark et al., 2019; cpp/include/attention/words.hpp):
 *  words = [{ from, to }] (token indices, both included; a word is two tokens or more, words do not
 *  overlap). { groups: [{ from, to }] (the words and every other token alone, in order), weights
 *  (g × g): to a word, the sum over its tokens; from a word, the mean over its tokens }. */
export function wordAttentionOf(run, words, where = {}) {
  const { checkWords, unwrap, wrapMatrix } = run.checks;
  const after = run.after('wordAttention');
  const [weights] = run.headStages(where, ['weights']);
  const r = unwrap(after.wordAttention(weights.data, weights.rows, checkWords(words)));
  return Object.freeze({ groups: Object.freeze(r.groups.map(Object.freeze)), weights: wrapMatrix(r.weights) });
}

/** How far a head's scores Q·Kᵀ are from symmetric on this sentence, and how much weight stays on
 *  each token itself (cpp/include/attention/symmetry.hpp): { symmetricShare: ‖(S + Sᵀ)/2‖² ÷ ‖S‖²
 *  of the scores double-centred (1 with one matrix for queries and keys, about ½ when S_ij and
 *  S_ji are unrelated), antisymmetricShare: 1 − symmetricShare, selfShare: the weight on itself
 *  averaged over the real tokens as queries (headReport's shares.self), oneWay: 'next' or
 *  'previous' when headReport labels the head so and yet symmetricShare is above 0.75, else null,
 *  oneWayShare: that direction's share (0 when oneWay is null) }. */
export function qkSymmetryOf(run, where = {}) {
  const { unwrap } = run.checks;
  const after = run.after('qkSymmetry');
  const [scores, weights] = run.headStages(where, ['scores', 'weights']);
  return Object.freeze(unwrap(after.qkSymmetry(scores.data, weights.data, run.ids, scores.rows)));
}

/** Attention rollout (Abnar & Zuidema, 2020; cpp/include/attention/rollout.hpp) through every
 *  layer: each layer's heads averaged (a knocked-out head left out) and mixed half and half with
 *  the identity for the residual, multiplied last layer first. { rollout, last, averaged }:
 *  rollout (n × n) row i = output i's share of each input token; last (n × n) = the last
 *  layer's attention averaged over its heads; averaged = the heads each layer's average counts.
 *  With words (as wordAttention takes them) both matrices are between words, by the same rule. */
export function rolloutOf(run, { words = [] } = {}) {
  const { checkWords, unwrap, wrapMatrix } = run.checks;
  const after = run.after('rollout');
  const { layers, silenced, n } = run.everyHead();
  const r = unwrap(after.rollout(layers, silenced, n, checkWords(words)));
  return Object.freeze({ rollout: wrapMatrix(r.rollout), last: wrapMatrix(r.last), averaged: r.averaged });
}

/** Row i of rollout() beside the same row of the last layer's average: { row, rollout, last,
 *  rolloutTop, lastTop (the other token with the largest share in each), rolloutSelf, lastSelf
 *  (the share on token i itself), rolloutSelfFirst, lastSelfFirst (token i's own share is at least
 *  that top other token's: the row's largest share stays on i), topsDiffer (rolloutTop is
 *  not lastTop) }. */
export function rolloutRowOf(run, i) {
  const { checkIndex, unwrap } = run.checks;
  checkIndex('row', i);
  const after = run.after('rolloutRow');
  const { layers, silenced, n } = run.everyHead();
  return Object.freeze(unwrap(after.rolloutRow(layers, silenced, n, i)));
}

/** Row i of a layer's attention, its heads together (cpp/include/attention/heads.hpp,
 *  layer_row()): { mean (the heads' rows averaged, knocked-out heads left out), order (the keys
 *  by mean weight, largest first), headTop and headWeight (each head's largest weight for the
 *  row, and where), averaged (1 for each head in the mean) }. The random model's one layer is its head. */
export function layerRowOf(run, i, { layer = 0 } = {}) {
  const { checkIndex, fail, unwrap } = run.checks;
  checkIndex('row', i);
  checkIndex('layer', layer);
  const after = run.after('layerRow');
  const { layers, silenced, n } = run.everyHead();
  if (layer < 0 || layer >= layers.length) {
    fail(`there is no layer ${layer}: the model has ${layers.length} layer${layers.length === 1 ? '' : 's'}, counted from 0`, 'invalid_argument');
  }
  return Object.freeze(unwrap(after.layerRow(layers[layer], silenced[layer], n, i)));
}

/** Query i of a head and every key in a plane (cpp/include/attention/geometry.hpp, after Yeh et al.,
 *  "AttentionViz", 2023): { queryNorm (|q|), keyX (k·q/|q|: times |q| it is the score), keyY (along
 *  the keys' largest spread square to q), queryX, queryY (every query in the plane), scores (q·k),
 *  kept (the share of the keys' spread the plane keeps), secondAxis (the keys spread off q at all) }. */
export function keyPlaneOf(run, i, where = {}) {
  const { checkIndex, unwrap } = run.checks;
  checkIndex('row', i);
  const after = run.after('keyPlane');
  const [q, k] = run.headStages(where, ['q', 'k']);
  return Object.freeze(unwrap(after.keyPlane(q.data, k.data, q.rows, k.rows, q.cols, i)));
}

/** One query and `count` keys with N(0, 1) entries in dK dimensions (seeded): { queryNorm, keyNorms, scores,
 *  scaled (÷√dK), scoreSd, scaledSd, rootDk, plane (keyPlane's for them) }. */
export function randomKeysOf({ after, checks }, dK, { count = 24, seed = 1 } = {}) {
  for (const [name, v] of Object.entries({ dK, count, seed })) checks.checkIndex(name, v);
  const r = checks.unwrap(after.randomKeys(dK, count, seed));
  return Object.freeze({ ...r, plane: Object.freeze(r.plane) });
}

/** The JavaScript the after-the-article module carries (after-wasm.js; the one-file builds' core). */
export const AFTER_JS = Object.freeze({
  tiledRowOf, tiledAttentionOf, wordAttentionOf, qkSymmetryOf, rolloutOf, rolloutRowOf, layerRowOf, keyPlaneOf, randomKeysOf, whatIfOf,
});

// What the after-the-article module hands out (after_bindings.cpp) as JS objects: tile by tile,
// rollout, symmetry, the keys' plane, what-if's comparisons; one conversion per type, by
// to_js.hpp's rules. Included through guarded.hpp.
#pragma once

#include "attention/geometry.hpp"
#include "attention/rollout.hpp"
#include "attention/symmetry.hpp"
#include "attention/tiled.hpp"
#include "attention/what_if.hpp"
#include "to_js.hpp"

namespace attention_binding {

// clang-format off
// A query row block by block (tiled.hpp): each block's keys, scores, maxima, rescale, ℓ and accumulator.
inline val js(const TiledRow& r) {
    val blocks = val::array();
    for (const TileBlock& b : r.blocks) {
        blocks.call<void>("push", object({{"begin", js(b.begin)}, {"end", js(b.end)}, {"scores", js(b.scores)},
                                          {"blockMax", js(b.block_max)}, {"maxBefore", js(b.max_before)},
                                          {"maxAfter", js(b.max_after)}, {"rescale", js(b.rescale)},
                                          {"rescaleWhy", b.rescale_why[0] ? val(std::string(b.rescale_why)) : val::null()},
                                          {"exps", js(b.exps)}, {"expSum", js(b.exp_sum)},
                                          {"sumBefore", js(b.sum_before)}, {"sumAfter", js(b.sum_after)},
                                          {"accBefore", js(b.acc_before)}, {"accAfter", js(b.acc_after)}}));
    }
    return object({{"row", js(r.row)}, {"block", js(r.block)}, {"blocks", blocks}, {"output", js(r.output)},
                   {"full", js(r.full)}, {"maxDifference", js(r.max_difference)},
                   {"relativeDifference", js(r.relative_difference)}, {"agreement", val(std::string(r.agreement))},
                   {"heldWhole", js(r.held_whole)}, {"heldTiled", js(r.held_tiled)}});
}

inline val js(const QkSymmetry& q) {
    return object({{"symmetricShare", js(q.symmetric_share)}, {"antisymmetricShare", js(q.antisymmetric_share)},
                   {"selfShare", js(q.self_share)}, {"oneWay", q.one_way.empty() ? val::null() : val(q.one_way)},
                   {"oneWayShare", js(q.one_way_share)}});
}

inline val js(const Rollout& r) {
    return object({{"rollout", js(r.rollout)}, {"last", js(r.last)}, {"averaged", js(r.averaged)}});
}

inline val js(const RolloutRow& r) {
    return object({{"row", js(r.row)}, {"rollout", js(r.rollout)}, {"last", js(r.last)}, {"rolloutTop", js(r.rollout_top)},
                   {"lastTop", js(r.last_top)}, {"rolloutSelf", js(r.rollout_self)}, {"lastSelf", js(r.last_self)},
                   {"rolloutSelfFirst", val(r.rollout_self_first)}, {"lastSelfFirst", val(r.last_self_first)},
                   {"topsDiffer", val(r.tops_differ)}});
}

inline val js(const TiledAttention& a) {
    return object({{"block", js(a.block)}, {"output", js(a.output)}, {"maxDifference", js(a.max_difference)},
                   {"relativeDifference", js(a.relative_difference)}, {"fullScores", js(a.full_scores)},
                   {"tiledScores", js(a.tiled_scores)}});
}

inline val js(const KeyPlane& p) {
    return object({{"queryNorm", js(p.query_norm)}, {"keyX", js(p.key_x)}, {"keyY", js(p.key_y)}, {"queryX", js(p.query_x)},
                   {"queryY", js(p.query_y)}, {"scores", js(p.scores)}, {"kept", js(p.kept)}, {"secondAxis", val(p.second_axis)}});
}
inline val js(const RandomKeys& r) {
    return object({{"queryNorm", js(r.query_norm)}, {"keyNorms", js(r.key_norms)}, {"scores", js(r.scores)}, {"scaled", js(r.scaled)},
                   {"scoreSd", js(r.score_sd)}, {"scaledSd", js(r.scaled_sd)}, {"rootDk", js(r.root_d_k)}, {"plane", js(r.plane)}});
}
inline val js(const EditedRow& e) { return object({{"weights", js(e.weights)}, {"sum", js(e.sum)}}); }
inline val js(const Moved& m) {
    return object({{"before", js(m.before)}, {"after", js(m.after)}, {"distance", js(m.distance)},
                   {"relative", js(m.relative)}, {"moved", val(m.moved)}});
}
inline val js(const GuessShift& s) {
    return object({{"firstBefore", val(s.first_before)}, {"firstAfter", val(s.first_after)}, {"sameFirst", val(s.same_first)},
                   {"before", js(s.before)}, {"after", js(s.after)}, {"direction", val(s.direction)}});
}
// clang-format on

}  // namespace attention_binding

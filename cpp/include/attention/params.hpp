// The seeded model's parameters: token embeddings and the projections W_q, W_k,
// W_v with their biases, drawn from a seed. ("Weights", in this project, always
// means the attention weights softmax(Q·Kᵀ / √d_k); these are "params".) A
// trained model's params come from its file instead (model_file.hpp, encoder.hpp).
#pragma once

#include <cstdint>
#include <vector>

#include "attention/matrix.hpp"

namespace attention {

// The parameters of one attention head.
struct HeadParams {
    Matrix wq, wk, wv;  // d_model × d_k   W_q, W_k, W_v
    Matrix bq, bk, bv;  // 1 × d_k         b_q, b_k, b_v
};

// Deterministic pseudo-random parameters, chosen so that with positional
// encoding on, q, k and v entries have variance ≈ 1 and so raw scores q·k have
// standard deviation ≈ √d_k (8 for d_k = 64), as the article argues:
//   embedding entries   ~ N(0, 1/2)        (sinusoidal positions add ≈ 1/2 more)
//   W_q, W_k, W_v       ~ N(0, 1/d_model)  so Var(x·w) ≈ d_model · 1 · 1/d_model = 1
//   b_q, b_k, b_v       ~ N(0, 0.1²)       small, visible offsets
// Every entry is a function of (seed, which matrix, row, column) alone, so an
// embedding row depends only on (seed, id) and the first columns stay the
// same when d_model grows.
class SeededParams {
public:
    SeededParams(std::int64_t d_model, std::int64_t d_k, std::int64_t seed);
    // One embedding row per id, in order: n × d_model. The same id always gets the same row.
    Matrix embeddings(const std::vector<std::int32_t>& ids) const;
    // Head `index`'s projections (the seeded model runs head 0).
    HeadParams head(int index) const;

private:
    Eigen::Index d_model_;
    Eigen::Index d_k_;
    std::uint64_t seed_;
};

// The standard normal variate for one (seed, stream, index) triple: the
// same number the matrices above hold at that index. Entries 2m and 2m + 1 of
// a stream are one Box–Muller pair drawn from one splitmix64 hash of m.
float seeded_normal(std::uint64_t seed, std::uint64_t stream, std::uint64_t index);

namespace detail {
// The generator's Box–Muller step in float, for tests: for u1 ∈ (0, 1] and
// u2 ∈ [0, 1), {√(−2·ln u1)·cos 2πu2, √(−2·ln u1)·sin 2πu2}.
struct NormalPair {
    float cos_half, sin_half;
};
NormalPair box_muller(float u1, float u2);
}  // namespace detail

}  // namespace attention

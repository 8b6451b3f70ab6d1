// The stage functions of scaled dot-product self-attention,
//   Attention(Q, K, V) = softmax(Q·Kᵀ / √d_k) · V,
// each small enough to check by hand. Shapes: n tokens, d_model, d_k.
#pragma once

#include "attention/matrix.hpp"

namespace attention {

// Sinusoidal positional encoding ("Attention Is All You Need" §3.5): n × d_model
//   PE(pos, 2i)   = sin(pos / 10000^(2i / d_model))
//   PE(pos, 2i+1) = cos(pos / 10000^(2i / d_model))
// pos counts from 0, so [CLS] sits at position 0.
Matrix positional_encoding(Eigen::Index n, Eigen::Index d_model);

// x·W + b: (n × d_model)·(d_model × d_k) + (1 × d_k, added to every row) → n × d_k
Matrix project(const Matrix& x, const Matrix& w, const Matrix& b);

// Q·Kᵀ: (n × d_k)·(d_k × n) → n × n; entry (i, j) is q_i · k_j.
Matrix attention_scores(const Matrix& q, const Matrix& k);

// scores / √d_k when scale is on, scores unchanged when off: n × n
Matrix scale_scores(const Matrix& scores, Eigen::Index d_k, bool scale);

// With causal on, every entry above the diagonal (a key after its query)
// becomes −∞ so softmax gives it weight exactly 0; otherwise a copy: n × n
Matrix causal_mask(const Matrix& scaled, bool causal);

// Row-wise softmax in the stable form: p_ij = exp(s_ij − max_j s_ij) / Σ_j exp(…).
// Each row sums to 1; −∞ entries get exactly 0; finite inputs of any size
// (±1e30) give no NaN or Inf. A row of +∞ entries shares the weight among them;
// a row with only −∞ (no visible key) is uniform, so rows still sum to 1.
Matrix softmax_rows(const Matrix& masked);

// weights · V: (n × n)·(n × d_k) → n × d_k; row i is Σ_j p_ij v_j.
Matrix weighted_sum(const Matrix& weights, const Matrix& v);

// One head as the paper writes it, on the stage functions above: the readable
// specification of a run, and the oracle the fast kernels are tested against
// (AttentionModel::run must equal it up to float32 rounding).
struct HeadParams;
struct Attention {
    Matrix q, k, v;                          // n × d_k
    Matrix scores, scaled, masked, weights;  // n × n
    Matrix output;                           // n × d_k
};
Attention attention_reference(const Matrix& x, const HeadParams& params, bool scale, bool causal);

}  // namespace attention

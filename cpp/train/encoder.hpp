// A BERT-style encoder for masked-language-model training: its params, its
// forward pass with every activation kept, and its backward pass written by
// hand next to it. Templated on the scalar so the tests check every gradient
// in double against finite differences, and training runs in float.
//
// Shapes (B sequences of n tokens, N = B·n rows; d = d_model, h heads of
// d_k = d / h columns each, head j = columns j·d_k … (j + 1)·d_k − 1):
//   x0 = tok[ids] + PE            N × d     token rows plus sinusoidal positions
//   x  = LN0(x0)                  N × d
//   per layer (post-LayerNorm, as BERT):
//     Q, K, V = x·W + b           N × d
//     P = softmax(Q_j·K_jᵀ/√d_k)  n × n     per sequence and head
//     A = [P·V_j]_j               N × d     the heads side by side (concat)
//     y1 = LN1(x + A·W_o + b_o)   N × d
//     y2 = LN2(y1 + GELU(y1·W_1 + b_1)·W_2 + b_2)   N × d   (the next layer's x)
//   logits = y[masked rows]·tokᵀ + b_out     M × vocab   (decoder tied to tok)
//   loss = mean over the M masked rows of −log softmax(logits)[target]
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <Eigen/Core>

namespace attention::train {

template <class T>
using Mat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

struct EncoderShape {
    int vocab = 0;
    int d_model = 0;
    int heads = 1;
    int d_ff = 0;
    int layers = 1;
    int d_k() const { return d_model / heads; }
};

template <class T>
struct LayerParams {
    Mat<T> wq, wk, wv, wo;        // d × d
    Mat<T> bq, bk, bv, bo;        // 1 × d
    Mat<T> ln1_gain, ln1_bias;    // 1 × d
    Mat<T> w1, b1;                // d × d_ff, 1 × d_ff
    Mat<T> w2, b2;                // d_ff × d, 1 × d
    Mat<T> ln2_gain, ln2_bias;    // 1 × d
};

template <class T>
struct EncoderParams {
    EncoderShape shape;
    Mat<T> tok;                   // vocab × d   token embeddings (and the tied decoder)
    Mat<T> ln0_gain, ln0_bias;    // 1 × d       LayerNorm of the embeddings
    std::vector<LayerParams<T>> layers;
    Mat<T> out_bias;              // 1 × vocab   decoder bias

    // Every block once, by a stable name ("tok", "layer0.wq", …), in a fixed
    // order: AdamW, the gradient checks and the model file walk them alike.
    void for_each(const std::function<void(const std::string&, Mat<T>&)>& f);
    void for_each(const std::function<void(const std::string&, const Mat<T>&)>& f) const;
};

// Zeros of the same shapes (for gradients and optimiser moments).
template <class T>
EncoderParams<T> zeros_like(const EncoderParams<T>& p);

// Seeded initialisation as BERT: weights ~ N(0, 0.02²), biases 0, LayerNorm
// gains 1. Deterministic for (shape, seed).
template <class T>
EncoderParams<T> init_params(const EncoderShape& shape, std::uint64_t seed);

// One batch for masked-language modelling: B sequences of n ids (already
// masked), and for each masked position its row in the N rows and its target.
struct MlmBatch {
    int sequences = 0;                // B
    int length = 0;                   // n
    std::vector<std::int32_t> ids;    // B·n, row-major
    std::vector<std::int32_t> rows;   // M rows that were masked, in 0 … N − 1
    std::vector<std::int32_t> targets;  // M original ids
};

// Everything the forward pass computed that the backward pass needs.
template <class T>
struct LayerCache {
    Mat<T> x;                     // N × d     the layer's input
    Mat<T> q, k, v;               // N × d
    std::vector<Mat<T>> probs;    // B·h of n × n: sequence s, head j at s·h + j
    Mat<T> concat;                // N × d     A
    Mat<T> xhat1, inv_std1;       // N × d, N × 1  LN1's normalised rows and 1/σ
    Mat<T> y1;                    // N × d
    Mat<T> pre, act;              // N × d_ff  y1·W_1 + b_1 and its GELU
    Mat<T> xhat2, inv_std2;       // N × d, N × 1
    Mat<T> y2;                    // N × d
};

template <class T>
struct ForwardCache {
    Mat<T> xhat0, inv_std0;       // the embedding LayerNorm's
    std::vector<LayerCache<T>> layers;
    Mat<T> masked_rows;           // M × d     the last layer's rows that were masked
    Mat<T> probs;                 // M × vocab softmax of the logits
    T loss = 0;
};

// The forward pass; returns the mean loss over the masked rows and fills cache.
template <class T>
T forward(const EncoderParams<T>& p, const MlmBatch& batch, ForwardCache<T>& cache);

// The backward pass of the forward that filled cache: adds ∂loss/∂param into grads.
template <class T>
void backward(const EncoderParams<T>& p, const MlmBatch& batch, const ForwardCache<T>& cache,
              EncoderParams<T>& grads);

// The sinusoidal position table (as the core's positional_encoding), n × d.
template <class T>
Mat<T> sinusoid(int n, int d);

}  // namespace attention::train

// The encoder's operations, each forward beside its backward (as llm.c's
// train_gpt2.c): the core's forward (encoder.cpp, stages.cpp) runs the
// forwards; the trainer (cpp/train/encoder.cpp) runs the backwards. Templated
// on the scalar so the tests check every backward in double against central
// differences (tests/cpp/trainer/test_ops.cpp). Matrices are row-major; a backward
// takes ∂loss/∂output and returns ∂loss/∂input, adding into the gradients of
// the op's own params.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "attention/matrix.hpp"

namespace attention::ops {

// ---- GELU, tanh form (BERT's): 0.5·x·(1 + tanh(c·(x + a·x³))), c = √(2/π) ----

inline constexpr double kGeluC = 0.7978845608028654;  // √(2/π)
inline constexpr double kGeluA = 0.044715;

// Of every entry, on Eigen's vectorised tanh (std::tanh in double).
template <class T>
Mat<T> gelu(const Mat<T>& x) {
    const auto u = T(kGeluC) * (x.array() + T(kGeluA) * x.array().cube());
    return (T(0.5) * x.array() * (T(1) + u.tanh())).matrix();
}

// ---- GELU, erf form (Hugging Face's "gelu"): x·Φ(x) = 0.5·x·(1 + erf(x/√2)) ----

inline constexpr double kInvSqrt2 = 0.7071067811865476;  // 1/√2

// Of every entry, on std::erf (the forward only: no model here trains with it).
template <class T>
Mat<T> gelu_erf(const Mat<T>& x) {
    return x.unaryExpr([](T v) { return T(0.5) * v * (T(1) + std::erf(v * T(kInvSqrt2))); });
}

// dy ∘ GELU′(x), GELU′(x) = ½(1 + t) + ½·x·(1 − t²)·c·(1 + 3a·x²), t = tanh(c·(x + a·x³)).
template <class T>
Mat<T> gelu_backward(const Mat<T>& dy, const Mat<T>& x) {
    const auto a = x.array();
    const Eigen::Array<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> t =
        (T(kGeluC) * (a + T(kGeluA) * a.cube())).tanh();
    return (dy.array() * (T(0.5) * (T(1) + t) + T(0.5) * a * (T(1) - t.square()) * T(kGeluC) *
                                                    (T(1) + T(3 * kGeluA) * a.square())))
        .matrix();
}

// ---- LayerNorm of every row: xhat = (r − mean) / σ, y = xhat ∘ gain + bias ----

template <class T>
constexpr T kLayerNormEps = T(1e-5);  // the built-in model's ε (EncoderShape::layer_norm_eps)

// Keeps xhat and 1/σ for the backward.
template <class T>
Mat<T> layer_norm(const Mat<T>& r, const Mat<T>& gain, const Mat<T>& bias, Mat<T>& xhat,
                  Mat<T>& inv_std, T eps = kLayerNormEps<T>) {
    const auto d = static_cast<T>(r.cols());
    xhat.resize(r.rows(), r.cols());
    inv_std.resize(r.rows(), 1);
    for (Eigen::Index i = 0; i < r.rows(); ++i) {
        const T mean = r.row(i).sum() / d;
        const T var = (r.row(i).array() - mean).square().sum() / d;
        inv_std(i, 0) = T(1) / std::sqrt(var + eps);
        xhat.row(i) = (r.row(i).array() - mean) * inv_std(i, 0);
    }
    Mat<T> y = xhat.array().rowwise() * gain.row(0).array();
    y.rowwise() += bias.row(0);
    return y;
}

// Adds into dgain and dbias; returns ∂/∂r.
template <class T>
Mat<T> layer_norm_backward(const Mat<T>& dy, const Mat<T>& xhat, const Mat<T>& inv_std,
                           const Mat<T>& gain, Mat<T>& dgain, Mat<T>& dbias) {
    dgain += (dy.array() * xhat.array()).colwise().sum().matrix();
    dbias += dy.colwise().sum();
    const Mat<T> dxhat = dy.array().rowwise() * gain.row(0).array();
    const auto d = static_cast<T>(dy.cols());
    Mat<T> dr(dy.rows(), dy.cols());
    for (Eigen::Index i = 0; i < dy.rows(); ++i) {
        const T sum = dxhat.row(i).sum();
        const T dot = dxhat.row(i).dot(xhat.row(i));
        dr.row(i) =
            (inv_std(i, 0) / d) * (d * dxhat.row(i).array() - sum - xhat.row(i).array() * dot);
    }
    return dr;
}

// ---- softmax of every row, stable: p = e^(s − max) / Σ e^(s − max) ----
// −∞ entries (masked keys) get exactly 0. A row with no finite maximum (all
// −∞, or holding +∞) shares its weight equally among the entries equal to its
// maximum.

template <class T>
void softmax_rows_in_place(Mat<T>& m) {
    constexpr T kInf = std::numeric_limits<T>::infinity();
    for (Eigen::Index i = 0; i < m.rows(); ++i) {
        auto row = m.row(i);
        const T max = row.maxCoeff();
        if (max == -kInf || max == kInf) {
            const auto hits = (row.array() == max).template cast<T>().eval();
            row = hits / hits.sum();
            continue;
        }
        // Written out: Eigen's vectorised exp(−∞) is a denormal, not 0.
        row = (row.array() == -kInf).select(T(0), (row.array() - max).exp());
        row /= row.sum();  // ≥ 1: the maximum gives e^0
    }
}

template <class T>
Mat<T> softmax_rows(Mat<T> m) {
    softmax_rows_in_place(m);
    return m;
}

// Through the Jacobian diag(p) − p·pᵀ, row by row: ds = p ∘ (dp − Σ dp ∘ p).
// A masked entry (p = 0) gets no gradient.
template <class T>
Mat<T> softmax_rows_backward(const Mat<T>& dp, const Mat<T>& p) {
    const Eigen::Matrix<T, Eigen::Dynamic, 1> inner = (dp.array() * p.array()).rowwise().sum();
    return p.array() * (dp.array().colwise() - inner.array());
}

// ---- one attention head on one sequence: P = softmax(Q·Kᵀ·scale), A = P·V ----
// Q, K: n × d_k, V: n × d_v; P is kept for the backward.

template <class T>
Mat<T> attention_head(const Mat<T>& q, const Mat<T>& k, const Mat<T>& v, T scale, Mat<T>& p) {
    p = (q * k.transpose()) * scale;
    softmax_rows_in_place(p);
    return p * v;
}

// ∂/∂Q, ∂/∂K, ∂/∂V of A = P·V, P = softmax(Q·Kᵀ·scale).
template <class T>
void attention_head_backward(const Mat<T>& da, const Mat<T>& q, const Mat<T>& k, const Mat<T>& v,
                             const Mat<T>& p, T scale, Mat<T>& dq, Mat<T>& dk, Mat<T>& dv) {
    dv = p.transpose() * da;
    const Mat<T> ds = softmax_rows_backward<T>(da * v.transpose(), p) * scale;
    dq = ds * k;
    dk = ds.transpose() * q;
}

// ---- a linear layer: y = x·W + b ----

// Adds into dw and db; returns ∂/∂x.
template <class T>
Mat<T> linear_backward(const Mat<T>& dy, const Mat<T>& x, const Mat<T>& w, Mat<T>& dw, Mat<T>& db) {
    dw.noalias() += x.transpose() * dy;
    db += dy.colwise().sum();
    return dy * w.transpose();
}

// ---- the embedding: row r of x0 = tok[ids[r]] + positional[r mod n] ----

// Row r = tok[ids[r]].
template <class T>
Mat<T> gather_rows(const Mat<T>& tok, const std::vector<std::int32_t>& ids) {
    Mat<T> rows(static_cast<Eigen::Index>(ids.size()), tok.cols());
    for (Eigen::Index r = 0; r < rows.rows(); ++r)
        rows.row(r) = tok.row(ids[static_cast<std::size_t>(r)]);
    return rows;
}

template <class T>
Mat<T> embed(const Mat<T>& tok, const std::vector<std::int32_t>& ids, const Mat<T>& positional) {
    const Eigen::Index n = positional.rows();
    Mat<T> x0 = gather_rows(tok, ids);
    for (Eigen::Index r = 0; r < x0.rows(); ++r) x0.row(r) += positional.row(r % n);
    return x0;
}

// The positions are fixed: only the token rows collect gradients, one per use (also
// gather_rows()'s backward).
template <class T>
void embed_backward(const Mat<T>& dx0, const std::vector<std::int32_t>& ids, Mat<T>& dtok) {
    for (Eigen::Index r = 0; r < dx0.rows(); ++r)
        dtok.row(ids[static_cast<std::size_t>(r)]) += dx0.row(r);
}

// ---- a factorised embedding's projection, y = x·P (and the decoder's x·Pᵀ) ----

// y = x·P: adds into dp; returns ∂/∂x.
template <class T>
Mat<T> project_backward(const Mat<T>& dy, const Mat<T>& x, const Mat<T>& p, Mat<T>& dp) {
    dp.noalias() += x.transpose() * dy;
    return dy * p.transpose();
}

// y = x·Pᵀ: adds into dp; returns ∂/∂x.
template <class T>
Mat<T> project_transposed_backward(const Mat<T>& dy, const Mat<T>& x, const Mat<T>& p, Mat<T>& dp) {
    dp.noalias() += dy.transpose() * x;
    return dy * p;
}

// ---- the tied decoder and the loss: logits = rows·tokᵀ + b_out, mean −log p[target] ----

// Softmax of the logits, and the mean cross-entropy of the targets.
template <class T>
T cross_entropy(const Mat<T>& rows, const Mat<T>& tok, const Mat<T>& out_bias,
                const std::vector<std::int32_t>& targets, Mat<T>& probs) {
    probs = rows * tok.transpose();
    probs.rowwise() += out_bias.row(0);
    softmax_rows_in_place(probs);
    T loss = 0;
    for (Eigen::Index m = 0; m < probs.rows(); ++m)
        loss -= std::log(probs(m, targets[static_cast<std::size_t>(m)]));
    return loss / static_cast<T>(probs.rows());
}

// ∂loss/∂logits = (p − one_hot) / M; adds into dtok (the decoder's share of
// the tied embedding) and dout_bias; returns ∂/∂rows.
template <class T>
Mat<T> cross_entropy_backward(const Mat<T>& rows, const Mat<T>& tok,
                              const std::vector<std::int32_t>& targets, const Mat<T>& probs,
                              Mat<T>& dtok, Mat<T>& dout_bias) {
    Mat<T> dlogits = probs;
    for (Eigen::Index m = 0; m < dlogits.rows(); ++m)
        dlogits(m, targets[static_cast<std::size_t>(m)]) -= T(1);
    dlogits /= static_cast<T>(dlogits.rows());
    dout_bias += dlogits.colwise().sum();
    dtok.noalias() += dlogits.transpose() * rows;
    return dlogits * tok;
}

}  // namespace attention::ops

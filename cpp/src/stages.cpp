#include "attention/stages.hpp"

#include <cmath>
#include <limits>
#include <vector>

namespace attention {

Matrix positional_encoding(Eigen::Index n, Eigen::Index d_model) {
    Matrix pe(n, d_model);
    std::vector<double> wavelength(static_cast<std::size_t>(d_model));  // 10000^(2i / d_model)
    for (Eigen::Index j = 0; j < d_model; ++j) {
        const Eigen::Index pair = j / 2;  // i in 2i, 2i+1
        wavelength[static_cast<std::size_t>(j)] =
            std::pow(10000.0, 2.0 * static_cast<double>(pair) / static_cast<double>(d_model));
    }
    for (Eigen::Index pos = 0; pos < n; ++pos) {
        for (Eigen::Index j = 0; j < d_model; ++j) {
            const double angle = static_cast<double>(pos) / wavelength[static_cast<std::size_t>(j)];
            pe(pos, j) = static_cast<float>(j % 2 == 0 ? std::sin(angle) : std::cos(angle));
        }
    }
    return pe;
}

Matrix project(const Matrix& x, const Matrix& w, const Matrix& b) {
    Matrix out = x * w;
    out.rowwise() += b.row(0);
    return out;
}

Matrix attention_scores(const Matrix& q, const Matrix& k) { return q * k.transpose(); }

Matrix scale_scores(const Matrix& scores, Eigen::Index d_k, bool scale) {
    if (!scale) return scores;
    return scores / std::sqrt(static_cast<float>(d_k));
}

Matrix causal_mask(const Matrix& scaled, bool causal) {
    Matrix masked = scaled;
    if (!causal) return masked;
    for (Eigen::Index i = 0; i < masked.rows(); ++i) {
        for (Eigen::Index j = i + 1; j < masked.cols(); ++j) {
            masked(i, j) = -std::numeric_limits<float>::infinity();
        }
    }
    return masked;
}

Matrix softmax_rows(const Matrix& masked) {
    constexpr float kInf = std::numeric_limits<float>::infinity();
    Matrix p(masked.rows(), masked.cols());
    for (Eigen::Index i = 0; i < masked.rows(); ++i) {
        const auto row = masked.row(i);
        const float max = row.maxCoeff();
        if (max == -kInf || max == kInf) {
            // No finite maximum to shift by: share the weight equally among the
            // entries equal to it (all of them when the whole row is −∞).
            const auto hits = (row.array() == max).cast<float>();
            p.row(i) = hits / hits.sum();
            continue;
        }
        // Masked entries are set to 0 explicitly: Eigen's vectorised exp(−∞)
        // returns a denormal, not 0.
        p.row(i) = (row.array() == -kInf).select(0.0f, (row.array() - max).exp());
        p.row(i) /= p.row(i).sum();  // the sum is ≥ 1: the max gives exp(0)
    }
    return p;
}

Matrix weighted_sum(const Matrix& weights, const Matrix& v) { return weights * v; }

}  // namespace attention

#include "attention/stages.hpp"

#include <cmath>
#include <limits>
#include <vector>

#include "attention/ops.hpp"
#include "attention/params.hpp"
#include "exp_double.hpp"
#include "quarter_turn.hpp"

namespace attention {

Matrix positional_encoding(Eigen::Index n, Eigen::Index d_model) {
    // PE(pos, 2i) = sin(pos / 10000^(2i / d_model)), PE(pos, 2i + 1) = cos(the same angle).
    // One angle per pair of columns, reduced in double to a quarter turn and a
    // rest in [−π/4, π/4], then sin and cos together in float (quarter_turn.hpp):
    // within ≈ 1.5·10⁻⁷ of the exact values (tested), and far cheaper than one
    // C library double sin or cos per entry in a browser's baseline wasm code,
    // where a page's first run happens.
    Matrix pe(n, d_model);
    const Eigen::Index pairs = (d_model + 1) / 2;
    std::vector<double> frequency(
        static_cast<std::size_t>(pairs));  // 1 / 10000^(2i / d_model), in quarter turns per unit
    constexpr double kQuartersPerRadian = 0.63661977236758134308;  // 2 / π
    constexpr double kLn10000 = 9.21034037197618273607;            // ln 10000
    for (Eigen::Index i = 0; i < pairs; ++i) {
        // 10000^(2i / d_model) = e^(2i / d_model · ln 10000)
        frequency[static_cast<std::size_t>(i)] =
            kQuartersPerRadian / detail::exp_double(2.0 * static_cast<double>(i) /
                                                    static_cast<double>(d_model) * kLn10000);
    }
    std::vector<float> sines(static_cast<std::size_t>(pairs)),
        cosines(static_cast<std::size_t>(pairs));
    for (Eigen::Index pos = 0; pos < n; ++pos) {
        for (Eigen::Index i = 0; i < pairs; ++i) {
            const double quarters =
                static_cast<double>(pos) * frequency[static_cast<std::size_t>(i)];
            const double q = std::floor(quarters + 0.5);
            const auto x = static_cast<float>((quarters - q) * 1.57079632679489661923);
            detail::quarter_cos_sin(static_cast<std::int32_t>(static_cast<std::int64_t>(q) & 3), x,
                                    cosines[static_cast<std::size_t>(i)],
                                    sines[static_cast<std::size_t>(i)]);
        }
        float* row = pe.data() + pos * d_model;
        for (Eigen::Index j = 0; j < d_model; ++j) {
            const auto i = static_cast<std::size_t>(j / 2);
            row[j] = j % 2 == 0 ? sines[i] : cosines[i];
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
    return ops::softmax_rows<float>(masked);
}  // ops.hpp: the rule for ±∞

Matrix weighted_sum(const Matrix& weights, const Matrix& v) { return weights * v; }

Attention attention_reference(const Matrix& x, const HeadParams& params, bool scale, bool causal) {
    Attention a;
    a.q = project(x, params.wq, params.bq);                // Q = x·W_q + b_q
    a.k = project(x, params.wk, params.bk);                // K = x·W_k + b_k
    a.v = project(x, params.wv, params.bv);                // V = x·W_v + b_v
    a.scores = attention_scores(a.q, a.k);                 // Q·Kᵀ
    a.scaled = scale_scores(a.scores, a.q.cols(), scale);  // ÷ √d_k
    a.masked = causal_mask(a.scaled, causal);              // −∞ above the diagonal
    a.weights = softmax_rows(a.masked);                    // P = softmax(…)
    a.output = weighted_sum(a.weights, a.v);               // P·V
    return a;
}

}  // namespace attention

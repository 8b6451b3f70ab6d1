#include "attention/softmax_row.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "attention/claims.hpp"
#include "attention/config.hpp"
#include "attention/error.hpp"
#include "attention/explain.hpp"
#include "attention/statistics.hpp"
#include "exp_double.hpp"

namespace attention {

namespace {

void check(bool ok, const std::string& message) {
    if (!ok) throw Error("invalid_argument", message);
}

std::vector<float> to_vector(const Eigen::Ref<const RowVector>& row) {
    return std::vector<float>(row.data(), row.data() + row.size());
}

// Everything that follows from the masked row and its probabilities.
void explain(SoftmaxRow& r, bool jacobian) {
    const std::size_t m = r.masked.size();
    r.max = -std::numeric_limits<float>::infinity();
    for (const float s : r.masked) r.max = std::fmax(r.max, s);
    r.exps.clear();
    r.shifted_exps.clear();
    for (const float s : r.masked) {
        // exp(−∞) is 0 in the C library; written out so it reads as the rule.
        r.exps.push_back(std::isinf(s) && s < 0 ? 0.0f : std::exp(s));
        r.shifted_exps.push_back(std::isinf(s) && s < 0 ? 0.0f : std::exp(s - r.max));
    }
    for (const float e : r.exps) r.exp_sum += e;
    const auto range =
        finite_range(Eigen::Map<const Matrix>(r.exps.data(), 1, static_cast<Eigen::Index>(m)));
    r.exps_min = range.min;
    r.exps_max = range.max;
    for (const float e : r.shifted_exps) r.shifted_sum += e;
    for (const float e : r.exps) r.shares.push_back(e / r.exp_sum);
    r.overflowed = std::isinf(r.exp_sum);
    for (const float s : r.shares) r.overflowed = r.overflowed || std::isnan(s);

    double sum = 0, entropy = 0;
    for (std::size_t j = 0; j < m; ++j) {
        const float p = r.probs[j];
        sum += p;
        if (p > r.max_prob) r.max_prob = p, r.argmax = j;
        if (p > 0) entropy -= static_cast<double>(p * std::log(p));  // float's log: no tables
    }
    r.prob_sum = static_cast<float>(sum);
    r.entropy = static_cast<float>(entropy);
    r.order = order_descending(r.probs);

    if (jacobian) {
        const Eigen::Map<const Eigen::VectorXf> p(r.probs.data(), static_cast<Eigen::Index>(m));
        r.jacobian = -p * p.transpose();
        r.jacobian.diagonal() += p;
        r.max_jacobian = r.jacobian.cwiseAbs().maxCoeff();
    }
}

}  // namespace

SoftmaxRow softmax_row(const Trace& trace, std::int64_t i, bool jacobian) {
    check(i >= 0 && i < static_cast<std::int64_t>(trace.weights.rows()),
          "row " + std::to_string(i) + " is outside the trace's " +
              std::to_string(trace.weights.rows()) + " tokens");
    const auto row = static_cast<Eigen::Index>(i);
    SoftmaxRow r;
    r.scores = to_vector(trace.scores.row(row));
    r.divisor = trace.divisor();
    r.scaled = to_vector(trace.scaled.row(row));
    r.masked = to_vector(trace.masked.row(row));
    r.probs = to_vector(trace.weights.row(row));
    explain(r, jacobian);
    return r;
}

ExpRows exp_rows(const Trace& trace) {
    const Eigen::Index n = trace.weights.rows();
    ExpRows out{Matrix(n, trace.weights.cols()), {}};
    for (Eigen::Index i = 0; i < n; ++i) {
        const SoftmaxRow r = softmax_row(trace, i);
        out.exps.row(i) =
            Eigen::Map<const RowVector>(r.exps.data(), static_cast<Eigen::Index>(r.exps.size()));
        out.sums.push_back(r.exp_sum);
    }
    return out;
}

SoftmaxRow softmax_row(const std::vector<float>& scores, const RowScaling& scaling) {
    check(!scores.empty(), "the row of scores is empty: give at least one score");
    check(scores.size() <= kMaxTokens, "the row has " + std::to_string(scores.size()) +
                                           " scores; the most is " + std::to_string(kMaxTokens));
    for (std::size_t j = 0; j < scores.size(); ++j) {
        check(std::isfinite(scores[j]),
              "score " + std::to_string(j + 1) + " is not a finite number");
    }
    check(scaling.d_k >= 1 && scaling.d_k <= kMaxDModel, "d_k must be an integer from 1 to " +
                                                             std::to_string(kMaxDModel) + ", got " +
                                                             std::to_string(scaling.d_k));
    check(std::isfinite(scaling.temperature) && scaling.temperature > 0,
          "the temperature must be a number above 0");

    const auto m = static_cast<Eigen::Index>(scores.size());
    SoftmaxRow r;
    r.scores = scores;
    r.divisor =
        std::sqrt(static_cast<float>(scaling.d_k)) * static_cast<float>(scaling.temperature);
    const Matrix scaled = Eigen::Map<const Matrix>(scores.data(), 1, m) / r.divisor;
    r.scaled.assign(scaled.data(), scaled.data() + m);
    r.masked = r.scaled;
    // The stable softmax in double, rounded once: a row of given scores is a worked example,
    // whose figures (0.9999997 …) should not carry float32's rounding of the sum.
    const double top = scaled.maxCoeff();
    std::vector<double> shifted(static_cast<std::size_t>(m));
    double shifted_sum = 0;
    for (Eigen::Index j = 0; j < m; ++j) {
        shifted[static_cast<std::size_t>(j)] =
            detail::exp_double(static_cast<double>(scaled(0, j)) - top);
        shifted_sum += shifted[static_cast<std::size_t>(j)];
    }
    for (const double e : shifted) r.probs.push_back(static_cast<float>(e / shifted_sum));
    explain(r, scaling.jacobian);
    return r;
}

ScalingEffect scaling_effect(const std::vector<float>& scores, std::int64_t d_k,
                             std::int64_t target) {
    ScalingEffect e;
    const SoftmaxRow unscaled = softmax_row(scores, {1, 1, true});
    const SoftmaxRow scaled = softmax_row(scores, {d_k, 1, true});
    e.unscaled_max = unscaled.max_prob;
    e.scaled_max = scaled.max_prob;
    e.shape = e.unscaled_max > e.scaled_max + kShapeMargin   ? "peaked"
              : e.unscaled_max < e.scaled_max - kShapeMargin ? "flatter"
                                                             : "same";
    e.unscaled_jacobian = unscaled.max_jacobian;
    e.scaled_jacobian = scaled.max_jacobian;
    // Back at q·k (what W_q and W_k make) the scaled path also multiplies by 1/√d_k.
    e.scaled_jacobian_qk = scaled.max_jacobian / scaled.divisor;
    e.jacobian = compare_gradient(e.unscaled_jacobian, e.scaled_jacobian_qk);
    e.jacobian_times = times_smaller(e.unscaled_jacobian, e.scaled_jacobian_qk);
    e.scaled_saturation = e.scaled_max >= kSaturated ? "saturates" : "spread";
    if (target >= 0) {
        const auto largest = [](const std::vector<float>& g) {
            float m = 0;
            for (const float v : g) m = std::fmax(m, std::fabs(v));
            return m;
        };
        e.unscaled_gradient = largest(cross_entropy_gradient(unscaled.probs, target));
        e.scaled_gradient = largest(cross_entropy_gradient(scaled.probs, target));
        e.gradient = compare_size(e.unscaled_gradient, e.scaled_gradient);
        e.target_on_peak = static_cast<std::size_t>(target) == unscaled.argmax;
    }
    return e;
}

std::vector<float> cross_entropy_gradient(const std::vector<float>& probs, std::int64_t target) {
    check(target >= 0 && static_cast<std::size_t>(target) < probs.size(),
          "target " + std::to_string(target) + " is outside the row of " +
              std::to_string(probs.size()) + " probabilities");
    std::vector<float> grad = probs;
    double others = 0;
    for (std::size_t j = 0; j < probs.size(); ++j) {
        if (j != static_cast<std::size_t>(target)) others += probs[j];
    }
    grad[static_cast<std::size_t>(target)] = static_cast<float>(-others);
    return grad;
}

}  // namespace attention

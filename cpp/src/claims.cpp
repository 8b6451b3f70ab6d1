#include "attention/claims.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "attention/error.hpp"

namespace attention {

namespace {

void check(bool ok, const std::string& message) {
    if (!ok) throw Error("invalid_argument", message);
}

// The population variance of the finite entries of row i of m, with how many there are.
std::pair<double, std::int64_t> row_variance(const Matrix& m, Eigen::Index i) {
    double sum = 0, squares = 0;
    std::int64_t count = 0;
    for (Eigen::Index j = 0; j < m.cols(); ++j) {
        const double v = m(i, j);
        if (!std::isfinite(v)) continue;
        sum += v;
        squares += v * v;
        ++count;
    }
    if (count == 0) return {0, 0};
    const double mean = sum / static_cast<double>(count);
    return {std::max(0.0, squares / static_cast<double>(count) - mean * mean), count};
}

// The mean over m's rows of each row's variance (rows with two finite entries or more).
double mean_row_variance(const Matrix& m) {
    double total = 0;
    std::int64_t rows = 0;
    for (Eigen::Index i = 0; i < m.rows(); ++i) {
        const auto [variance, count] = row_variance(m, i);
        if (count < 2) continue;
        total += variance;
        ++rows;
    }
    return rows ? total / static_cast<double>(rows) : 0;
}

std::int64_t argmax(const std::vector<float>& row) {
    return static_cast<std::int64_t>(std::max_element(row.begin(), row.end()) - row.begin());
}

}  // namespace

const char* compare_size(double a, double b) {
    const double bound = kSizeMargin * std::max(std::fabs(a), std::fabs(b));
    if (a < b - bound) return "smaller";
    if (a > b + bound) return "larger";
    return "same";
}

const char* compare_gradient(double a, double b) {
    if (b > 0 && a == 0) return "zero";
    if (b > 0 && std::fabs(a) <= kVanishing * b) return "vanishes";
    return compare_size(a, b);
}

double times_smaller(double a, double b) {
    if (!(a > 0) || !(b > 0)) return 0;
    const double n = b / a;
    if (n < 1000) return std::round(n);
    const double unit = std::pow(10.0, std::floor(std::log10(n)) - 1);
    return std::round(n / unit) * unit;
}

const char* variance_kind(double variance) {
    if (variance < kUnitLow) return "below";
    if (variance > kUnitHigh) return "above";
    return "unit";
}

const char* growth_kind(double ratio) {
    if (ratio < std::sqrt(2.0)) return "same";
    if (ratio < 2 * std::sqrt(2.0)) return "doubles";
    return "quadruples";
}

ScalingReport scaling_report(const Trace& trace) {
    ScalingReport r;
    // The cells softmax sees: the scores where the masked matrix is finite.
    Matrix seen = trace.scores;
    for (Eigen::Index t = 0; t < seen.size(); ++t) {
        if (!std::isfinite(trace.masked.data()[t])) seen.data()[t] = std::nanf("");
    }
    r.score_row_variance = mean_row_variance(seen);
    r.scaled_row_variance = mean_row_variance(trace.masked);
    r.variance = variance_kind(r.scaled_row_variance);
    r.rows = trace.weights.rows();
    for (Eigen::Index i = 0; i < trace.weights.rows(); ++i) {
        const float top = trace.weights.row(i).maxCoeff();
        r.largest_weight = std::max(r.largest_weight, top);
        if (top >= kSaturated) ++r.saturated_rows;
    }
    r.saturation = r.saturated_rows > 0 ? "saturates" : "spread";
    return r;
}

MaxDivision divide_by_max(const std::vector<float>& scores) {
    check(!scores.empty(), "the row of scores is empty: give at least one score");
    for (std::size_t j = 0; j < scores.size(); ++j) {
        check(std::isfinite(scores[j]),
              "score " + std::to_string(j + 1) + " is not a finite number");
    }
    MaxDivision d;
    const float largest = *std::max_element(scores.begin(), scores.end());
    if (largest <= 0) {
        d.kind = "undefined";
        return d;
    }
    double sum = 0;
    for (const float s : scores) {
        d.values.push_back(s / largest);
        sum += s / largest;
        if (s < 0) ++d.negatives;
    }
    d.sum = static_cast<float>(sum);
    d.kind = d.negatives == 0 && std::fabs(sum - 1) <= 1e-3 ? "distribution" : "not";
    return d;
}

RowComparison compare_rows(const std::vector<float>& a, const std::vector<float>& b,
                           std::int64_t self) {
    check(!a.empty() && a.size() == b.size(),
          "two rows of weights over the same keys are needed, got " + std::to_string(a.size()) +
              " and " + std::to_string(b.size()));
    check(self >= 0 && static_cast<std::size_t>(self) < a.size(),
          "token " + std::to_string(self) + " is outside the rows of " + std::to_string(a.size()));
    RowComparison c;
    c.top_a = argmax(a);
    c.top_b = argmax(b);
    c.same_top = c.top_a == c.top_b;
    c.self_a = a[static_cast<std::size_t>(self)];
    c.self_b = b[static_cast<std::size_t>(self)];
    c.self = compare_size(c.self_b, c.self_a);
    return c;
}

}  // namespace attention

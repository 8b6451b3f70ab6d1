// Small helpers shared by the core's tests.
#pragma once

#include <doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "attention/error.hpp"
#include "attention/matrix.hpp"
#include "attention/softmax_row.hpp"

namespace test_support {

inline attention::Matrix make(int rows, int cols, std::vector<float> values) {
    REQUIRE(values.size() == static_cast<std::size_t>(rows * cols));
    return Eigen::Map<attention::Matrix>(values.data(), rows, cols);
}

// A row of given scores through softmax, divided by √d_k (d_k = 1: not
// divided), with its Jacobian.
inline attention::SoftmaxRow softmax_of(const std::vector<float>& scores, std::int64_t d_k) {
    attention::RowScaling scaling;
    scaling.d_k = d_k;
    scaling.jacobian = true;
    return attention::softmax_row(scores, scaling);
}

// Rounds to a number of decimals the way the article prints (half away from zero).
inline double round_to(double value, int decimals) {
    const double scale = std::pow(10.0, decimals);
    return std::round(value * scale) / scale;
}

// Runs f, requires an attention::Error, and returns it for further checks.
template <class F>
attention::Error error_from(F&& f) {
    try {
        f();
    } catch (const attention::Error& e) {
        return e;
    }
    FAIL("expected attention::Error");
    return attention::Error("", "");
}

// a·b computed in float32 in any order of summation stays within
// k·ε·(|a|·|b|) of the exact product, entry by entry (the standard γ_k bound,
// doubled for the bias add); CHECKs that `product` (+ bias) does.
inline void check_product(const attention::Matrix& product, const attention::Matrix& a,
                          const attention::Matrix& b, const attention::Matrix* bias = nullptr) {
    using MatrixD = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    REQUIRE(product.rows() == a.rows());
    REQUIRE(product.cols() == b.cols());
    MatrixD exact = a.cast<double>() * b.cast<double>();
    MatrixD size = a.cast<double>().cwiseAbs() * b.cast<double>().cwiseAbs();
    if (bias) {
        exact.rowwise() += bias->cast<double>().row(0);
        size.rowwise() += bias->cast<double>().cwiseAbs().row(0);
    }
    const double eps = std::numeric_limits<float>::epsilon();
    const double k = static_cast<double>(a.cols()) + 2.0;
    const MatrixD error = (product.cast<double>() - exact).cwiseAbs();
    const MatrixD allowed = (size * (2.0 * k * eps)).array() + 1e-30;
    const double worst = (error.array() / allowed.array()).maxCoeff();
    CHECK(worst <= 1.0);
}

// Equal up to float32 rounding: |a − b| ≤ ulps·ε·max(|a|, |b|) (+ a tiny floor).
inline void check_close(const attention::Matrix& actual, const attention::Matrix& expected,
                        double ulps = 8) {
    REQUIRE(actual.rows() == expected.rows());
    REQUIRE(actual.cols() == expected.cols());
    const double eps = std::numeric_limits<float>::epsilon();
    double worst = 0;
    for (Eigen::Index i = 0; i < actual.size(); ++i) {
        const double x = actual.data()[i], y = expected.data()[i];
        if (x == y) continue;  // also ±∞ on both sides
        const double scale = std::fmax(std::fabs(x), std::fabs(y));
        worst = std::fmax(worst, std::fabs(x - y) / (ulps * eps * scale + 1e-37));
    }
    CHECK(worst <= 1.0);
}

inline bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

}  // namespace test_support

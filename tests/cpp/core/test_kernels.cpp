// The packed SIMD kernels against the plain Eigen stages (the oracle), on
// every shape class the row blocking and the partial last panel can meet.
#include <doctest.h>

#include <cmath>
#include <limits>
#include <random>

#include "attention/kernels.hpp"
#include "attention/stages.hpp"
#include "helpers.hpp"

using namespace attention;
using test_support::check_close;
using test_support::check_product;
using test_support::make;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

Matrix random_matrix(Eigen::Index rows, Eigen::Index cols, std::mt19937& rng, float spread = 1.0f) {
    std::normal_distribution<float> normal(0.0f, spread);
    Matrix m(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = normal(rng);
    return m;
}

}  // namespace

TEST_CASE("kernels::multiply: every row count 1–13, partial panels, k from 1") {
    std::mt19937 rng(7);
    for (const Eigen::Index rows : {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13}) {
        for (const Eigen::Index cols : {1, 3, 8, 9, 16, 20}) {
            for (const Eigen::Index k : {1, 5, 64}) {
                CAPTURE(rows);
                CAPTURE(cols);
                CAPTURE(k);
                const Matrix a = random_matrix(rows, k, rng), b = random_matrix(k, cols, rng);
                const Matrix bias = random_matrix(1, cols, rng);
                const kernels::Panels packed = kernels::pack(b);
                Matrix c, c_bias;
                kernels::multiply(a, {{&packed, nullptr, &c}, {&packed, &bias, &c_bias}});
                check_product(c, a, b);
                check_product(c_bias, a, b, &bias);
            }
        }
    }
}

TEST_CASE("kernels::multiply: small integers come out exact, as by hand") {
    const Matrix a = make(2, 3, {1, 2, 3, 4, 5, 6});
    const Matrix b = make(3, 2, {1, 0, 0, 1, 1, 1});
    const Matrix bias = make(1, 2, {10, 20});
    const kernels::Panels packed = kernels::pack(b);
    Matrix c;
    kernels::multiply(a, {{&packed, &bias, &c}});
    CHECK(c == make(2, 2, {14, 25, 20, 31}));
}

TEST_CASE("kernels::pack_transposed: A·Bᵀ is Q·Kᵀ") {
    std::mt19937 rng(11);
    for (const Eigen::Index n : {2, 7, 9, 17, 64}) {
        CAPTURE(n);
        const Matrix q = random_matrix(n, 12, rng), k = random_matrix(n, 12, rng);
        kernels::Panels packed;
        kernels::pack_transposed(k, packed);
        Matrix scores;
        kernels::multiply(q, {{&packed, nullptr, &scores}});
        check_product(scores, q, k.transpose());
        CHECK(scores.isApprox(attention_scores(q, k), 1e-5f));
    }
}

TEST_CASE("kernels::scale_mask_softmax equals scale → mask → softmax, every switch") {
    std::mt19937 rng(3);
    for (const Eigen::Index n : {1, 2, 3, 4, 5, 9, 16, 33}) {
        for (const bool scale : {true, false}) {
            for (const bool causal : {true, false}) {
                for (const Eigen::Index d_k : {1, 3, 64}) {
                    CAPTURE(n);
                    CAPTURE(scale);
                    CAPTURE(causal);
                    CAPTURE(d_k);
                    const Matrix scores = random_matrix(n, n, rng, 8.0f);
                    Matrix scaled, masked, weights;
                    kernels::scale_mask_softmax(scores, d_k, scale, causal, scaled, masked,
                                                weights);
                    CHECK(scaled == scale_scores(scores, d_k, scale));  // the same division
                    CHECK(masked == causal_mask(scaled, causal));
                    check_close(weights, softmax_rows(masked));
                    for (Eigen::Index i = 0; i < n; ++i)
                        CHECK(std::fabs(weights.row(i).sum() - 1.0f) < 1e-5f);
                    if (causal)
                        CHECK(weights.triangularView<Eigen::StrictlyUpper>().toDenseMatrix().isZero(
                            0));
                }
            }
        }
    }
}

TEST_CASE("kernels::scale_mask_softmax: extreme rows follow softmax_rows' rules") {
    const Matrix scores = make(5, 3,
                               {1e30f, -1e30f, 0,       // far apart: exactly one winner
                                -100, -200, -300,       // e^(−100) and e^(−200) underflow
                                kInf, 1, kInf,          // +∞ shares the weight
                                -kInf, -kInf, -kInf,    // nothing visible: uniform
                                std::nanf(""), 1, 2});  // NaN stays visible, not hidden
    Matrix scaled, masked, weights;
    kernels::scale_mask_softmax(scores, 64, false, false, scaled, masked, weights);
    const Matrix expected = softmax_rows(scores);
    for (Eigen::Index i = 0; i < 4; ++i) {
        CAPTURE(i);
        check_close(weights.row(i), expected.row(i));
    }
    CHECK(weights.row(0) == make(1, 3, {1, 0, 0}));
    CHECK(weights(1, 0) == 1.0f);
    CHECK(weights(1, 2) == 0.0f);
    CHECK(weights.row(2) == make(1, 3, {0.5f, 0, 0.5f}));
    CHECK(weights.row(4).hasNaN() == expected.row(4).hasNaN());
}

TEST_CASE("kernels::scale_mask_softmax: e^x over the whole float range stays within a few ulps") {
    // One row per exponent: a 0 (the max) and x; the weight of x is e^x / (1 + e^x).
    Matrix scores(1, 2);
    for (float x = -87.0f; x <= 0.0f; x += 0.37f) {
        scores << 0.0f, x;
        Matrix scaled, masked, weights;
        kernels::scale_mask_softmax(scores, 1, false, false, scaled, masked, weights);
        const double e = std::exp(static_cast<double>(x));
        CAPTURE(x);
        CHECK(std::fabs(weights(0, 1) - e / (1 + e)) <=
              4 * std::numeric_limits<float>::epsilon() * e / (1 + e));
    }
}

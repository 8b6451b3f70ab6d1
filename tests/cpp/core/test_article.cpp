// Every worked number of the tutorial article the module grew out of, checked
// against exact computation. Where the article's printed figure is wrong, the
// test asserts the correct value and docs/errata.md lists the discrepancy.
#include <doctest.h>

#include <numeric>

#include "attention/softmax_row.hpp"
#include "attention/stages.hpp"
#include "attention/statistics.hpp"
#include "helpers.hpp"

using test_support::make;
using test_support::round_to;

namespace {

// The article's rows, divided by √d_k (d_k = 1: not divided).
const auto article_row = test_support::softmax_of;

const std::vector<float> kXiRow = {15.3f, 22.7f, 18.2f, 2.1f, 1.8f, 3.2f, 2.9f, 5.6f, 4.1f};
}  // namespace

TEST_CASE("article: the 喜 row, ÷8, exp, sum 42.73, probabilities") {
    const auto steps = article_row(kXiRow, 64);

    const std::vector<double> scaled = {1.9125, 2.8375, 2.275, 0.2625, 0.225,
                                        0.4,    0.3625, 0.7,   0.5125};
    const std::vector<double> exps2 = {6.77, 17.07, 9.73, 1.30, 1.25, 1.49, 1.44, 2.01, 1.67};
    const std::vector<double> probs2 = {0.16, 0.40, 0.23, 0.03, 0.03, 0.03, 0.03, 0.05, 0.04};
    REQUIRE(steps.scaled.size() == 9);
    for (std::size_t j = 0; j < 9; ++j) {
        CAPTURE(j);
        CHECK(steps.scaled[j] == doctest::Approx(scaled[j]).epsilon(1e-6));
        CHECK(round_to(steps.exps[j], 2) == doctest::Approx(exps2[j]));
        CHECK(round_to(steps.probs[j], 2) == doctest::Approx(probs2[j]));
        CHECK(steps.probs[j] == doctest::Approx(steps.exps[j] / steps.exp_sum).epsilon(1e-5));
    }
    // The article's 42.73 is the sum of the exps as printed (two decimals);
    // the exact sum is 42.7354, which rounds to 42.74 (erratum E1).
    double printed_sum = 0;
    for (const float e : steps.exps) printed_sum += round_to(e, 2);
    CHECK(round_to(printed_sum, 2) == doctest::Approx(42.73));
    CHECK(steps.exp_sum == doctest::Approx(42.7354).epsilon(1e-5));
    CHECK(std::accumulate(steps.probs.begin(), steps.probs.end(), 0.0) ==
          doctest::Approx(1.0).epsilon(1e-6));
    // "喜" attends most to itself, then to "欢", then to "我".
    CHECK(steps.probs[1] > steps.probs[2]);
    CHECK(steps.probs[2] > steps.probs[0]);
}

TEST_CASE("article: the softmax Jacobian of the 喜 row is diag(p) − p·pᵀ") {
    const auto steps = article_row(kXiRow, 64);
    const auto& J = steps.jacobian;
    REQUIRE(J.rows() == 9);
    REQUIRE(J.cols() == 9);
    for (Eigen::Index i = 0; i < 9; ++i) {
        const double pi = steps.probs[static_cast<std::size_t>(i)];
        CHECK(J(i, i) == doctest::Approx(pi * (1 - pi)).epsilon(1e-6));
        CHECK(std::abs(J.row(i).sum()) < 1e-6);  // softmax is unchanged by adding a constant
        for (Eigen::Index j = 0; j < 9; ++j) {
            CHECK(J(i, j) == J(j, i));
            if (i != j) {
                CHECK(J(i, j) == doctest::Approx(-pi * steps.probs[static_cast<std::size_t>(j)]));
            }
        }
    }
}

TEST_CASE("article: five scores with and without ÷8 (numpy experiment)") {
    const std::vector<float> five(kXiRow.begin(), kXiRow.begin() + 5);
    // d_k = 1 means √d_k = 1: no scaling. Erratum E2: the article prints
    // [0.001, 0.997, 0.002, ≈0, ≈0]; the exact values are below.
    const auto raw = article_row(five, 1);
    CHECK(raw.probs[0] == doctest::Approx(0.000604).epsilon(1e-2));
    CHECK(raw.probs[1] == doctest::Approx(0.988416).epsilon(1e-5));
    CHECK(raw.probs[2] == doctest::Approx(0.010980).epsilon(1e-3));
    CHECK(raw.probs[3] < 2e-9);
    CHECK(raw.probs[4] < 2e-9);

    // Scaled: [0.187, 0.473, 0.269, 0.036, 0.035] (the article prints 0.270, erratum E3).
    const auto scaled = article_row(five, 64);
    const std::vector<double> expected = {0.187, 0.473, 0.269, 0.036, 0.035};
    for (std::size_t j = 0; j < 5; ++j) {
        CAPTURE(j);
        CHECK(round_to(scaled.probs[j], 3) == doctest::Approx(expected[j]));
    }
    // Without scaling the row is close to one-hot: the largest weight shrinks
    // from 0.988 to 0.473 once the scores are divided by 8.
    CHECK(raw.probs[1] > 0.98f);
    CHECK(scaled.probs[1] < 0.5f);
}

TEST_CASE("article: [10, 11, 9] stays soft, [40, 44, 36] is nearly one-hot") {
    const auto small = article_row({10, 11, 9}, 1);
    CHECK(small.exps[0] == doctest::Approx(22026.47).epsilon(1e-6));
    CHECK(small.exps[1] == doctest::Approx(59874.14).epsilon(1e-6));
    CHECK(small.exps[2] == doctest::Approx(8103.08).epsilon(1e-6));
    CHECK(small.exp_sum == doctest::Approx(90003.69).epsilon(1e-6));
    CHECK(round_to(small.probs[0], 3) == doctest::Approx(0.245));
    CHECK(round_to(small.probs[1], 3) == doctest::Approx(0.665));
    CHECK(round_to(small.probs[2], 3) == doctest::Approx(0.090));

    const auto big = article_row({40, 44, 36}, 1);
    CHECK(big.exps[0] == doctest::Approx(2.35e17).epsilon(1e-2));
    CHECK(big.exps[1] == doctest::Approx(1.29e19).epsilon(1e-2));
    CHECK(big.exps[2] == doctest::Approx(4.31e15).epsilon(1e-2));
    CHECK(big.exp_sum == doctest::Approx(1.31e19).epsilon(1e-2));
    CHECK(round_to(big.probs[0], 3) == doctest::Approx(0.018));
    CHECK(round_to(big.probs[1], 3) == doctest::Approx(0.982));
    CHECK(round_to(big.probs[2], 4) == doctest::Approx(0.0003));
    // exp(44) / exp(36) = e^8 ≈ 2980.96: a gap of 8 becomes a factor of ~3000.
    CHECK(big.exps[1] / big.exps[2] == doctest::Approx(2980.96).epsilon(1e-4));
}

TEST_CASE("article: [20, −10, 5] and its cross-entropy gradient, before and after ÷8") {
    const auto raw = article_row({20, -10, 5}, 1);
    // Erratum E4: the article prints [0.9999, 0.0000, 0.0001] and a gradient
    // ≈ [−0.0001, 0, 0]; the exact values are 1 − 3.06e−7, 9.36e−14, 3.06e−7.
    CHECK(raw.probs[0] == doctest::Approx(0.9999997).epsilon(1e-7));
    CHECK(raw.probs[1] == doctest::Approx(9.3576e-14).epsilon(1e-3));
    CHECK(raw.probs[2] == doctest::Approx(3.059e-7).epsilon(1e-3));
    const auto raw_grad = attention::cross_entropy_gradient(raw.probs, 0);
    CHECK(std::abs(raw_grad[0]) < 1e-6);  // almost nothing left to learn from
    CHECK(raw_grad[2] == doctest::Approx(3.059e-7).epsilon(1e-3));

    // ÷8 gives [2.5, −1.25, 0.625]. Erratum E5: the article prints
    // softmax [0.76, 0.02, 0.22] and gradient [−0.24, 0.02, 0.22]; exactly it
    // is [0.850, 0.020, 0.130] and [−0.150, 0.020, 0.130].
    const auto scaled = article_row({20, -10, 5}, 64);
    CHECK(scaled.scaled[0] == doctest::Approx(2.5));
    CHECK(scaled.scaled[1] == doctest::Approx(-1.25));
    CHECK(scaled.scaled[2] == doctest::Approx(0.625));
    CHECK(round_to(scaled.probs[0], 3) == doctest::Approx(0.850));
    CHECK(round_to(scaled.probs[1], 3) == doctest::Approx(0.020));
    CHECK(round_to(scaled.probs[2], 3) == doctest::Approx(0.130));
    const auto grad = attention::cross_entropy_gradient(scaled.probs, 0);
    CHECK(round_to(grad[0], 3) == doctest::Approx(-0.150));
    CHECK(round_to(grad[1], 3) == doctest::Approx(0.020));
    CHECK(round_to(grad[2], 3) == doctest::Approx(0.130));
    CHECK(std::abs(grad[0]) > 1e5 * std::abs(raw_grad[0]));
}

TEST_CASE("article: dot products of all-0.5 vectors grow with the dimension") {
    const std::vector<std::pair<int, float>> cases = {{2, 0.5f}, {4, 1.0f}, {64, 16.0f}};
    for (const auto& c : cases) {
        CAPTURE(c.first);
        const attention::Matrix q = attention::Matrix::Constant(1, c.first, 0.5f);
        const auto s = attention::attention_scores(q, q);
        CHECK(s(0, 0) == c.second);
    }
}

TEST_CASE("article: variance of [1, 2, 3, 4, 5] is 2, standard deviation √2 ≈ 1.41") {
    const auto data = make(1, 5, {1, 2, 3, 4, 5});
    CHECK(attention::mean(data) == 3.0);
    CHECK(attention::variance(data) == 2.0);
    CHECK(round_to(std::sqrt(attention::variance(data)), 2) == doctest::Approx(1.41));
}

TEST_CASE("article: 喜's weighted sum of V rows, first three dimensions") {
    // V rows of 我, 喜, 欢 as printed, each scaled by its weight (0.16, 0.40, 0.23).
    const auto v = make(3, 3, {0.31f, -0.12f, 0.45f, 0.42f, 0.15f, -0.08f, 0.05f, 0.28f, -0.18f});
    const auto terms =
        attention::weighted_sum(make(3, 3, {0.16f, 0, 0, 0, 0.40f, 0, 0, 0, 0.23f}), v);
    const std::vector<double> printed = {0.050,  -0.019, 0.072, 0.168, 0.060,
                                         -0.032, 0.012,  0.064, -0.041};
    for (Eigen::Index i = 0; i < 9; ++i) {
        CAPTURE(i);
        CHECK(round_to(terms(i / 3, i % 3), 3) ==
              doctest::Approx(printed[static_cast<std::size_t>(i)]));
    }
    // The row "喜" itself is the sum of those terms (here over three rows only).
    const auto row = attention::weighted_sum(make(1, 3, {0.16f, 0.40f, 0.23f}), v);
    CHECK(row(0, 0) == doctest::Approx(terms.col(0).sum()));
    CHECK(row(0, 2) == doctest::Approx(terms.col(2).sum()));
}

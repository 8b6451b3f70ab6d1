// The one softmax-row type: from a trace row or from given scores, every
// intermediate the page and the labs show, and the rules each one follows.
#include <doctest.h>

#include <cmath>
#include <limits>

#include "attention/model.hpp"
#include "attention/softmax_row.hpp"
#include "helpers.hpp"

using namespace attention;
using test_support::contains;
using test_support::error_from;
using test_support::softmax_of;

namespace {

SoftmaxRow at_temperature(const std::vector<float>& scores, double temperature) {
    RowScaling scaling;
    scaling.temperature = temperature;
    return softmax_row(scores, scaling);
}

const std::vector<float> kXiRow = {15.3f, 22.7f, 18.2f, 2.1f, 1.8f, 3.2f, 2.9f, 5.6f, 4.1f};

}  // namespace

TEST_CASE("softmax_row of a trace row: its own scores, scaled, masked and weights rows") {
    const Trace t = run_attention("我喜欢人工智能");
    const SoftmaxRow r = softmax_row(t, 2);
    CHECK(r.divisor == 8.0f);
    REQUIRE(r.probs.size() == 9);
    for (std::size_t j = 0; j < 9; ++j) {
        const auto c = static_cast<Eigen::Index>(j);
        CHECK(r.scores[j] == t.scores(2, c));
        CHECK(r.scaled[j] == t.scaled(2, c));
        CHECK(r.masked[j] == t.masked(2, c));
        CHECK(r.probs[j] == t.weights(2, c));
        CHECK(r.exps[j] == doctest::Approx(std::exp(t.scaled(2, c))));
        CHECK(r.shares[j] == doctest::Approx(r.probs[j]).epsilon(1e-5));
        CHECK(r.shifted_exps[j] / r.shifted_sum == doctest::Approx(r.probs[j]));
    }
    CHECK(r.max == t.scaled.row(2).maxCoeff());
    CHECK(r.prob_sum == doctest::Approx(1.0).epsilon(1e-6));
    CHECK_FALSE(r.overflowed);
    CHECK(r.jacobian.size() == 0);  // only on request
    CHECK(softmax_row(t, 2, true).jacobian.rows() == 9);
    Eigen::Index argmax = 0;
    t.weights.row(2).maxCoeff(&argmax);
    CHECK(r.argmax == static_cast<std::size_t>(argmax));
    CHECK(r.max_prob == t.weights(2, argmax));
    CHECK(contains(error_from([&] { softmax_row(t, -1); }).what(), "row -1 is outside"));
    CHECK(contains(error_from([&] { softmax_row(t, 9); }).what(), "9 tokens"));
}

TEST_CASE("softmax_row of a trace row: masked keys have exp 0; without scaling the divisor is 1") {
    Config c;
    c.causal = true;
    c.scale = false;
    const Trace t = run_attention("我喜欢人工智能", c);
    const SoftmaxRow r = softmax_row(t, 1);
    CHECK(r.divisor == 1.0f);
    CHECK(r.masked[2] == -std::numeric_limits<float>::infinity());
    CHECK(r.exps[2] == 0.0f);
    CHECK(r.shifted_exps[2] == 0.0f);
    CHECK(r.probs[2] == 0.0f);
    CHECK(r.prob_sum == doctest::Approx(1.0));
}

TEST_CASE("exp_rows: every row's exps and their total, as softmax_row gives them, masked keys 0") {
    Config c;
    c.causal = true;
    const Trace t = run_attention("我喜欢人工智能", c);
    const ExpRows e = exp_rows(t);
    REQUIRE(e.exps.rows() == 9);
    REQUIRE(e.exps.cols() == 9);
    REQUIRE(e.sums.size() == 9);
    for (Eigen::Index i = 0; i < 9; ++i) {
        const SoftmaxRow r = softmax_row(t, i);
        for (Eigen::Index j = 0; j < 9; ++j)
            CHECK(e.exps(i, j) == r.exps[static_cast<std::size_t>(j)]);
        CHECK(e.sums[static_cast<std::size_t>(i)] == r.exp_sum);
        if (i < 8) CHECK(e.exps(i, i + 1) == 0.0f);  // the causal mask hides what follows
    }
}

TEST_CASE("softmax_row of given scores: the same numbers as the trace's own row") {
    const Trace t = run_attention("我喜欢人工智能");
    const SoftmaxRow traced = softmax_row(t, 2);
    const SoftmaxRow given = softmax_of(traced.scores, 64);
    for (std::size_t j = 0; j < 9; ++j) {
        CAPTURE(j);
        CHECK(given.scaled[j] == traced.scaled[j]);
        CHECK(given.exps[j] == traced.exps[j]);
        CHECK(given.probs[j] == doctest::Approx(traced.probs[j]).epsilon(1e-6));
    }
    CHECK(given.exp_sum == traced.exp_sum);
    CHECK(given.argmax == traced.argmax);
}

TEST_CASE(
    "softmax_row: exps overflow like the article's plain formula, probabilities stay finite") {
    const auto steps = softmax_of({1000, 999, -1000}, 1);
    CHECK(std::isinf(steps.exps[0]));
    CHECK(std::isinf(steps.exp_sum));
    CHECK(steps.probs[0] == doctest::Approx(0.7310586));
    CHECK(steps.probs[1] == doctest::Approx(0.2689414));
    CHECK(steps.probs[2] == 0.0f);
}

TEST_CASE("softmax_row and cross_entropy_gradient reject bad arguments with a message") {
    using test_support::contains;
    using test_support::error_from;
    using test_support::softmax_of;
    CHECK(contains(error_from([] { softmax_of({}, 64); }).what(), "empty"));
    CHECK(contains(error_from([] { softmax_of({1, 2}, 0); }).what(), "d_k must be"));
    CHECK(contains(error_from([] { softmax_of({1, 2}, 2000); }).what(), "1 to 1024"));
    CHECK(contains(error_from([] { softmax_of({1, NAN}, 4); }).what(), "score 2"));
    CHECK(contains(error_from([] { softmax_of(std::vector<float>(513, 1.0f), 4); }).what(), "513"));
    CHECK(contains(error_from([] {
                       attention::cross_entropy_gradient({0.5f, 0.5f}, 2);
                   }).what(),
                   "target 2"));
}

TEST_CASE("softmax_row: the largest weight, its place, the entropy and the largest gradient") {
    const auto raw = softmax_of(std::vector<float>(kXiRow.begin(), kXiRow.begin() + 5), 1);
    const auto scaled = softmax_of(std::vector<float>(kXiRow.begin(), kXiRow.begin() + 5), 64);
    CHECK(raw.argmax == 1);
    CHECK(raw.max_prob == doctest::Approx(0.988416).epsilon(1e-5));
    CHECK(scaled.max_prob == doctest::Approx(0.4726).epsilon(1e-3));
    // Entropy by hand: −Σ p ln p.
    double h = 0;
    for (const float p : scaled.probs) h -= p * std::log(static_cast<double>(p));
    CHECK(scaled.entropy == doctest::Approx(h).epsilon(1e-5));
    CHECK(raw.entropy < 0.1f);          // nearly one-hot
    CHECK(scaled.entropy > 1.0f);       // a real spread
    CHECK(raw.max_jacobian < 0.02f);    // p(1 − p) ≈ 0.011: gradients vanish
    CHECK(scaled.max_jacobian > 0.2f);  // 0.473 · 0.527 ≈ 0.249
    const auto uniform = softmax_of({1, 1, 1, 1}, 4);
    CHECK(uniform.entropy == doctest::Approx(std::log(4.0)));
    CHECK(uniform.argmax == 0);
}

TEST_CASE("softmax_row at a temperature: from argmax to uniform") {
    const std::vector<float> row = {2, 1, 0};
    const auto cold = at_temperature(row, 0.01);
    const auto warm = at_temperature(row, 1.0);
    const auto hot = at_temperature(row, 1000.0);
    CHECK(cold.divisor == doctest::Approx(0.01));
    CHECK(cold.max_prob == doctest::Approx(1.0));
    CHECK(cold.entropy < 1e-3f);
    CHECK(warm.probs[0] == doctest::Approx(std::exp(2.0) / (std::exp(2.0) + std::exp(1.0) + 1.0)));
    CHECK(hot.entropy == doctest::Approx(std::log(3.0)).epsilon(1e-3));
    CHECK(contains(error_from([&] { at_temperature(row, 0); }).what(), "temperature"));
    CHECK(contains(error_from([&] { at_temperature(row, NAN); }).what(), "temperature"));
    CHECK(contains(error_from([] { at_temperature({}, 1); }).what(), "empty"));
}

TEST_CASE(
    "softmax_row: the plain formula's shares overflow where the stable probabilities do not") {
    const auto small = at_temperature({1, 2, 3}, 1);
    CHECK_FALSE(small.overflowed);
    CHECK(small.shares[2] ==
          doctest::Approx(std::exp(3.0) / (std::exp(1.0) + std::exp(2.0) + std::exp(3.0))));
    const auto big = at_temperature({1000, 999, -1000}, 1);
    CHECK(big.overflowed);
    CHECK(std::isinf(big.exps[0]));
    CHECK(std::isinf(big.exp_sum));
    CHECK(std::isnan(big.shares[0]));
    CHECK(big.shares[2] == 0.0f);
    CHECK(big.probs[0] == doctest::Approx(0.7310586));
    // float32 overflows just above 88.72.
    CHECK_FALSE(at_temperature({88.0f}, 1).overflowed);
    CHECK(at_temperature({89.0f}, 1).overflowed);
}

TEST_CASE("scaling_effect: the largest weight without ÷√d_k against with it, and the row's shape") {
    // The article's row of 喜: without ÷√8 almost one-hot, with it 0.40.
    const std::vector<float> article = {15.3f, 22.7f, 18.2f, 2.1f, 1.8f, 3.2f, 2.9f, 5.6f, 4.1f};
    const auto e = scaling_effect(article, 64);
    CHECK(e.unscaled_max == doctest::Approx(at_temperature(article, 1).max_prob));
    CHECK(e.scaled_max == doctest::Approx(0.40).epsilon(0.02));
    CHECK(std::string(e.shape) == "peaked");
    // Scores below 1 in size: ÷√d_k cannot sharpen them, but the margin keeps nearly equal rows
    // "same".
    CHECK(std::string(scaling_effect({0.01f, 0.0f, -0.01f}, 64).shape) == "same");
    CHECK(std::string(scaling_effect({1.0f, 1.0f}, 64).shape) == "same");
    // d_k = 1 divides by nothing: the same row both ways.
    const auto same = scaling_effect(article, 1);
    CHECK(same.unscaled_max == same.scaled_max);
    CHECK(std::string(same.shape) == "same");
    CHECK(contains(error_from([&] { scaling_effect(article, 0); }).what(), "d_k"));
    CHECK(contains(error_from([] { scaling_effect({}, 8); }).what(), "empty"));
}

TEST_CASE("softmax_row: order lists the keys by weight, largest first, ties in key order") {
    const SoftmaxRow r = softmax_row({1.0f, 3.0f, 2.0f, 3.0f, -1.0f});
    CHECK(r.order == std::vector<std::int32_t>{1, 3, 2, 0, 4});
    CHECK(r.order.front() == static_cast<std::int32_t>(r.argmax));
}

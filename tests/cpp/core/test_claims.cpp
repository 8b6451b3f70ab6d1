// The sentences the page states about numbers, decided by the core: each rule
// with a case on each side of its threshold (docs/claims.md lists them).
#include <doctest.h>

#include <cmath>
#include <limits>
#include <string>

#include "attention/claims.hpp"
#include "attention/dot_sample.hpp"
#include "attention/explain.hpp"
#include "attention/softmax_row.hpp"
#include "helpers.hpp"

using namespace attention;
using test_support::make;

namespace {

// A trace of two tokens that holds only what scaling_report reads.
Trace two_tokens(std::vector<float> scores, float divisor, std::vector<float> weights) {
    Trace t;
    t.scores = make(2, 2, scores);
    t.scaled = t.scores / divisor;
    t.masked = t.scaled;
    t.weights = make(2, 2, std::move(weights));
    return t;
}

}  // namespace

TEST_CASE("compare_size: smaller, larger, the same within 10 % of the larger") {
    CHECK(std::string(compare_size(0.0183, 0.2462)) == "smaller");
    CHECK(std::string(compare_size(0.2462, 0.0183)) == "larger");
    CHECK(std::string(compare_size(1.0, 0.95)) == "same");    // 5 % apart
    CHECK(std::string(compare_size(1.0, 0.85)) == "larger");  // 15 % apart
    CHECK(std::string(compare_size(0.85, 1.0)) == "smaller");
    CHECK(std::string(compare_size(0, 0)) == "same");
}

TEST_CASE("variance_kind: about 1 between 0.5 and 2") {
    CHECK(std::string(variance_kind(0.49)) == "below");
    CHECK(std::string(variance_kind(0.51)) == "unit");
    CHECK(std::string(variance_kind(1.99)) == "unit");
    CHECK(std::string(variance_kind(2.01)) == "above");
}

TEST_CASE("growth_kind: the nearest of ×1, ×2, ×4 on a log scale") {
    CHECK(std::string(growth_kind(1.40)) == "same");
    CHECK(std::string(growth_kind(1.42)) == "doubles");
    CHECK(std::string(growth_kind(2.82)) == "doubles");
    CHECK(std::string(growth_kind(2.84)) == "quadruples");
}

TEST_CASE("scaling_report: a row saturates from a largest weight of 0.9 on") {
    const Trace below = two_tokens({4, 0, 0, 4}, 2, {0.89f, 0.11f, 0.11f, 0.89f});
    const ScalingReport b = scaling_report(below);
    CHECK(std::string(b.saturation) == "spread");
    CHECK(b.saturated_rows == 0);
    CHECK(b.largest_weight == doctest::Approx(0.89));
    const Trace above = two_tokens({4, 0, 0, 4}, 2, {0.9f, 0.1f, 0.5f, 0.5f});
    const ScalingReport a = scaling_report(above);
    CHECK(std::string(a.saturation) == "saturates");
    CHECK(a.saturated_rows == 1);
    CHECK(a.rows == 2);
}

TEST_CASE("scaling_report: the variances within rows before and after ÷√d_k, against 1") {
    // Rows 4, 0 and 0, 4: each row's variance 4 (around its own mean 2); ÷2 → 1.
    const ScalingReport unit =
        scaling_report(two_tokens({4, 0, 0, 4}, 2, {0.5f, 0.5f, 0.5f, 0.5f}));
    CHECK(unit.score_row_variance == doctest::Approx(4));
    CHECK(unit.scaled_row_variance == doctest::Approx(1));
    CHECK(std::string(unit.variance) == "unit");
    const ScalingReport above =
        scaling_report(two_tokens({8, 0, 0, 8}, 2, {0.5f, 0.5f, 0.5f, 0.5f}));
    CHECK(above.scaled_row_variance == doctest::Approx(4));
    CHECK(std::string(above.variance) == "above");
    const ScalingReport below =
        scaling_report(two_tokens({1, 0, 0, 1}, 2, {0.5f, 0.5f, 0.5f, 0.5f}));
    CHECK(std::string(below.variance) == "below");
}

TEST_CASE("scaling_report: a row's offset, which softmax ignores, does not count") {
    // Rows 104, 100 and 0, 4: the same spread in each row (variance 4, scaled 1), far apart
    // from each other. Over all four cells the variance would be 2 504; within rows it is 4.
    const ScalingReport r = scaling_report(two_tokens({104, 100, 0, 4}, 2, {1, 0, 0, 1}));
    CHECK(r.score_row_variance == doctest::Approx(4));
    CHECK(r.scaled_row_variance == doctest::Approx(1));
    CHECK(std::string(r.variance) == "unit");
}

TEST_CASE("scaling_report: masked cells are left out, and a row that sees one key") {
    Trace t = two_tokens({4, 100, 0, 4}, 2, {1, 0, 0.5f, 0.5f});
    t.masked(0, 1) = -std::numeric_limits<float>::infinity();
    const ScalingReport r = scaling_report(t);
    // Row 0 sees one key (no spread to measure): only row 1, 0 and 4 → 4; scaled 0, 2 → 1.
    CHECK(r.score_row_variance == doctest::Approx(4));
    CHECK(r.scaled_row_variance == doctest::Approx(1));
}

TEST_CASE(
    "scaling_effect: the Jacobian's verdict at q·k, the cross-entropy gradient's at softmax's "
    "input") {
    // The article's five scores (E2, E3): without ÷√d_k the row is nearly one-hot.
    const std::vector<float> row = {15.3f, 22.7f, 18.2f, 2.1f, 1.8f};
    const ScalingEffect e = scaling_effect(row, 64, 0);
    CHECK(std::string(e.shape) == "peaked");
    // At softmax's input the Jacobian's largest entry is a twentieth (0.0115 against 0.249), but
    // back at q·k the scaled path also carries 1/√64: 0.0312, so without ÷√d_k a bit over a third
    // reaches q·k. Smaller, not vanished: the verdict is decided where W_q and W_k get it.
    CHECK(e.unscaled_jacobian == doctest::Approx(0.0115).epsilon(0.01));
    CHECK(e.scaled_jacobian == doctest::Approx(0.2493).epsilon(0.01));
    CHECK(e.scaled_jacobian_qk == doctest::Approx(e.scaled_jacobian / 8));
    CHECK(e.unscaled_jacobian < kVanishing * e.scaled_jacobian);
    CHECK(std::string(e.jacobian) == "smaller");
    CHECK(e.jacobian_times == 3);
    // Right answer 我 (not the peak): the cross-entropy gradient is *larger* without scaling.
    CHECK(std::string(e.gradient) == "larger");
    CHECK(e.unscaled_gradient == doctest::Approx(1 - softmax_row(row).probs[0]).epsilon(1e-4));
    CHECK_FALSE(e.target_on_peak);
    // Right answer 喜 (the peak): now it is the smaller one.
    const ScalingEffect peak = scaling_effect(row, 64, 1);
    CHECK(std::string(peak.gradient) == "smaller");
    CHECK(peak.target_on_peak);
    // Smaller off the peak too: two near-equal scores far above the rest, the answer the second.
    // Unscaled 0.525 / 0.475; ÷√32 spreads the rest, so the largest |p − one-hot| grows to 0.69.
    const ScalingEffect off = scaling_effect({10.0f, 9.9f, 0, 0, 0, 0, 0, 0, 0}, 32, 1);
    CHECK(std::string(off.gradient) == "smaller");
    CHECK_FALSE(off.target_on_peak);
    // Without a target: no gradient verdict.
    CHECK(std::string(scaling_effect(row, 64).gradient).empty());
    // ÷8 leaves this row spread (largest weight below kSaturated)...
    CHECK(e.scaled_max < kSaturated);
    CHECK(std::string(e.scaled_saturation) == "spread");
    // ...but a row of wider scores vanishes at q·k too, and stays nearly one-hot even scaled.
    const ScalingEffect wide = scaling_effect({0.0f, 60.0f, 10.0f}, 4);
    CHECK(std::string(wide.jacobian) == "vanishes");
    CHECK(wide.scaled_max >= kSaturated);
    CHECK(std::string(wide.scaled_saturation) == "saturates");
}

TEST_CASE("compare_gradient: vanishes at a tenth of the other or less, else as compare_size") {
    CHECK(std::string(compare_gradient(0.0183, 0.2462)) == "vanishes");
    CHECK(std::string(compare_gradient(0.024, 0.25)) == "vanishes");  // 9.6 %
    CHECK(std::string(compare_gradient(0.026, 0.25)) == "smaller");   // 10.4 %
    CHECK(std::string(compare_gradient(0.1892, 0.2492)) == "smaller");
    CHECK(std::string(compare_gradient(0.2462, 0.0183)) == "larger");
    CHECK(std::string(compare_gradient(0.24, 0.25)) == "same");
    CHECK(std::string(compare_gradient(0, 0)) == "same");
    CHECK(std::string(compare_gradient(0, 0.25)) == "zero");
    CHECK(std::string(compare_gradient(1e-30, 0.25)) == "vanishes");
}

TEST_CASE("times_smaller: b / a as the page says it, about 1/N") {
    CHECK(times_smaller(0.0012, 0.2090) == 174);  // 174.17: the Scaling experiment's 喜 row
    CHECK(times_smaller(0.0183, 0.2462) == 13);   // 13.45
    CHECK(times_smaller(0.25, 0.25) == 1);
    CHECK(times_smaller(1e-7, 0.25) == 2500000);  // two significant figures from 1 000 on
    CHECK(times_smaller(0.25, 999.4) == 4000);    // 3 997.6 to two significant figures
    CHECK(times_smaller(0.25, 249.6) == 998);     // 998.4: a whole number below 1 000
    CHECK(times_smaller(0, 0.25) == 0);
    CHECK(times_smaller(0.1, 0) == 0);
}

TEST_CASE("scaling_effect: a row peaked but not one-hot without ÷√d_k: smaller, not vanished") {
    // Scores 4 and 0: 0.982 without ÷√d_k (Jacobian 0.0177), 0.881 with d_k = 4 (0.105, and
    // 0.0525 at q·k after ÷2): a third reaches q·k.
    const ScalingEffect third = scaling_effect({4.0f, 0.0f}, 4);
    CHECK(third.unscaled_jacobian == doctest::Approx(0.0177).epsilon(0.01));
    CHECK(third.scaled_jacobian == doctest::Approx(0.105).epsilon(0.01));
    CHECK(third.scaled_jacobian_qk == doctest::Approx(0.0525).epsilon(0.01));
    CHECK(std::string(third.jacobian) == "smaller");
    CHECK(third.jacobian_times == 3);
    // Scores 8 and 0: 0.000335 against 0.0177 ÷ 2 = 0.00884, a 26th: it vanishes.
    const ScalingEffect vanished = scaling_effect({8.0f, 0.0f}, 4);
    CHECK(vanished.unscaled_jacobian < kVanishing * vanished.scaled_jacobian_qk);
    CHECK(std::string(vanished.jacobian) == "vanishes");
    CHECK(vanished.jacobian_times == 26);  // 0.00884 / 0.000335 = 26.4
    // Scores 1000 and 0: one-hot in float32, no gradient at all without ÷√d_k.
    const ScalingEffect none = scaling_effect({1000.0f, 0.0f}, 1024);
    CHECK(none.unscaled_jacobian == 0);
    CHECK(std::string(none.jacobian) == "zero");
}

TEST_CASE("scaling_effect: a flat row gets more gradient to q·k without ÷√d_k") {
    // p ≈ ⅓ each either way: the same Jacobian at softmax's input, and ÷2 on the scaled path.
    const ScalingEffect e = scaling_effect({0.01f, 0.0f, -0.01f}, 4);
    CHECK(std::string(e.shape) == "same");
    CHECK(e.unscaled_jacobian == doctest::Approx(e.scaled_jacobian).epsilon(0.01));
    CHECK(std::string(e.jacobian) == "larger");
    CHECK(std::string(scaling_effect({0.01f, 0.0f, -0.01f}, 1).jacobian) == "same");
}

TEST_CASE("cross_entropy_gradient: the target entry exact where 1 − p would round away") {
    // softmax([20, −10, 5]): p₀ = 1 − 3.06e−7 (the textbook's E4).
    const SoftmaxRow r = softmax_row({20, -10, 5});
    CHECK(r.probs[0] == doctest::Approx(0.99999969).epsilon(1e-7));
    CHECK(r.probs[2] == doctest::Approx(3.059e-7).epsilon(1e-3));
    const auto g = cross_entropy_gradient(r.probs, 0);
    CHECK(g[0] == doctest::Approx(-3.059e-7).epsilon(1e-3));
    CHECK(g[2] == r.probs[2]);
}

TEST_CASE("divide_by_max: a distribution only when none is negative and the values add up to 1") {
    const MaxDivision article = divide_by_max({2.5f, -1.25f, 0.625f});
    CHECK(std::string(article.kind) == "not");
    CHECK(article.negatives == 1);
    CHECK(article.values[0] == 1.0f);
    CHECK(article.values[1] == -0.5f);
    CHECK(article.sum == doctest::Approx(0.75));
    CHECK(std::string(divide_by_max({1, 0}).kind) == "distribution");  // 1 + 0
    CHECK(std::string(divide_by_max({2, 1}).kind) == "not");  // 1 + 0.5: positive, but not 1
    CHECK(std::string(divide_by_max({-1, -2}).kind) == "undefined");
    CHECK(divide_by_max({0, -2}).values.empty());
    CHECK_THROWS(divide_by_max({}));
}

TEST_CASE("compare_rows: the article's 喜 row beside another") {
    // 我 喜 欢: the article keeps most on 喜 itself; b gives most to 欢 and little to 喜.
    const std::vector<float> article = {0.16f, 0.40f, 0.23f};
    const RowComparison differ = compare_rows(article, {0.10f, 0.12f, 0.78f}, 1);
    CHECK_FALSE(differ.same_top);
    CHECK(differ.top_a == 1);
    CHECK(differ.top_b == 2);
    CHECK(std::string(differ.self) == "smaller");
    const RowComparison alike = compare_rows(article, {0.15f, 0.41f, 0.44f - 0.02f}, 1);
    CHECK(alike.top_b == 2);
    const RowComparison same = compare_rows(article, {0.2f, 0.42f, 0.38f}, 1);
    CHECK(same.same_top);
    CHECK(std::string(same.self) == "same");
    CHECK(std::string(compare_rows(article, {0.0f, 0.9f, 0.1f}, 1).self) == "larger");
    CHECK_THROWS(compare_rows(article, {0.5f, 0.5f}, 0));
    CHECK_THROWS(compare_rows(article, article, 3));
}

TEST_CASE("variance_growth: doubling d_k doubles the variance of q·k, measured") {
    const VarianceGrowth g = variance_growth(32, 64, 2000, 42);
    CHECK(std::string(g.growth) == "doubles");
    CHECK(g.ratio == doctest::Approx(2).epsilon(0.2));
    CHECK(std::string(variance_growth(32, 32, 2000, 42).growth) == "same");
    CHECK(std::string(variance_growth(16, 64, 2000, 42).growth) == "quadruples");
}

TEST_CASE("contributions: the longest term p_ij · v_j of an output row") {
    Trace t;
    t.weights = make(1, 2, {0.9f, 0.1f});
    t.v = make(2, 2, {1, 0, 0, 20});  // the small weight on a long value wins
    const Contributions c = contributions(t, 0);
    CHECK(c.lengths[0] == doctest::Approx(0.9));
    CHECK(c.lengths[1] == doctest::Approx(2.0));
    CHECK(c.strongest == 1);
    t.v = make(2, 2, {1, 0, 0, 5});
    CHECK(contributions(t, 0).strongest == 0);  // 0.9 against 0.5
}

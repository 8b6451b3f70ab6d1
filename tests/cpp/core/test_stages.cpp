// Each stage function on cases small enough to check by hand (2×2, d_k = 2).
#include <doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "attention/stages.hpp"
#include "helpers.hpp"
#include "src/exp_double.hpp"

using namespace attention;
using test_support::make;

namespace {
constexpr float kInf = std::numeric_limits<float>::infinity();
}

TEST_CASE("positional_encoding: sin on even columns, cos on odd, position 0 first") {
    const Matrix pe = positional_encoding(2, 4);
    REQUIRE(pe.rows() == 2);
    REQUIRE(pe.cols() == 4);
    // pos 0: sin 0 = 0, cos 0 = 1
    CHECK(pe(0, 0) == 0.0f);
    CHECK(pe(0, 1) == 1.0f);
    CHECK(pe(0, 2) == 0.0f);
    CHECK(pe(0, 3) == 1.0f);
    // pos 1: frequencies 1 and 1/10000^(2/4) = 1/100
    CHECK(pe(1, 0) == doctest::Approx(std::sin(1.0)));
    CHECK(pe(1, 1) == doctest::Approx(std::cos(1.0)));
    CHECK(pe(1, 2) == doctest::Approx(std::sin(0.01)));
    CHECK(pe(1, 3) == doctest::Approx(std::cos(0.01)));
    // An odd width ends on a sin column.
    const Matrix odd = positional_encoding(3, 3);
    CHECK(odd(2, 2) == doctest::Approx(std::sin(2.0 / std::pow(10000.0, 2.0 / 3.0))));
}

TEST_CASE(
    "positional_encoding: every entry of the largest table within 2·10⁻⁷ of double precision") {
    for (const Eigen::Index d_model : {1024, 767}) {
        const Matrix pe = positional_encoding(512, d_model);
        double worst = 0;
        for (Eigen::Index pos = 0; pos < 512; ++pos) {
            for (Eigen::Index j = 0; j < d_model; ++j) {
                const double angle =
                    static_cast<double>(pos) / std::pow(10000.0, 2.0 * static_cast<double>(j / 2) /
                                                                     static_cast<double>(d_model));
                const double exact = j % 2 == 0 ? std::sin(angle) : std::cos(angle);
                worst = std::max(worst, std::fabs(static_cast<double>(pe(pos, j)) - exact));
            }
        }
        CAPTURE(d_model);
        CAPTURE(worst);
        CHECK(worst < 2e-7);
    }
}

TEST_CASE("project: x·W + b with the bias added to every row") {
    const auto x = make(2, 2, {1, 2, 3, 4});
    const auto w = make(2, 2, {1, 2, 3, 4});
    RowVector b(2);
    b << 10, 20;
    const Matrix q = project(x, w, b);
    CHECK(q == make(2, 2, {17, 30, 25, 42}));
    // d_model 3 → d_k 2
    const Matrix wide = project(make(1, 3, {1, 1, 1}), make(3, 2, {1, 0, 0, 1, 1, 1}), b);
    CHECK(wide == make(1, 2, {12, 22}));
}

TEST_CASE("attention_scores: entry (i, j) is q_i · k_j") {
    const auto q = make(2, 2, {1, 2, 3, 4});
    const auto k = make(2, 2, {5, 6, 7, 8});
    CHECK(attention_scores(q, k) == make(2, 2, {17, 23, 39, 53}));
}

TEST_CASE("scale_scores: ÷√d_k when on, unchanged when off") {
    const auto s = make(2, 2, {8, 16, -24, 0});
    CHECK(scale_scores(s, 64, true) == make(2, 2, {1, 2, -3, 0}));
    CHECK(scale_scores(s, 4, true) == make(2, 2, {4, 8, -12, 0}));
    CHECK(scale_scores(s, 64, false) == s);
    const Matrix two = scale_scores(make(1, 1, {2}), 2, true);
    CHECK(two(0, 0) == doctest::Approx(std::sqrt(2.0)));
}

TEST_CASE("causal_mask: −∞ strictly above the diagonal, nothing else touched") {
    const auto s = make(3, 3, {1, 2, 3, 4, 5, 6, 7, 8, 9});
    const Matrix m = causal_mask(s, true);
    CHECK(m == make(3, 3, {1, -kInf, -kInf, 4, 5, -kInf, 7, 8, 9}));
    CHECK(causal_mask(s, false) == s);
}

TEST_CASE("softmax_rows: hand-checkable rows") {
    const Matrix p = softmax_rows(make(2, 2, {0, 0, std::log(3.0f), 0}));
    CHECK(p(0, 0) == doctest::Approx(0.5));
    CHECK(p(0, 1) == doctest::Approx(0.5));
    CHECK(p(1, 0) == doctest::Approx(0.75));
    CHECK(p(1, 1) == doctest::Approx(0.25));
    // Adding a constant to a row changes nothing.
    const Matrix shifted = softmax_rows(make(1, 2, {100 + std::log(3.0f), 100}));
    CHECK(shifted(0, 0) == doctest::Approx(0.75));
}

TEST_CASE("softmax_rows: masked entries get exactly 0, huge scores give no NaN or Inf") {
    const Matrix masked = softmax_rows(make(2, 2, {3, -kInf, 1, 2}));
    CHECK(masked(0, 0) == 1.0f);
    CHECK(masked(0, 1) == 0.0f);

    const Matrix huge = softmax_rows(make(3, 2, {1e30f, -1e30f, -1e30f, -1e30f, 1e30f, 1e30f}));
    CHECK(huge.allFinite());
    CHECK(huge(0, 0) == 1.0f);
    CHECK(huge(0, 1) == 0.0f);
    CHECK(huge(1, 0) == 0.5f);
    CHECK(huge(2, 1) == 0.5f);

    const Matrix extreme = softmax_rows(make(1, 3, {3e38f, -3e38f, 0}));
    CHECK(extreme.allFinite());
    CHECK(extreme(0, 0) == 1.0f);

    // No finite maximum: weight shared by the +∞ entries, or uniform when all are −∞.
    const Matrix inf = softmax_rows(make(2, 3, {kInf, 1, kInf, -kInf, -kInf, -kInf}));
    CHECK(inf == make(2, 3, {0.5f, 0, 0.5f, 1 / 3.0f, 1 / 3.0f, 1 / 3.0f}));
}

TEST_CASE("weighted_sum: row i is Σ_j p_ij v_j") {
    const auto w = make(2, 2, {0.5f, 0.5f, 1, 0});
    const auto v = make(2, 2, {2, 4, 6, 8});
    CHECK(weighted_sum(w, v) == make(2, 2, {4, 6, 2, 4}));
}

TEST_CASE("the stages chained on a 2-token, d_k = 2 example") {
    const auto q = make(2, 2, {1, 0, 0, 1});
    const auto k = make(2, 2, {2, 0, 0, 2});
    const auto v = make(2, 2, {1, 2, 3, 4});
    const Matrix scores = attention_scores(q, k);  // [[2, 0], [0, 2]]
    CHECK(scores == make(2, 2, {2, 0, 0, 2}));
    const Matrix scaled = scale_scores(scores, 2, true);  // [[√2, 0], [0, √2]]
    const Matrix p = softmax_rows(causal_mask(scaled, true));
    CHECK(p(0, 0) == 1.0f);
    CHECK(p(0, 1) == 0.0f);
    CHECK(p(1, 0) == doctest::Approx(1 / (1 + std::exp(std::sqrt(2.0)))));
    CHECK(p(1, 1) == doctest::Approx(1 / (1 + std::exp(-std::sqrt(2.0)))));
    const Matrix out = weighted_sum(p, v);
    CHECK(out(0, 0) == 1.0f);
    CHECK(out(0, 1) == 2.0f);
    CHECK(out(1, 0) == doctest::Approx(p(1, 0) * 1 + p(1, 1) * 3));
}

TEST_CASE(
    "exp_double (the positional frequencies, a worked softmax row): within 1 ulp of std::exp") {
    using attention::detail::exp_double;
    double worst = 0;
    for (double x = -745.0; x <= 709.7; x += 0.0137) {
        const double exact = std::exp(x);
        if (exact < std::numeric_limits<double>::min()) continue;  // subnormal results: below
        const double ulp = std::nextafter(exact, std::numeric_limits<double>::infinity()) - exact;
        worst = std::max(worst, std::fabs(exp_double(x) - exact) / ulp);
    }
    CHECK(worst <= 1.0);
    CHECK(exp_double(0.0) == 1.0);
    CHECK(exp_double(1.0) == doctest::Approx(2.718281828459045).epsilon(1e-15));
    CHECK(exp_double(710.0) == std::numeric_limits<double>::infinity());
    CHECK(exp_double(-746.0) == 0.0);
    CHECK(exp_double(-744.0) > 0.0);  // subnormal, not 0
    CHECK(std::isnan(exp_double(std::nan(""))));
    CHECK(exp_double(-std::numeric_limits<double>::infinity()) == 0.0);
}

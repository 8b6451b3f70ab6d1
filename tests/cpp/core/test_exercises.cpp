// "Your turn": the exercises' expected values, the usual mistakes' values, and
// the verdicts, each recomputed here from the trace's stages in double.
#include <doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "attention/exercises.hpp"
#include "attention/model.hpp"
#include "helpers.hpp"

using namespace attention;
using test_support::error_from;

namespace {

double e_to(double x) { return std::exp(x); }

// The example sentence on the random model at hand-sized widths.
Trace run_sized(std::int64_t d_model, std::int64_t d_k) {
    Config c;
    c.d_model = d_model;
    c.d_k = d_k;
    return run_attention("我喜欢人工智能", c);
}

// Σ_k e^(scores(r, k) / divisor): row r's sum of the article's e^x.
double row_exp_sum(const Trace& t, Eigen::Index r, double divisor) {
    double s = 0;
    for (Eigen::Index k = 0; k < t.scores.cols(); ++k) s += e_to(t.scores(r, k) / divisor);
    return s;
}

std::string verdict(const Exercise& e, double answer) {
    const Verdict v = check_answer(e, answer);
    return v.correct ? "correct" : v.mistake;
}

}  // namespace

TEST_CASE("exercise scaled: ÷√d_k is right; no division, ÷√d_model and ÷d_k are named") {
    const Trace t = run_attention("我喜欢人工智能");  // d_model 768, d_k 64
    const Exercise e = make_exercise(t, "scaled", 2, 3);
    const double score = t.scores(2, 3);
    CHECK(e.a.size() == 1);
    CHECK(e.a[0] == t.scores(2, 3));
    CHECK(e.expected == t.scaled(2, 3));
    CHECK(e.divisor == 8.0f);
    CHECK(verdict(e, score / 8) == "correct");
    CHECK(verdict(e, test_support::round_to(score / 8, 2)) == "correct");
    CHECK(verdict(e, score) == "no_scale");
    CHECK(verdict(e, score / std::sqrt(768.0)) == "sqrt_d_model");
    CHECK(verdict(e, score / 64) == "no_sqrt");
    CHECK(verdict(e, score / 8 + 5) == "");
}

TEST_CASE("exercise dot: q_i · k_j; the transposed pair (never given) is not named") {
    const Trace t = run_sized(8, 4);
    const Exercise e = make_exercise(t, "dot", 2, 4);
    REQUIRE(e.a.size() == 4);
    REQUIRE(e.b.size() == 4);
    double dot = 0;
    for (int d = 0; d < 4; ++d) {
        CHECK(e.a[static_cast<std::size_t>(d)] == t.q(2, d));
        CHECK(e.b[static_cast<std::size_t>(d)] == t.k(4, d));
        dot += static_cast<double>(t.q(2, d)) * t.k(4, d);
    }
    CHECK(verdict(e, dot) == "correct");
    CHECK(verdict(e, dot / 2) == "already_scaled");  // d_k = 4: ÷√4
    double swapped = 0;
    for (int d = 0; d < 4; ++d) swapped += static_cast<double>(t.q(4, d)) * t.k(2, d);
    REQUIRE(std::fabs(swapped - dot) > 0.1 + 0.02 * std::fabs(dot));  // the pair is asymmetric here
    CHECK(verdict(e, swapped) == "");  // q_4 and k_2 are not given: no mistake to name
}

TEST_CASE(
    "exercise dot by hand: the last four products, the others' sum given; leaving that sum out is "
    "named") {
    const Trace t = run_attention("我喜欢人工智能");  // d_k = 64
    const Exercise e = make_exercise(t, "dot", 2, 3);
    REQUIRE(e.by_hand == 4);
    CHECK(e.summed == 60);  // the products the given sum adds up
    REQUIRE(e.a.size() == 4);
    REQUIRE(e.b.size() == 4);
    double first = 0, last = 0;
    for (Eigen::Index d = 0; d < 60; ++d) first += static_cast<double>(t.q(2, d)) * t.k(3, d);
    for (Eigen::Index d = 60; d < 64; ++d) {
        CHECK(e.a[static_cast<std::size_t>(d - 60)] == t.q(2, d));
        CHECK(e.b[static_cast<std::size_t>(d - 60)] == t.k(3, d));
        last += static_cast<double>(t.q(2, d)) * t.k(3, d);
    }
    CHECK(e.partial_sum == doctest::Approx(first).epsilon(1e-5));
    CHECK(verdict(e, test_support::round_to(e.partial_sum, 2) + last) ==
          "correct");  // the given sum as printed
    CHECK(verdict(e, t.scores(2, 3)) == "correct");
    REQUIRE(std::fabs(first) > 2 * e.tolerance);  // the given sum matters here
    CHECK(verdict(e, last) == "partial_sum_left_out");
}

TEST_CASE("exercise exp: e^scaled; given x alone, no mistake is named") {
    const Trace t = run_sized(16, 4);
    const Exercise e = make_exercise(t, "exp", 2, 1);
    CHECK(e.expected == doctest::Approx(e_to(t.scores(2, 1) / 2.0)).epsilon(1e-5));
    CHECK(verdict(e, e_to(t.scores(2, 1) / 2.0)) == "correct");
    REQUIRE(std::fabs(t.scores(2, 1)) > 0.05);  // dividing by 2 changes e^x here
    CHECK(e.mistakes.empty());
    CHECK(verdict(e, e_to(t.scores(2, 1))) == "");  // the score is not given: no ÷√d_k to forget
}

TEST_CASE("exercise softmax: given e^(x − max), only leaving out the division is named") {
    const Trace t = run_attention("我喜欢人工智能");
    const Eigen::Index i = 2, j = 3;
    const Exercise e = make_exercise(t, "softmax", i, j);
    REQUIRE(e.a.size() == 9);
    // Given: each key's e^(x − max); what is left is one sum and one division.
    double row_max = -INFINITY, given_sum = 0;
    for (Eigen::Index k = 0; k < 9; ++k)
        row_max = std::max(row_max, static_cast<double>(t.scaled(i, k)));
    for (Eigen::Index k = 0; k < 9; ++k) {
        CHECK(e.a[static_cast<std::size_t>(k)] ==
              doctest::Approx(e_to(t.scaled(i, k) - row_max)).epsilon(1e-5));
        given_sum += static_cast<double>(e.a[static_cast<std::size_t>(k)]);
    }
    CHECK(verdict(e, e.a[static_cast<std::size_t>(j)] / given_sum) == "correct");
    const double top = e_to(t.scores(i, j) / 8);
    CHECK(verdict(e, top / row_exp_sum(t, i, 8)) == "correct");
    CHECK(verdict(e, t.weights(i, j)) == "correct");
    REQUIRE(std::fabs(e.a[static_cast<std::size_t>(j)] - e.expected) > 2 * e.tolerance);
    CHECK(verdict(e, e.a[static_cast<std::size_t>(j)]) == "not_normalised");
    // Nothing the learner was not given: the unshifted e^x, other rows, a column, the scores.
    CHECK(verdict(e, top) == "");
    CHECK(verdict(e, top / row_exp_sum(t, 5, 8)) == "");
    double column = 0;
    for (Eigen::Index r = 0; r < 9; ++r) column += e_to(t.scores(r, j) / 8);
    CHECK(verdict(e, top / column) == "");
    CHECK(verdict(e, e_to(t.scores(i, j)) / row_exp_sum(t, i, 1)) == "");
    for (const Mistake& m : e.mistakes) CHECK(std::fabs(m.value - e.expected) > e.tolerance);
    for (const Mistake& m : e.mistakes) CHECK(std::fabs(m.value) > 0.01f);  // never about 0
    CHECK(verdict(e, 0) == (e.expected < 0.005f ? "correct" : ""));         // 0 is no named mistake
    for (const Mistake& m : e.mistakes) CHECK(verdict(e, m.value) == m.id);
}

TEST_CASE("exercises: of two mistakes with the same value, the first is named") {
    // d_model 16, d_k 4: ÷√d_model and ÷d_k both divide by 4. sqrt_d_model is made first, so it
    // is the one offered and named.
    const Trace t = run_sized(16, 4);
    const Exercise e = make_exercise(t, "scaled", 2, 3);
    REQUIRE(std::fabs(t.scores(2, 3)) > 0.1);
    std::vector<std::string> ids;
    for (const Mistake& m : e.mistakes) ids.push_back(m.id);
    CHECK(ids == std::vector<std::string>{"no_scale", "sqrt_d_model"});
    CHECK(verdict(e, t.scores(2, 3) / 4.0) == "sqrt_d_model");
}

TEST_CASE("exercises: every mistake offered is computed from what the exercise gives") {
    // Each mistake an exercise may name, recomputed here from its givens alone (a, b, the given
    // sum, and the d_k and d_model its task states): any other would name a mistake the learner
    // could not have made. Every exercise, on every real token's row and several cells.
    auto from_givens = [](const Exercise& e, const std::string& id) -> double {
        double sum_ab = 0, sum_b = 0;
        for (std::size_t k = 0; k < e.b.size(); ++k) {
            if (k < e.a.size()) sum_ab += static_cast<double>(e.a[k]) * e.b[k];
            sum_b += e.b[k];
        }
        if (e.name == "dot" && id == "already_scaled")
            return (e.partial_sum + sum_ab) / std::sqrt(static_cast<double>(e.d_k));
        if (e.name == "dot" && id == "partial_sum_left_out") return sum_ab;
        if (e.name == "scaled" && id == "no_scale") return e.a[0];
        if (e.name == "scaled" && id == "sqrt_d_model")
            return e.a[0] / std::sqrt(static_cast<double>(e.d_model));
        if (e.name == "scaled" && id == "no_sqrt") return e.a[0] / static_cast<double>(e.d_k);
        if (e.name == "softmax" && id == "not_normalised")
            return e.a[static_cast<std::size_t>(e.col)];
        if (e.name == "output" && id == "unweighted") return sum_b;
        FAIL(
            std::string("exercise " + e.name + " offers " + id + ", which its givens cannot give"));
        return 0;
    };
    std::size_t offered = 0;
    for (const Trace& t : {run_attention("我喜欢人工智能"), run_sized(16, 4), run_sized(64, 16)}) {
        for (const std::string_view name : kExerciseNames) {
            for (std::int64_t row = 1; row + 1 < t.scores.rows(); ++row) {
                for (std::uint32_t seed = 0; seed < 3; ++seed) {
                    const auto [i, j] = pick_cell(t, name, row, seed);
                    const Exercise e = make_exercise(t, name, i, j);
                    for (const Mistake& m : e.mistakes) {
                        CAPTURE(m.id);
                        CHECK(m.value ==
                              doctest::Approx(from_givens(e, m.id)).epsilon(1e-4).scale(1));
                        ++offered;
                    }
                }
            }
        }
    }
    CHECK(offered > 100);
}

TEST_CASE("exercise output: Σ_k p_ik v_kj; the plain sum named, the weights' column not") {
    const Trace t = run_attention("我喜欢人工智能");
    const Eigen::Index i = 2, j = 5;
    const Exercise e = make_exercise(t, "output", i, j);
    REQUIRE(e.a.size() == 9);
    REQUIRE(e.b.size() == 9);
    double right = 0, column = 0, plain = 0;
    for (Eigen::Index k = 0; k < 9; ++k) {
        right += static_cast<double>(t.weights(i, k)) * t.v(k, j);
        column += static_cast<double>(t.weights(k, i)) * t.v(k, j);
        plain += t.v(k, j);
    }
    CHECK(verdict(e, right) == "correct");
    CHECK(verdict(e, plain) == "unweighted");
    REQUIRE(std::fabs(column - right) > 2 * e.tolerance);
    CHECK(verdict(e, column) == "");  // the weights' column i is not given
}

TEST_CASE("exercises: a mistake that gives the right value is not offered") {
    Config c;
    c.scale = false;
    const Trace t = run_attention("我喜欢人工智能", c);
    const Exercise e = make_exercise(t, "scaled", 2, 3);
    CHECK(e.divisor == 1.0f);
    CHECK(e.expected == t.scores(2, 3));
    for (const Mistake& m : e.mistakes) CHECK(m.id != "no_scale");
}

TEST_CASE("pick_cell: a real token's row, a key it sees, the same for the same seed") {
    Config c;
    c.causal = true;
    const Trace t = run_attention("我喜欢人工智能", c);
    for (std::uint32_t seed = 0; seed < 40; ++seed) {
        const auto [row, col] = pick_cell(t, "softmax", 3, seed);
        CHECK(row == 3);
        CHECK(col <= 3);  // the causal mask hides the keys after the query
        CHECK(t.weights(3, static_cast<Eigen::Index>(col)) >= 0.05f);
        CHECK(pick_cell(t, "softmax", 3, seed) == std::make_pair(row, col));
    }
    CHECK(pick_cell(t, "exp", 0, 7).first == 1);  // [CLS] is not a real token: the first one is
    CHECK(pick_cell(t, "output", 2, 7).second < 64);
    bool varies = false;
    for (std::uint32_t seed = 1; seed < 10; ++seed)
        varies |= pick_cell(t, "output", 2, seed) != pick_cell(t, "output", 2, 0);
    CHECK(varies);
}

TEST_CASE("exercises: unknown names, cells outside and answers that are not numbers are refused") {
    const Trace t = run_attention("我喜欢");
    CHECK(error_from([&] { make_exercise(t, "sum", 1, 1); }).code() == "invalid_argument");
    CHECK(error_from([&] { pick_cell(t, "sum", 1, 1); }).code() == "invalid_argument");
    CHECK(error_from([&] { make_exercise(t, "softmax", 1, 9); }).code() == "invalid_argument");
    CHECK(error_from([&] { make_exercise(t, "output", -1, 0); }).code() == "invalid_argument");
    const Exercise e = make_exercise(t, "softmax", 1, 1);
    CHECK(error_from([&] { check_answer(e, std::nan("")); }).code() == "invalid_argument");
}

// The cell and row arithmetic the page shows.
#include <doctest.h>

#include <algorithm>
#include <limits>

#include "attention/explain.hpp"
#include "attention/model.hpp"
#include "helpers.hpp"

using namespace attention;
using test_support::contains;
using test_support::error_from;
using test_support::make;

TEST_CASE("dot_terms: a score is q_i · k_j, term by term") {
    const Trace t = run_attention("我喜欢人工智能");
    const DotTerms d = dot_terms(t, "scores", 2, 3);
    REQUIRE(d.products.size() == 64);
    double sum = 0;
    for (std::size_t k = 0; k < 64; ++k) {
        CHECK(d.a[k] == t.q(2, static_cast<Eigen::Index>(k)));
        CHECK(d.b[k] == t.k(3, static_cast<Eigen::Index>(k)));
        CHECK(d.products[k] == d.a[k] * d.b[k]);
        sum += d.products[k];
    }
    CHECK(d.total == t.scores(2, 3));
    CHECK(sum == doctest::Approx(d.total).epsilon(1e-4));
    CHECK(d.products_min == *std::min_element(d.products.begin(), d.products.end()));
    CHECK(d.products_max == *std::max_element(d.products.begin(), d.products.end()));
}

TEST_CASE("dot_terms: an output element is Σ_k p_ik · v_kj") {
    const Trace t = run_attention("我喜欢人工智能");
    const DotTerms d = dot_terms(t, "output", 2, 5);
    REQUIRE(d.products.size() == 9);
    double sum = 0;
    for (std::size_t k = 0; k < 9; ++k) {
        CHECK(d.a[k] == t.weights(2, static_cast<Eigen::Index>(k)));
        CHECK(d.b[k] == t.v(static_cast<Eigen::Index>(k), 5));
        sum += d.products[k];
    }
    CHECK(sum == doctest::Approx(t.output(2, 5)).epsilon(1e-5));
    CHECK(contains(error_from([&] { dot_terms(t, "weights", 0, 0); }).what(), "\"scores\""));
    CHECK(contains(error_from([&] { dot_terms(t, "scores", 9, 0); }).what(),
                   "outside scores (9 × 9)"));
    CHECK(contains(error_from([&] { dot_terms(t, "output", 0, 64); }).what(), "outside output"));
}

TEST_CASE("weighted_rows: row k is p_ik · v_k, and the rows add up to output row i") {
    const Trace t = run_attention("我喜欢人工智能");
    const Matrix w = weighted_rows(t, 2);
    REQUIRE(w.rows() == 9);
    REQUIRE(w.cols() == 64);
    CHECK(w.row(4) == t.weights(2, 4) * t.v.row(4));
    CHECK((w.colwise().sum() - t.output.row(2)).cwiseAbs().maxCoeff() < 1e-5f);
}

TEST_CASE("row_sums, finite_range and cosine_similarity") {
    const float inf = std::numeric_limits<float>::infinity();
    const Matrix m = make(2, 3, {1, 2, -inf, 0.5f, 0.25f, 0.25f});
    CHECK(row_sums(m) == std::vector<float>{3, 1});
    const FiniteRange r = finite_range(m);
    CHECK(r.min == 0.25f);
    CHECK(r.max == 2.0f);
    CHECK(finite_range(make(1, 1, {-inf})).min == 0.0f);
    CHECK(cosine_similarity(make(1, 2, {1, 0}), make(1, 2, {0, 3})) == 0.0f);
    CHECK(cosine_similarity(make(1, 2, {1, 1}), make(1, 2, {2, 2})) == doctest::Approx(1.0));
    CHECK(cosine_similarity(make(1, 2, {1, 1}), make(1, 2, {-1, -1})) == doctest::Approx(-1.0));
    CHECK(cosine_similarity(make(1, 2, {0, 0}), make(1, 2, {1, 1})) == 0.0f);
}

TEST_CASE("cosine_similarity of two trace rows: rows are checked, in either trace") {
    const Trace a = run_attention("我喜欢人工智能");
    const Trace b = run_attention("我不喜欢下雨");
    // 喜 has the same embedding row in both sentences, and its own row matches itself.
    CHECK(cosine_similarity(a, "embeddings", 2, b, "embeddings", 3) == doctest::Approx(1.0));
    CHECK(cosine_similarity(a, "output", 2, a, "output", 2) == doctest::Approx(1.0));
    CHECK(cosine_similarity(a, "output", 2, b, "output", 3) < 0.999f);
    CHECK(contains(error_from([&] { cosine_similarity(a, "x", 9, b, "x", 0); }).what(),
                   "outside x (9 × 768)"));
    CHECK(contains(error_from([&] { cosine_similarity(a, "x", 0, b, "x", -1); }).what(),
                   "outside x"));
    CHECK(error_from([&] { cosine_similarity(a, "nope", 0, b, "x", 0); }).code() ==
          "unknown_stage");
    CHECK(contains(error_from([&] { cosine_similarity(a, "x", 0, b, "q", 0); }).what(),
                   "same length"));
}

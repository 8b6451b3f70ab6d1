// How symmetric a head's scores are and how much weight stays on the token
// itself: the rule on small matrices, and on a run.
#include <doctest.h>

#include <cmath>

#include "attention/model.hpp"
#include "attention/symmetry.hpp"
#include "helpers.hpp"

using namespace attention;
using test_support::contains;
using test_support::error_from;
using test_support::make;

TEST_CASE("qk_symmetry: offsets taken out; 1 for S = Sᵀ, 0 for an antisymmetric pattern, the share in between; the diagonal's mean") {
    const Matrix weights = make(2, 2, {0.75f, 0.25f, 0.5f, 0.5f});
    CHECK(qk_symmetry(make(2, 2, {1, 2, 2, 5}), weights).symmetric_share == doctest::Approx(1.0));
    // A row's offset and a popular key are no pairs: [[5, 7], [1, 3]] = rows (6, 2) + columns (−1, 1) is all offsets.
    CHECK(qk_symmetry(make(2, 2, {5, 7, 1, 3}), weights).symmetric_share == 1.0);
    // 3 × 3 with a cyclic pair pattern (i takes i + 1, not i − 1), centred already: antisymmetric plus nothing.
    const Matrix cyclic = make(3, 3, {0, 1, -1, -1, 0, 1, 1, -1, 0});
    CHECK(qk_symmetry(cyclic, Matrix::Identity(3, 3)).symmetric_share == doctest::Approx(0.0));
    // Half and half: C = A + B with A symmetric, B antisymmetric, ‖A‖ = ‖B‖.
    const Matrix sym = make(3, 3, {2, -1, -1, -1, 2, -1, -1, -1, 2});
    const Matrix half = sym + cyclic * std::sqrt(sym.squaredNorm() / cyclic.squaredNorm());
    CHECK(qk_symmetry(half, Matrix::Identity(3, 3)).symmetric_share == doctest::Approx(0.5));
    CHECK(qk_symmetry(Matrix::Zero(2, 2), weights).symmetric_share == 1.0);
    CHECK(qk_symmetry(make(2, 2, {1, 2, 2, 5}), weights).self_share == doctest::Approx(0.625));
    CHECK(contains(error_from([&] { qk_symmetry(Matrix::Zero(2, 3), weights); }).what(), "n × n"));
}

TEST_CASE("qk_symmetry of a run: its own scores and weights") {
    const Trace t = run_attention("我喜欢人工智能");
    const QkSymmetry q = qk_symmetry(t);
    CHECK(q.symmetric_share > 0.0);
    CHECK(q.symmetric_share < 1.0);  // W_q and W_k apart: not symmetric
    CHECK(q.self_share == doctest::Approx(t.weights.diagonal().mean()));
}

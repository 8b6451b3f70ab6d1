// How symmetric a head's scores are and how much weight stays on the token
// itself: the rule on small matrices, the note for a one-way head whose scores
// are mostly symmetric (kMostlySymmetric, a case on each side), and on a run.
#include <doctest.h>

#include <cmath>

#include "attention/heads.hpp"
#include "attention/model.hpp"
#include "attention/symmetry.hpp"
#include "helpers.hpp"

using namespace attention;
using test_support::contains;
using test_support::error_from;
using test_support::make;

namespace {

// n × n weights where every row puts `main` on column column_of(i), the rest spread evenly.
Matrix weights(Eigen::Index n, float main, Eigen::Index (*column_of)(Eigen::Index, Eigen::Index)) {
    Matrix w = Matrix::Constant(n, n, (1 - main) / static_cast<float>(n - 1));
    for (Eigen::Index i = 0; i < n; ++i) w(i, column_of(i, n)) = main;
    return w;
}

// 6 × 6 scores, centred already (every row and column sums to 0), whose symmetric share is `share`:
// a symmetric circulant (2 on the diagonal, −1 beside it) plus t × an antisymmetric one (1 after,
// −1 before).
Matrix scores_with_share(double share) {
    Matrix sym = Matrix::Zero(6, 6), anti = Matrix::Zero(6, 6);
    for (Eigen::Index i = 0; i < 6; ++i) {
        sym(i, i) = 2;
        sym(i, (i + 1) % 6) = sym(i, (i + 5) % 6) = -1;
        anti(i, (i + 1) % 6) = 1;
        anti(i, (i + 5) % 6) = -1;
    }
    const double t = std::sqrt(sym.squaredNorm() * (1 / share - 1) / anti.squaredNorm());
    return sym + static_cast<float>(t) * anti;
}

const std::vector<std::int32_t> kIds = {2, 5, 6, 7, 8, 3};  // [CLS] 我 喜 欢 你 [SEP]

}  // namespace

TEST_CASE(
    "symmetric_share: offsets taken out; 1 for S = Sᵀ, 0 for an antisymmetric pattern, the share "
    "in between") {
    CHECK(symmetric_share(make(2, 2, {1, 2, 2, 5})) == doctest::Approx(1.0));
    // A row's offset and a popular key are no pairs: [[5, 7], [1, 3]] = rows (6, 2) + columns (−1,
    // 1) is all offsets.
    CHECK(symmetric_share(make(2, 2, {5, 7, 1, 3})) == 1.0);
    // 3 × 3 with a cyclic pair pattern (i takes i + 1, not i − 1), centred already: antisymmetric
    // plus nothing.
    const Matrix cyclic = make(3, 3, {0, 1, -1, -1, 0, 1, 1, -1, 0});
    CHECK(symmetric_share(cyclic) == doctest::Approx(0.0));
    // Half and half: C = A + B with A symmetric, B antisymmetric, ‖A‖ = ‖B‖.
    const Matrix sym = make(3, 3, {2, -1, -1, -1, 2, -1, -1, -1, 2});
    const Matrix half = sym + cyclic * std::sqrt(sym.squaredNorm() / cyclic.squaredNorm());
    CHECK(symmetric_share(half) == doctest::Approx(0.5));
    CHECK(symmetric_share(Matrix::Zero(2, 2)) == 1.0);
    CHECK(symmetric_share(scores_with_share(0.8)) == doctest::Approx(0.8));
    CHECK(contains(error_from([&] { symmetric_share(Matrix::Zero(2, 3)); }).what(), "n × n"));
}

TEST_CASE(
    "qk_symmetry: the weight on itself is the heads' report's, over the real tokens as queries "
    "([CLS] and [SEP] left out)") {
    // [CLS] and [SEP] keep everything on themselves; the real tokens 0.25 each.
    Matrix w = weights(6, 0.25f, [](Eigen::Index i, Eigen::Index) { return i; });
    w.row(0).setZero(), w(0, 0) = 1;
    w.row(5).setZero(), w(5, 5) = 1;
    const QkSymmetry q = qk_symmetry(scores_with_share(0.5), w, kIds);
    CHECK(q.self_share ==
          doctest::Approx(0.25));  // not (1 + 4 × 0.25 + 1) / 6 = 0.5 over every row
    CHECK(q.self_share == doctest::Approx(head_report(w, kIds).shares.self));
    CHECK(q.self_share == doctest::Approx(mean_self_weight(w)));
    CHECK(q.symmetric_share + q.antisymmetric_share == doctest::Approx(1.0));
    CHECK(contains(error_from([&] { qk_symmetry(Matrix::Zero(5, 5), w, kIds); }).what(), "n × n"));
    CHECK(contains(error_from([&] { mean_self_weight(Matrix::Zero(2, 2)); }).what(), "n ≥ 3"));
}

TEST_CASE(
    "qk_symmetry: a head that looks one way (next or previous) though its scores are more than "
    "kMostlySymmetric symmetric") {
    const Matrix next =
        weights(6, 0.7f, [](Eigen::Index i, Eigen::Index n) { return std::min(i + 1, n - 1); });
    const Matrix previous =
        weights(6, 0.7f, [](Eigen::Index i, Eigen::Index) { return i > 0 ? i - 1 : 0; });
    const Matrix self = weights(6, 0.7f, [](Eigen::Index i, Eigen::Index) { return i; });
    const Matrix spread = Matrix::Constant(6, 6, 1.0f / 6);
    REQUIRE(head_report(next, kIds).label == "next");
    REQUIRE(head_report(previous, kIds).label == "previous");
    // Above the threshold (0.80 > 0.75): the note, with the direction and its share.
    const QkSymmetry above = qk_symmetry(scores_with_share(0.8), next, kIds);
    CHECK(above.symmetric_share > kMostlySymmetric);
    CHECK(above.one_way == "next");
    CHECK(above.one_way_share == doctest::Approx(head_report(next, kIds).shares.next));
    CHECK(above.antisymmetric_share == doctest::Approx(0.2));
    CHECK(qk_symmetry(scores_with_share(0.8), previous, kIds).one_way == "previous");
    // Below it (0.70 < 0.75): no note, for either direction.
    const QkSymmetry below = qk_symmetry(scores_with_share(0.7), next, kIds);
    CHECK(below.symmetric_share < kMostlySymmetric);
    CHECK(below.one_way.empty());
    CHECK(below.one_way_share == 0.0);
    CHECK(qk_symmetry(scores_with_share(0.7), previous, kIds).one_way.empty());
    // Mostly symmetric but not one way (looks at itself, or no label): no note.
    CHECK(qk_symmetry(scores_with_share(0.8), self, kIds).one_way.empty());
    CHECK(qk_symmetry(scores_with_share(0.8), spread, kIds).one_way.empty());
}

TEST_CASE("qk_symmetry of a run: its own scores and weights") {
    const Trace t = run_attention("我喜欢人工智能");
    const QkSymmetry q = qk_symmetry(t);
    CHECK(q.symmetric_share > 0.0);
    CHECK(q.symmetric_share < 1.0);  // W_q and W_k apart: not symmetric
    CHECK(q.self_share == doctest::Approx(head_report(t).shares.self));
}

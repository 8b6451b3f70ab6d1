// The encoder's ops (ops.hpp) one at a time: each backward against central
// differences in double, on the loss Σ dy ∘ op(inputs) with a random dy, for
// every input and param the op has; and softmax's rule for ±∞. The whole
// model's check is test_encoder.cpp's.
#include <doctest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "attention/ops.hpp"
#include "train/mlm.hpp"

using namespace attention;
using attention::train::Rng;
using M = Mat<double>;

namespace {

M random(Eigen::Index rows, Eigen::Index cols, Rng& rng, double scale = 1) {
    M m(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = scale * (rng.uniform() * 2 - 1);
    return m;
}

double dot(const M& a, const M& b) { return (a.array() * b.array()).sum(); }

// The largest |analytic − numeric| over x's entries, where numeric is the
// central difference of loss() as each entry of x moves; also reports the
// largest numeric gradient (so a check cannot pass on an op that ignores x).
struct Agreement {
    double worst = 0, largest = 0;
};
Agreement compare(M& x, const M& analytic, const std::function<double()>& loss) {
    REQUIRE(analytic.rows() == x.rows());
    REQUIRE(analytic.cols() == x.cols());
    Agreement a;
    const double h = 1e-6;
    for (Eigen::Index i = 0; i < x.size(); ++i) {
        const double keep = x.data()[i];
        x.data()[i] = keep + h;
        const double up = loss();
        x.data()[i] = keep - h;
        const double down = loss();
        x.data()[i] = keep;
        const double numeric = (up - down) / (2 * h);
        if (!std::isfinite(numeric)) continue;
        a.worst = std::fmax(a.worst, std::fabs(numeric - analytic.data()[i]));
        a.largest = std::fmax(a.largest, std::fabs(numeric));
    }
    return a;
}

void check(const char* what, M& x, const M& analytic, const std::function<double()>& loss) {
    const Agreement a = compare(x, analytic, loss);
    MESSAGE(std::string(what) << ": max |analytic − numeric| = " << a.worst << " (largest gradient "
                              << a.largest << ")");
    CAPTURE(std::string(what));
    CHECK(a.largest > 1e-3);
    CHECK(a.worst <= 1e-7 * std::fmax(1.0, a.largest));
}

}  // namespace

TEST_CASE("ops: GELU's backward is its derivative, its forward BERT's tanh form") {
    Rng rng(1);
    M x = random(3, 5, rng, 3);
    const M dy = random(3, 5, rng);
    check("gelu", x, ops::gelu_backward<double>(dy, x),
          [&] { return dot(dy, ops::gelu<double>(x)); });
    // 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))) at x = 1: 0.841192 (BERT's gelu).
    CHECK(ops::gelu<double>(M::Constant(1, 1, 1.0))(0, 0) ==
          doctest::Approx(0.8411919906).epsilon(1e-9));
    CHECK(ops::gelu<float>(Mat<float>::Constant(1, 1, -20.0f))(0, 0) ==
          doctest::Approx(0.0).epsilon(1e-6));
}

TEST_CASE("ops: LayerNorm's backward for its input, gain and bias") {
    Rng rng(2);
    M r = random(4, 6, rng, 2), gain = random(1, 6, rng), bias = random(1, 6, rng);
    const M dy = random(4, 6, rng);
    M xhat, inv_std, dgain = M::Zero(1, 6), dbias = M::Zero(1, 6);
    ops::layer_norm(r, gain, bias, xhat, inv_std);
    const M dr = ops::layer_norm_backward(dy, xhat, inv_std, gain, dgain, dbias);
    const auto loss = [&] {
        M h, s;
        return dot(dy, ops::layer_norm(r, gain, bias, h, s));
    };
    check("layer_norm: input", r, dr, loss);
    check("layer_norm: gain", gain, dgain, loss);
    check("layer_norm: bias", bias, dbias, loss);
    // Each normalised row has mean 0 and variance 1 (up to ε).
    CHECK(xhat.row(0).sum() == doctest::Approx(0).epsilon(1e-12));
    CHECK(xhat.row(0).squaredNorm() / 6 == doctest::Approx(1).epsilon(1e-4));
}

TEST_CASE("ops: softmax's backward, with masked (−∞) entries getting none") {
    Rng rng(3);
    constexpr double kInf = std::numeric_limits<double>::infinity();
    M s = random(3, 4, rng, 3);
    s(0, 3) = s(1, 2) = s(1, 3) = -kInf;  // a causal mask's shape
    const M dp = random(3, 4, rng);
    const M p = ops::softmax_rows<double>(s);
    const M ds = ops::softmax_rows_backward<double>(dp, p);
    check("softmax", s, ds, [&] { return dot(dp, ops::softmax_rows<double>(s)); });
    CHECK(ds(0, 3) == 0.0);
    CHECK(ds(1, 2) == 0.0);
    // Each gradient row sums to 0: shifting a row does not change softmax.
    for (Eigen::Index i = 0; i < 3; ++i)
        CHECK(ds.row(i).sum() == doctest::Approx(0).epsilon(1e-12));
}

TEST_CASE("ops: softmax's rule for ±∞ (the page's, the encoder's and the trainer's one rule)") {
    constexpr float kInf = std::numeric_limits<float>::infinity();
    Mat<float> s(4, 3);
    s << 1, 2, -kInf,         // a masked key: exactly 0
        -kInf, -kInf, -kInf,  // nothing visible: equal shares
        kInf, 0, kInf,        // +∞ takes it all, shared
        1000, 0, -1000;       // large but finite: no overflow (the maximum is subtracted)
    const Mat<float> p = ops::softmax_rows<float>(s);
    CHECK(p(0, 2) == 0.0f);
    CHECK(p(0, 0) + p(0, 1) == doctest::Approx(1.0f));
    CHECK(p(0, 1) / p(0, 0) == doctest::Approx(std::exp(1.0f)));
    for (int j = 0; j < 3; ++j) CHECK(p(1, j) == doctest::Approx(1.0f / 3));
    CHECK(p(2, 0) == 0.5f);
    CHECK(p(2, 1) == 0.0f);
    CHECK(p(2, 2) == 0.5f);
    CHECK(p(3, 0) == 1.0f);
    CHECK(p.allFinite());
}

TEST_CASE("ops: one attention head's backward for Q, K and V") {
    Rng rng(4);
    const double scale = 1 / std::sqrt(3.0);
    M q = random(5, 3, rng), k = random(5, 3, rng), v = random(5, 2, rng);
    const M da = random(5, 2, rng);
    M p, dq, dk, dv;
    ops::attention_head<double>(q, k, v, scale, p);
    ops::attention_head_backward<double>(da, q, k, v, p, scale, dq, dk, dv);
    const auto loss = [&] {
        M scratch;
        return dot(da, ops::attention_head<double>(q, k, v, scale, scratch));
    };
    check("attention: Q", q, dq, loss);
    check("attention: K", k, dk, loss);
    check("attention: V", v, dv, loss);
    // The forward is the paper's formula: softmax(Q·Kᵀ/√d_k)·V.
    const M expected = ops::softmax_rows<double>(M(q * k.transpose() * scale)) * v;
    CHECK((ops::attention_head<double>(q, k, v, scale, p) - expected).cwiseAbs().maxCoeff() <
          1e-12);
}

TEST_CASE("ops: a linear layer's backward for x, W and b") {
    Rng rng(5);
    M x = random(4, 3, rng), w = random(3, 5, rng), b = random(1, 5, rng);
    const M dy = random(4, 5, rng);
    M dw = M::Zero(3, 5), db = M::Zero(1, 5);
    const M dx = ops::linear_backward(dy, x, w, dw, db);
    const auto loss = [&] {
        M y = x * w;
        y.rowwise() += b.row(0);
        return dot(dy, y);
    };
    check("linear: x", x, dx, loss);
    check("linear: W", w, dw, loss);
    check("linear: b", b, db, loss);
}

TEST_CASE("ops: the embedding's backward collects one gradient per use of a token") {
    Rng rng(6);
    M tok = random(6, 4, rng);
    const M positional = random(3, 4, rng);
    const std::vector<std::int32_t> ids = {2, 5, 2,
                                           1, 2, 0};  // two sequences of 3; token 2 three times
    const M dx0 = random(6, 4, rng);
    M dtok = M::Zero(6, 4);
    ops::embed_backward(dx0, ids, dtok);
    check("embedding: tok", tok, dtok, [&] { return dot(dx0, ops::embed(tok, ids, positional)); });
    CHECK(dtok.row(3).isZero());  // a token not used gets nothing
    CHECK((ops::embed(tok, ids, positional).row(4) - (tok.row(2) + positional.row(1))).isZero());
}

TEST_CASE(
    "ops: the tied decoder's cross-entropy backward for the rows, the embeddings and the bias") {
    Rng rng(7);
    M rows = random(3, 4, rng), tok = random(7, 4, rng), bias = random(1, 7, rng);
    const std::vector<std::int32_t> targets = {1, 6, 1};
    M probs, dtok = M::Zero(7, 4), dbias = M::Zero(1, 7);
    const double loss0 = ops::cross_entropy(rows, tok, bias, targets, probs);
    const M drows = ops::cross_entropy_backward(rows, tok, targets, probs, dtok, dbias);
    const auto loss = [&] {
        M scratch;
        return ops::cross_entropy(rows, tok, bias, targets, scratch);
    };
    check("cross-entropy: rows", rows, drows, loss);
    check("cross-entropy: tok", tok, dtok, loss);
    check("cross-entropy: bias", bias, dbias, loss);
    // The mean of −log p[target].
    double expected = 0;
    for (std::size_t m = 0; m < targets.size(); ++m)
        expected -= std::log(probs(static_cast<Eigen::Index>(m), targets[m]));
    CHECK(loss0 == doctest::Approx(expected / 3));
}

// Properties of whole traces: shapes, the identities between stages, masks,
// determinism, the variance the defaults are designed for, and a float64 oracle.
#include <doctest.h>

#include <limits>
#include <set>

#include "attention/model.hpp"
#include "attention/stages.hpp"
#include "attention/statistics.hpp"
#include "helpers.hpp"

using namespace attention;
using test_support::check_close;
using test_support::check_product;
using test_support::contains;
using test_support::error_from;

namespace {

const char* const kSentence = "我喜欢人工智能";

Config with(void (*edit)(Config&)) {
    Config c;
    edit(c);
    return c;
}

void check_rows_sum_to_one(const Matrix& weights) {
    for (Eigen::Index i = 0; i < weights.rows(); ++i) {
        CAPTURE(i);
        CHECK(std::abs(weights.row(i).cast<double>().sum() - 1.0) < 1e-6);
    }
}

// Entry by entry within tolerance · max(1, the largest |expected|); equal
// infinities (masked entries) match.
bool close_to(const Matrix& actual, const Matrix& expected, double tolerance) {
    if (actual.rows() != expected.rows() || actual.cols() != expected.cols()) return false;
    double largest = 1;
    for (Eigen::Index t = 0; t < expected.size(); ++t) {
        if (std::isfinite(expected.data()[t]))
            largest = std::fmax(largest, std::fabs(expected.data()[t]));
    }
    for (Eigen::Index t = 0; t < expected.size(); ++t) {
        const float a = actual.data()[t], e = expected.data()[t];
        if (a == e) continue;
        if (!(std::fabs(static_cast<double>(a) - e) <= tolerance * largest)) return false;
    }
    return true;
}

using MatrixD = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

double max_abs_diff(const Matrix& a, const MatrixD& b) {
    return (a.cast<double>() - b).cwiseAbs().maxCoeff();
}

}  // namespace

TEST_CASE("trace: every stage has its documented shape") {
    const Trace t = run_attention(kSentence, with([](Config& c) { c.d_model = 48, c.d_k = 8; }));
    const Eigen::Index n = 9;
    struct Shape {
        const char* id;
        Eigen::Index rows, cols;
    };
    const std::vector<Shape> shapes = {
        {"embeddings", n, 48}, {"positional", n, 48}, {"x", n, 48},     {"wq", 48, 8},
        {"wk", 48, 8},         {"wv", 48, 8},         {"bq", 1, 8},     {"bk", 1, 8},
        {"bv", 1, 8},          {"q", n, 8},           {"k", n, 8},      {"v", n, 8},
        {"scores", n, n},      {"scaled", n, n},      {"masked", n, n}, {"weights", n, n},
        {"output", n, 8},
    };
    REQUIRE(shapes.size() == kStageNames.size());
    for (std::size_t i = 0; i < shapes.size(); ++i) {
        CAPTURE(shapes[i].id);
        CHECK(kStageNames[i] == shapes[i].id);
        CHECK(t.stage(shapes[i].id).rows() == shapes[i].rows);
        CHECK(t.stage(shapes[i].id).cols() == shapes[i].cols);
    }
    CHECK(&t.stage("weights") == &t.weights);
    CHECK(&t.stage("bq") == &t.head->bq);
    CHECK(t.tokens.size() == 9);
    CHECK(std::set<std::string_view>(kStageNames.begin(), kStageNames.end()).size() == 17);
}

TEST_CASE("trace: an unknown stage id is an error that lists the valid ids") {
    const Trace t = run_attention("hi", with([](Config& c) { c.d_model = 4, c.d_k = 2; }));
    const auto e = error_from([&] { t.stage("softmax"); });
    CHECK(e.code() == "unknown_stage");
    CHECK(contains(e.what(), "\"softmax\""));
    CHECK(contains(e.what(), "embeddings, positional, x, wq"));
    CHECK(contains(e.what(), "weights, output"));
}

TEST_CASE("trace: x = embeddings + positional; positional off gives zeros") {
    const Trace on = run_attention(kSentence);
    CHECK(on.x == on.embeddings + on.positional);
    CHECK(on.positional == positional_encoding(9, 768));

    const Trace off = run_attention(kSentence, with([](Config& c) { c.positional = false; }));
    CHECK(off.positional.isZero(0));
    CHECK(off.x == off.embeddings);
    CHECK(off.embeddings == on.embeddings);
}

TEST_CASE("trace: the fast kernels equal the paper's reference forward, every switch") {
    for (const bool scale : {true, false}) {
        for (const bool causal : {false, true}) {
            CAPTURE(scale);
            CAPTURE(causal);
            Config config;
            config.scale = scale;
            config.causal = causal;
            const Trace t = run_attention(kSentence, config);
            const Attention ref = attention_reference(t.x, *t.head, scale, causal);
            // Products within the float32 error bound of the exact product.
            check_product(t.q, t.x, t.head->wq, &t.head->bq);
            check_product(t.k, t.x, t.head->wk, &t.head->bk);
            check_product(t.v, t.x, t.head->wv, &t.head->bv);
            check_product(t.scores, t.q, t.k.transpose());
            check_product(t.output, t.weights, t.v);
            // And every stage close to the reference's, rounding carried along.
            CHECK(close_to(t.q, ref.q, 1e-6));
            CHECK(close_to(t.scores, ref.scores, 1e-5));
            CHECK(close_to(t.scaled, ref.scaled, 1e-5));
            CHECK(close_to(t.masked, ref.masked, 1e-5));
            CHECK(close_to(t.weights, ref.weights, 1e-5));
            CHECK(close_to(t.output, ref.output, 1e-5));
            check_rows_sum_to_one(t.weights);
        }
    }
    const Trace t = run_attention(kSentence);
    CHECK(t.scaled == t.scores / 8.0f);  // √64: exact
    CHECK(t.masked == t.scaled);         // causal mask is off by default
    check_close(t.weights, softmax_rows(t.masked));
    CHECK(t.weights.minCoeff() > 0.0f);
}

TEST_CASE("trace: scale off leaves scores as they are") {
    const Trace t = run_attention(kSentence, with([](Config& c) { c.scale = false; }));
    CHECK(t.scaled == t.scores);
    check_rows_sum_to_one(t.weights);
}

TEST_CASE("trace: the causal mask gives weight exactly 0 to later tokens") {
    const Trace t = run_attention(kSentence, with([](Config& c) { c.causal = true; }));
    for (Eigen::Index i = 0; i < 9; ++i) {
        for (Eigen::Index j = 0; j < 9; ++j) {
            if (j > i) {
                CHECK(t.masked(i, j) == -std::numeric_limits<float>::infinity());
                CHECK(t.weights(i, j) == 0.0f);
            } else {
                CHECK(t.masked(i, j) == t.scaled(i, j));
                CHECK(t.weights(i, j) > 0.0f);
            }
        }
    }
    CHECK(t.weights(0, 0) == 1.0f);  // [CLS] sees only itself
    check_rows_sum_to_one(t.weights);
    CHECK(t.output.allFinite());
}

TEST_CASE("trace: the same token text gets the same embedding row, in any sentence") {
    const Trace a = run_attention("我喜欢人工智能");
    const Trace b = run_attention("大家都喜欢猫，我也喜欢");
    REQUIRE(a.tokens[2].text == "喜");
    REQUIRE(b.tokens[4].text == "喜");
    REQUIRE(b.tokens[10].text == "喜");
    CHECK(a.embeddings.row(2) == b.embeddings.row(4));
    CHECK(b.embeddings.row(4) == b.embeddings.row(10));
    CHECK(a.embeddings.row(1) == b.embeddings.row(8));  // 我
    // Positions differ, so x differs; the output differs with the context.
    CHECK(b.x.row(4) != b.x.row(10));
    CHECK(a.output.row(2) != b.output.row(4));
}

TEST_CASE("trace: deterministic for a seed, different for another seed") {
    const Trace a = run_attention(kSentence);
    const Trace b = run_attention(kSentence);
    for (const auto id : kStageNames) {
        CAPTURE(id);
        CHECK(a.stage(id) == b.stage(id));
    }
    const Trace c = run_attention(kSentence, with([](Config& cfg) { cfg.seed = 7; }));
    CHECK(c.embeddings != a.embeddings);
    CHECK(c.head->wq != a.head->wq);
    // The first columns of a row do not move when d_model or d_k changes.
    const Trace wide =
        run_attention(kSentence, with([](Config& cfg) { cfg.d_model = 1024, cfg.d_k = 128; }));
    CHECK(wide.embeddings.leftCols(768) == a.embeddings);
    CHECK(wide.head->wq.topLeftCorner(768, 64) !=
          a.head->wq);  // W's scale is 1/√d_model, so values differ…
    CHECK(
        (wide.head->wq.topLeftCorner(768, 64) * std::sqrt(1024.0f) - a.head->wq * std::sqrt(768.0f))
            .cwiseAbs()
            .maxCoeff() < 1e-4f);  // …but only by that factor
}

TEST_CASE("trace: with the defaults q and k have variance ≈ 1 and scores standard deviation ≈ 8") {
    std::string sentence;
    for (int i = 0; i < 20; ++i)
        sentence += "注意力机制让每个字都能看到整句话。";  // 17 × 20 characters
    const Trace t = run_attention(sentence);
    REQUIRE(t.tokens.size() == 342);
    CHECK(variance(t.x) == doctest::Approx(1.0).epsilon(0.1));
    CHECK(variance(t.q) == doctest::Approx(1.0).epsilon(0.15));
    CHECK(variance(t.k) == doctest::Approx(1.0).epsilon(0.15));
    CHECK(variance(t.v) == doctest::Approx(1.0).epsilon(0.15));
    const double score_sd = std::sqrt(variance(t.scores));
    CHECK(score_sd == doctest::Approx(8.0).epsilon(0.2));
    CHECK(std::sqrt(variance(t.scaled)) == doctest::Approx(score_sd / 8.0));
}

TEST_CASE("trace: every stage agrees with a float64 computation from x and the params") {
    for (const bool causal : {false, true}) {
        CAPTURE(causal);
        Config config;
        config.causal = causal;
        const Trace t =
            run_attention("Attention is all you need, 注意力就是一切 🙂", config);
        const MatrixD x = t.x.cast<double>();
        const auto proj = [&](const Matrix& w, const Matrix& b) {
            MatrixD out = x * w.cast<double>();
            out.rowwise() += b.cast<double>().row(0);
            return out;
        };
        const MatrixD q = proj(t.head->wq, t.head->bq), k = proj(t.head->wk, t.head->bk),
                      v = proj(t.head->wv, t.head->bv);
        const MatrixD scores = q * k.transpose();
        MatrixD weights = scores / 8.0;
        for (Eigen::Index i = 0; i < weights.rows(); ++i) {
            for (Eigen::Index j = 0; j < weights.cols(); ++j) {
                weights(i, j) = (causal && j > i)
                                    ? 0.0
                                    : std::exp(weights(i, j) - scores.row(i).maxCoeff() / 8.0);
            }
            weights.row(i) /= weights.row(i).sum();
        }
        const MatrixD output = weights * v;
        CHECK(max_abs_diff(t.q, q) < 1e-4);
        CHECK(max_abs_diff(t.v, v) < 1e-4);
        CHECK(max_abs_diff(t.scores, scores) < 1e-3);
        CHECK(max_abs_diff(t.weights, weights) < 1e-5);
        CHECK(max_abs_diff(t.output, output) < 1e-4);
        // Each output row lies inside the box spanned by the V rows it mixes.
        for (Eigen::Index j = 0; j < v.cols(); ++j) {
            CHECK(t.output.col(j).maxCoeff() <= t.v.col(j).maxCoeff() + 1e-5f);
            CHECK(t.output.col(j).minCoeff() >= t.v.col(j).minCoeff() - 1e-5f);
        }
    }
}

TEST_CASE("trace: the largest input (512 tokens, d_model = d_k = 1024) runs") {
    std::string sentence;
    for (int i = 0; i < 510; ++i) sentence += "字";
    const Trace t =
        run_attention(sentence, with([](Config& c) { c.d_model = 1024, c.d_k = 1024; }));
    CHECK(t.output.rows() == 512);
    CHECK(t.output.cols() == 1024);
    CHECK(t.output.allFinite());
    check_rows_sum_to_one(t.weights);
}

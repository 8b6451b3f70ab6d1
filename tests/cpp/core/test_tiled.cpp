// softmax(QKᵀ/√d_k)·V block by block (FlashAttention's online softmax): the
// running maximum, the rescale, ℓ and the accumulator of every block, and the
// result against the full computation for every block size, causal rows with
// −∞, huge scores and rows whose first keys are all masked.
#include <doctest.h>

#include <cmath>
#include <limits>

#include "attention/model.hpp"
#include "attention/stages.hpp"
#include "attention/tiled.hpp"
#include "helpers.hpp"

using namespace attention;
using test_support::contains;
using test_support::error_from;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

// The full computation of one row, in double: softmax(scores) · v.
std::vector<float> full_row(const std::vector<float>& scores, const Matrix& v) {
    double m = -kInf, sum = 0;
    for (const float s : scores) m = std::max(m, static_cast<double>(s));
    std::vector<double> out(static_cast<std::size_t>(v.cols()), 0.0);
    for (std::size_t j = 0; j < scores.size(); ++j) {
        if (scores[j] == -kInf) continue;
        const double e = std::exp(scores[j] - m);
        sum += e;
        for (Eigen::Index c = 0; c < v.cols(); ++c)
            out[static_cast<std::size_t>(c)] += e * v(static_cast<Eigen::Index>(j), c);
    }
    std::vector<float> row;
    for (const double x : out) row.push_back(static_cast<float>(x / sum));
    return row;
}

Matrix values(Eigen::Index m, Eigen::Index d) {
    Matrix v(m, d);
    for (Eigen::Index i = 0; i < m; ++i)
        for (Eigen::Index j = 0; j < d; ++j)
            v(i, j) = std::sin(static_cast<float>(3 * i + 7 * j + 1));
    return v;
}

}  // namespace

TEST_CASE(
    "tiled_row: each block's running max, rescale, ℓ and accumulator follow the online softmax's "
    "rules") {
    const std::vector<float> scores = {
        1.9125f, 2.8375f, 2.275f, 0.2625f, 0.225f,
        0.4f,    0.3625f, 0.7f,   0.5125f};  // the article's 喜 row ÷ 8
    const Matrix v = values(9, 3);
    const TiledRow r = tiled_row(scores, v, 2, full_row(scores, v));
    REQUIRE(r.blocks.size() == 5);
    CHECK(r.blocks.back().begin == 8);
    CHECK(r.blocks.back().end == 9);
    float m = -kInf, sum = 0;
    for (const TileBlock& b : r.blocks) {
        CHECK(b.max_before == m);
        CHECK(b.max_after == std::max(m, b.block_max));
        CHECK(b.sum_before == doctest::Approx(sum));
        CHECK(b.rescale == doctest::Approx(m == -kInf ? 0.0 : std::exp(m - b.max_after)));
        float block_sum = 0;
        for (std::size_t j = 0; j < b.exps.size(); ++j) {
            CHECK(b.exps[j] == doctest::Approx(std::exp(b.scores[j] - b.max_after)));
            block_sum += b.exps[j];
        }
        CHECK(b.sum_after == doctest::Approx(b.sum_before * b.rescale + block_sum));
        for (std::size_t c = 0; c < b.acc_after.size(); ++c) {
            float added = 0;
            for (std::size_t j = 0; j < b.exps.size(); ++j)
                added += b.exps[j] *
                         v(b.begin + static_cast<Eigen::Index>(j), static_cast<Eigen::Index>(c));
            CHECK(b.acc_after[c] == doctest::Approx(b.acc_before[c] * b.rescale + added));
        }
        m = b.max_after;
        sum = b.sum_after;
    }
    CHECK(r.blocks[0].rescale == 0.0f);  // m was −∞: nothing to keep
    CHECK(r.blocks[1].rescale == 1.0f);  // the row's maximum came in the first block
    const TiledRow one = tiled_row(scores, v, 1, full_row(scores, v));
    CHECK(one.blocks[1].rescale ==
          doctest::Approx(std::exp(1.9125 - 2.8375)));  // 2.8375 beats 1.9125: ℓ and acc shrink
    CHECK(one.blocks[2].rescale == 1.0f);               // no larger maximum later on
    CHECK(m == 2.8375f);
    // ℓ at the end is the stable softmax's denominator: Σ e^(s − max).
    double expected_sum = 0;
    for (const float s : scores) expected_sum += std::exp(static_cast<double>(s) - 2.8375);
    CHECK(sum == doctest::Approx(expected_sum));
}

TEST_CASE(
    "tiled_row equals the full computation for every block size, on a causal row, huge scores and "
    "masked first keys") {
    const Matrix v = values(9, 4);
    const std::vector<std::vector<float>> rows = {
        {1.9125f, 2.8375f, 2.275f, 0.2625f, 0.225f, 0.4f, 0.3625f, 0.7f, 0.5125f},
        {0.5f, -1.0f, 2.0f, 0.25f, -kInf, -kInf, -kInf, -kInf, -kInf},  // causal: row 3 of 9
        {1e4f, -1e4f, 9999.0f, 3e4f, -3e4f, 2.9999e4f, 0.0f, 1.0f,
         3e4f},  // e^x overflows at ≈ 88.7
        {-kInf, -kInf, -kInf, 5.0f, 80.0f, -kInf, 81.0f, 79.5f,
         0.0f},  // a first block with nothing in it
    };
    for (const auto& scores : rows) {
        const std::vector<float> full = full_row(scores, v);
        for (std::int64_t block = 1; block <= 9; ++block) {
            CAPTURE(block);
            const TiledRow r = tiled_row(scores, v, block, full);
            CHECK(r.blocks.size() == static_cast<std::size_t>((9 + block - 1) / block));
            for (std::size_t c = 0; c < full.size(); ++c)
                CHECK(r.output[c] == doctest::Approx(full[c]).epsilon(1e-5).scale(1));
            CHECK(r.relative_difference <= 1e-6f);
            for (const TileBlock& b : r.blocks) {
                CHECK(std::isfinite(b.sum_after));
                CHECK_FALSE(std::isnan(b.rescale));
            }
        }
    }
    // Every key masked: no weight anywhere, an output of zeros, no NaN.
    const std::vector<float> none(9, -kInf);
    const TiledRow empty = tiled_row(none, v, 4, std::vector<float>(4, 0.0f));
    for (const float x : empty.output) CHECK(x == 0.0f);
    for (const TileBlock& b : empty.blocks) CHECK(b.rescale == 1.0f);
}

TEST_CASE(
    "tiled_row and tiled_attention of a trace: its own masked rows and V, against its output") {
    Config c;
    c.causal = true;
    const Trace t = run_attention("我喜欢人工智能", c);
    for (std::int64_t block = 1; block <= 9; ++block) {
        const TiledRow r = tiled_row(t, 2, block);
        CHECK(r.row == 2);
        CHECK(r.relative_difference <= 1e-6f);
        for (Eigen::Index j = 0; j < t.output.cols(); ++j)
            CHECK(r.full[static_cast<std::size_t>(j)] == t.output(2, j));
        const TiledAttention a = tiled_attention(t, block);
        CHECK(a.output.rows() == 9);
        CHECK(a.relative_difference <= 1e-6f);
        CHECK(a.full_scores == 81);
        CHECK(a.tiled_scores == 9 * block);
    }
    CHECK(contains(error_from([&] { tiled_row(t, 9, 2); }).what(), "row 9 is outside"));
    CHECK(contains(error_from([&] { tiled_row(t, 2, 0); }).what(),
                   "block must be from 1 to the number of keys, 9, got 0"));
    CHECK(error_from([&] { tiled_attention(t, 10); }).code() == "invalid_argument");
}

TEST_CASE(
    "tiled_row: why each rescale is 0 or 1, each block's Σ e^(s − m), the memory each way, and the "
    "agreement") {
    // Keys 0 and 1 masked, then 2 (the first seen), then 1 (smaller: the maximum stays), then 5
    // (grows).
    const std::vector<float> scores = {-kInf, -kInf, 2.0f, 1.0f, 5.0f};
    const Matrix v = values(5, 3);
    const TiledRow r = tiled_row(scores, v, 1, full_row(scores, v));
    REQUIRE(r.blocks.size() == 5);
    CHECK(std::string(r.blocks[0].rescale_why) == "none");
    CHECK(std::string(r.blocks[1].rescale_why) == "none");
    CHECK(std::string(r.blocks[2].rescale_why) == "first");
    CHECK(r.blocks[2].rescale == 0.0f);
    CHECK(std::string(r.blocks[3].rescale_why) == "same");
    CHECK(r.blocks[3].rescale == 1.0f);
    CHECK(std::string(r.blocks[4].rescale_why).empty());
    CHECK(r.blocks[4].rescale == doctest::Approx(std::exp(2.0 - 5.0)));
    for (const TileBlock& b : r.blocks) {
        double exps = 0;
        for (const float e : b.exps) exps += e;
        CHECK(b.exp_sum == doctest::Approx(exps));
        CHECK(b.sum_after == doctest::Approx(b.sum_before * b.rescale + b.exp_sum));
    }
    CHECK(r.held_whole == 25);
    CHECK(r.held_tiled == 5);
    CHECK(std::string(r.agreement) == "rounding");
    // Against a row that is not this one's: the difference is more than rounding.
    std::vector<float> other = full_row(scores, v);
    other[0] += 0.01f;
    CHECK(std::string(tiled_row(scores, v, 2, other).agreement) == "differs");
}

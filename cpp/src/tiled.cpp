#include "attention/tiled.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "attention/error.hpp"

namespace attention {

namespace {

constexpr float kMinusInf = -std::numeric_limits<float>::infinity();

void check(bool ok, const std::string& message, Error::Params params = {}) {
    if (!ok) throw Error("invalid_argument", message, std::move(params));
}

void check_block(std::int64_t block, std::int64_t keys) {
    check(block >= 1 && block <= keys,
          "block must be from 1 to the number of keys, " + std::to_string(keys) + ", got " +
              std::to_string(block),
          {{"name", "block"},
           {"min", "1"},
           {"max", std::to_string(keys)},
           {"value", std::to_string(block)}});
}

// e^(s − m), 0 for a masked key (and for m = −∞, when every key so far is masked).
float shifted_exp(float s, float m) {
    return (s == kMinusInf || m == kMinusInf) ? 0.0f : std::exp(s - m);
}

void compare(TiledRow& r) {
    float largest = 0;
    for (std::size_t j = 0; j < r.full.size(); ++j) {
        r.max_difference = std::max(r.max_difference, std::fabs(r.output[j] - r.full[j]));
        largest = std::max(largest, std::fabs(r.full[j]));
    }
    r.relative_difference = largest > 0 ? r.max_difference / largest : 0.0f;
    r.agreement = r.relative_difference <= kRounding ? "rounding" : "differs";
}

// The online softmax over one row: its output (acc ÷ ℓ), and each block's numbers when `blocks` is
// given.
std::vector<float> online_row(const float* scores, std::int64_t m, const Matrix& v,
                              std::int64_t block, std::vector<TileBlock>* blocks) {
    const Eigen::Index d = v.cols();
    float running_max = kMinusInf, sum = 0;
    std::vector<float> acc(static_cast<std::size_t>(d), 0.0f);
    for (std::int64_t begin = 0; begin < m; begin += block) {
        TileBlock b;
        b.begin = begin;
        b.end = std::min(m, begin + block);
        b.block_max = kMinusInf;
        for (std::int64_t j = b.begin; j < b.end; ++j)
            b.block_max = std::max(b.block_max, scores[j]);
        b.max_before = running_max;
        b.max_after = std::max(running_max, b.block_max);
        b.rescale = b.max_after == kMinusInf ? 1.0f : shifted_exp(b.max_before, b.max_after);
        b.rescale_why = b.max_after == kMinusInf      ? "none"
                        : b.max_before == kMinusInf   ? "first"
                        : b.max_before == b.max_after ? "same"
                                                      : "";
        if (blocks) {
            b.scores.assign(scores + b.begin, scores + b.end);
            b.sum_before = sum;
            b.acc_before = acc;
        }
        sum *= b.rescale;
        for (float& a : acc) a *= b.rescale;
        for (std::int64_t j = b.begin; j < b.end; ++j) {
            const float e = shifted_exp(scores[j], b.max_after);
            if (blocks) b.exps.push_back(e);
            b.exp_sum += e;
            sum += e;
            const float* row = v.data() + j * d;  // row-major
            for (Eigen::Index c = 0; c < d; ++c) acc[static_cast<std::size_t>(c)] += e * row[c];
        }
        running_max = b.max_after;
        if (blocks) {
            b.sum_after = sum;
            b.acc_after = acc;
            blocks->push_back(std::move(b));
        }
    }
    // Every key masked: no weight anywhere, an output of zeros (not 0 ÷ 0).
    for (float& a : acc) a = sum > 0 ? a / sum : 0.0f;
    return acc;
}

}  // namespace

TiledRow tiled_row(const std::vector<float>& scores, const Matrix& v, std::int64_t block,
                   std::vector<float> full) {
    const auto m = static_cast<std::int64_t>(scores.size());
    check(m > 0 && v.rows() == m, "the scores and V must have one row a key: " + std::to_string(m) +
                                      " scores, " + std::to_string(v.rows()) + " rows of V");
    check(static_cast<Eigen::Index>(full.size()) == v.cols(),
          "the full output row must be as wide as V");
    check_block(block, m);
    TiledRow r;
    r.block = block;
    r.full = std::move(full);
    r.output = online_row(scores.data(), m, v, block, &r.blocks);
    r.held_whole = m * m;
    r.held_tiled = m * block;
    compare(r);
    return r;
}

namespace {

void check_head(const Matrix& masked, const Matrix& v, const Matrix& output) {
    check(masked.rows() == masked.cols() && v.rows() == masked.rows() &&
              output.rows() == masked.rows() && output.cols() == v.cols(),
          "a head's masked scores (n × n), V and output (n × d_k each) must agree in size");
}

}  // namespace

TiledRow tiled_row(const Matrix& masked, const Matrix& v, const Matrix& output, std::int64_t i,
                   std::int64_t block) {
    check_head(masked, v, output);
    const Eigen::Index n = masked.rows();
    check(i >= 0 && i < n,
          "row " + std::to_string(i) + " is outside the trace's " + std::to_string(n) + " tokens",
          {{"name", "row"},
           {"min", "0"},
           {"max", std::to_string(n - 1)},
           {"value", std::to_string(i)}});
    const auto row = masked.row(static_cast<Eigen::Index>(i));
    const auto out = output.row(static_cast<Eigen::Index>(i));
    TiledRow r = tiled_row(std::vector<float>(row.data(), row.data() + row.size()), v, block,
                           std::vector<float>(out.data(), out.data() + out.size()));
    r.row = i;
    return r;
}

TiledAttention tiled_attention(const Matrix& masked, const Matrix& v, const Matrix& output,
                               std::int64_t block) {
    check_head(masked, v, output);
    const Eigen::Index n = masked.rows();
    check_block(block, n);
    TiledAttention a;
    a.block = block;
    a.output.resize(n, v.cols());
    float largest = 0;
    for (Eigen::Index i = 0; i < n; ++i) {
        const std::vector<float> out = online_row(masked.row(i).data(), n, v, block, nullptr);
        for (Eigen::Index j = 0; j < v.cols(); ++j) {
            a.output(i, j) = out[static_cast<std::size_t>(j)];
            a.max_difference = std::max(a.max_difference, std::fabs(a.output(i, j) - output(i, j)));
            largest = std::max(largest, std::fabs(output(i, j)));
        }
    }
    a.relative_difference = largest > 0 ? a.max_difference / largest : 0.0f;
    a.full_scores = static_cast<std::int64_t>(n) * n;
    a.tiled_scores = static_cast<std::int64_t>(n) * block;
    return a;
}

TiledRow tiled_row(const Trace& trace, std::int64_t i, std::int64_t block) {
    return tiled_row(trace.masked, trace.v, trace.output, i, block);
}

TiledAttention tiled_attention(const Trace& trace, std::int64_t block) {
    return tiled_attention(trace.masked, trace.v, trace.output, block);
}

}  // namespace attention

#include "attention/dot_sample.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "attention/claims.hpp"
#include "attention/config.hpp"
#include "attention/error.hpp"
#include "attention/params.hpp"

namespace attention {

namespace {

void check(bool ok, const std::string& message) {
    if (!ok) throw Error("invalid_argument", message);
}

double population_variance(const std::vector<float>& v) {
    double mean = 0;
    for (const float x : v) mean += x;
    mean /= static_cast<double>(v.size());
    double var = 0;
    for (const float x : v) var += (x - mean) * (x - mean);
    return var / static_cast<double>(v.size());
}

std::vector<std::uint32_t> histogram(const std::vector<float>& v, std::size_t bins, float range) {
    std::vector<std::uint32_t> counts(bins, 0);
    for (const float x : v) {
        const double t =
            (static_cast<double>(x) + range) / (2.0 * range);  // 0 … 1 inside the range
        const auto k = static_cast<std::int64_t>(std::floor(t * static_cast<double>(bins)));
        counts[static_cast<std::size_t>(
            std::clamp<std::int64_t>(k, 0, static_cast<std::int64_t>(bins) - 1))] += 1;
    }
    return counts;
}

}  // namespace

DotProductSample sample_dot_products(std::int64_t d_k, std::int64_t count, std::int64_t bins,
                                     std::int64_t seed) {
    check(d_k >= 1 && d_k <= kMaxDModel,
          "d_k must be an integer from 1 to 1024, got " + std::to_string(d_k));
    check(count >= 1 && count <= 100000,
          "count must be an integer from 1 to 100000, got " + std::to_string(count));
    check(bins >= 1 && bins <= 200,
          "bins must be an integer from 1 to 200, got " + std::to_string(bins));
    check(seed >= 0 && seed <= kMaxSeed,
          "seed must be an integer from 0 to 4294967295, got " + std::to_string(seed));

    constexpr std::uint64_t kQ = 1ull << 50,
                            kK = (1ull << 50) + 1;  // streams apart from the model's
    const auto s = static_cast<std::uint64_t>(seed);
    const auto d = static_cast<std::uint64_t>(d_k);
    const float root = std::sqrt(static_cast<float>(d_k));
    DotProductSample out;
    for (std::uint64_t pair = 0; pair < static_cast<std::uint64_t>(count); ++pair) {
        float dot = 0;
        for (std::uint64_t t = 0; t < d; ++t) {
            dot += seeded_normal(s, kQ, pair * d + t) * seeded_normal(s, kK, pair * d + t);
        }
        out.dots.push_back(dot);
        out.scaled.push_back(dot / root);
    }
    out.variance = population_variance(out.dots);
    out.scaled_variance = population_variance(out.scaled);
    const RowVector half = RowVector::Constant(static_cast<Eigen::Index>(d_k), 0.5f);
    out.half_vector_dot = half.dot(half);  // [0.5, …]·[0.5, …] = d_k / 4
    out.range = 4.0f * root;
    out.scaled_range = 4.0f;
    out.histogram = histogram(out.dots, static_cast<std::size_t>(bins), out.range);
    out.scaled_histogram = histogram(out.scaled, static_cast<std::size_t>(bins), out.scaled_range);
    return out;
}

VarianceGrowth variance_growth(std::int64_t from_d_k, std::int64_t to_d_k, std::int64_t count,
                               std::int64_t seed) {
    VarianceGrowth g;
    g.from_variance = sample_dot_products(from_d_k, count, 1, seed).variance;
    g.to_variance = sample_dot_products(to_d_k, count, 1, seed).variance;
    g.ratio = g.from_variance > 0 ? g.to_variance / g.from_variance : 0;
    g.growth = growth_kind(g.ratio);
    return g;
}

}  // namespace attention

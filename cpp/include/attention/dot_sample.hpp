// The sample behind the variance experiment (a *Why?* experiment): q·k of
// random vectors. (softmax_row.hpp covers the temperature and stability experiments.)
#pragma once

#include <cstdint>
#include <vector>

namespace attention {

// q·k for `count` pairs of random vectors with independent N(0, 1) entries
// (seeded), before and after ÷√d_k, with their variances (theory: d_k and 1)
// and histograms over fixed ranges (±4 standard deviations of the theory).
struct DotProductSample {
    std::vector<float> dots;     // q·k
    std::vector<float> scaled;   // q·k / √d_k
    double variance = 0;         // of dots (population)
    double scaled_variance = 0;  // of scaled
    float half_vector_dot = 0;   // the article's all-0.5 vectors: 0.25 · d_k
    std::vector<std::uint32_t> histogram, scaled_histogram;  // `bins` counts each
    float range = 0, scaled_range = 0;                       // histograms cover [−range, range]
};

// Throws attention::Error ("invalid_argument") unless 1 ≤ d_k ≤ 1024,
// 1 ≤ count ≤ 100000, 1 ≤ bins ≤ 200 and 0 ≤ seed ≤ 2^32 − 1.
DotProductSample sample_dot_products(std::int64_t d_k, std::int64_t count, std::int64_t bins,
                                     std::int64_t seed);

// The variance of q·k at two widths (the same count and seed for each), its ratio, and what the
// ratio says: claims.hpp's growth_kind ("same", "doubles", "quadruples"). Throws as
// sample_dot_products does.
struct VarianceGrowth {
    double from_variance = 0, to_variance = 0, ratio = 0;
    const char* growth = "same";
};
VarianceGrowth variance_growth(std::int64_t from_d_k, std::int64_t to_d_k, std::int64_t count,
                               std::int64_t seed);

}  // namespace attention

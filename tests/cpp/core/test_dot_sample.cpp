// The sample behind the variance experiment: q·k of random vectors, before and after ÷√d_k.
#include <doctest.h>

#include <numeric>

#include "attention/dot_sample.hpp"
#include "helpers.hpp"

using namespace attention;
using test_support::contains;
using test_support::error_from;

TEST_CASE("sample_dot_products: Var(q·k) ≈ d_k, and ≈ 1 after ÷√d_k") {
    for (const std::int64_t d : {1, 4, 64, 256}) {
        CAPTURE(d);
        const auto s = sample_dot_products(d, 4000, 40, 42);
        REQUIRE(s.dots.size() == 4000);
        CHECK(s.variance == doctest::Approx(static_cast<double>(d)).epsilon(0.1));
        CHECK(s.scaled_variance == doctest::Approx(1.0).epsilon(0.1));
        CHECK(s.scaled_variance ==
              doctest::Approx(s.variance / static_cast<double>(d)).epsilon(1e-4));
        CHECK(s.half_vector_dot == doctest::Approx(0.25 * static_cast<double>(d)));
        const auto total = std::accumulate(s.histogram.begin(), s.histogram.end(), 0u);
        CHECK(total == 4000u);
        CHECK(std::accumulate(s.scaled_histogram.begin(), s.scaled_histogram.end(), 0u) == 4000u);
        CHECK(s.range == doctest::Approx(4.0 * std::sqrt(static_cast<double>(d))));
    }
    // The article's all-0.5 vectors: 0.5, 1 and 16 for d = 2, 4, 64.
    CHECK(sample_dot_products(2, 1, 1, 0).half_vector_dot == 0.5f);
    CHECK(sample_dot_products(4, 1, 1, 0).half_vector_dot == 1.0f);
    CHECK(sample_dot_products(64, 1, 1, 0).half_vector_dot == 16.0f);
    // Deterministic for a seed.
    CHECK(sample_dot_products(8, 10, 5, 7).dots == sample_dot_products(8, 10, 5, 7).dots);
    CHECK(sample_dot_products(8, 10, 5, 7).dots != sample_dot_products(8, 10, 5, 8).dots);
    CHECK(contains(error_from([] { sample_dot_products(0, 10, 5, 1); }).what(), "d_k must be"));
    CHECK(contains(error_from([] { sample_dot_products(8, 0, 5, 1); }).what(), "count must be"));
    CHECK(contains(error_from([] { sample_dot_products(8, 10, 0, 1); }).what(), "bins must be"));
    CHECK(contains(error_from([] { sample_dot_products(8, 10, 5, -1); }).what(), "seed must be"));
}

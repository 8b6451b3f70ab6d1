// The seeded generator: its Box–Muller arithmetic against double precision,
// its entries against one another (a matrix, seeded_normal and a wider model
// agree bit for bit), and its samples against the standard normal.
#include <doctest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "attention/params.hpp"

using namespace attention;

TEST_CASE("weights: the float Box–Muller step matches double precision to a few float ulps") {
    // Every 5th point of the generator's 24-bit grids (u1 ∈ (0, 1], u2 ∈ [0, 1)),
    // paired so that both run over their whole range.
    double worst = 0;
    for (std::uint32_t k = 0; k < (1u << 24); k += 5) {
        const float u1 = static_cast<float>(k + 1) * 0x1.0p-24f;
        const float u2 = static_cast<float>((k * 2654435761u) & 0xFFFFFFu) * 0x1.0p-24f;
        const double r = std::sqrt(-2.0 * std::log(static_cast<double>(u1)));
        const double theta = 6.283185307179586476925286766559 * static_cast<double>(u2);
        const auto z = detail::box_muller(u1, u2);
        if (r == 0) {
            CHECK(z.cos_half == 0.0f);
            CHECK(z.sin_half == 0.0f);
            continue;
        }
        // In units of the radius' float ulp: both halves are ≤ r in size.
        const double ulp = std::ldexp(1.0, std::ilogb(r) - 23);
        worst = std::max({worst, std::fabs(z.cos_half - r * std::cos(theta)) / ulp,
                          std::fabs(z.sin_half - r * std::sin(theta)) / ulp});
    }
    CAPTURE(worst);
    CHECK(worst < 4.0);
    CHECK(worst > 0.0);  // float, not double: the comparison sees rounding
}

TEST_CASE("weights: quarter turns land on the axes with the right signs") {
    const float r = std::sqrt(-2.0f * std::log(0.5f));
    const struct {
        float u2, c, s;
    } turns[] = {{0.0f, 1, 0}, {0.25f, 0, 1}, {0.5f, -1, 0}, {0.75f, 0, -1}};
    for (const auto& turn : turns) {
        CAPTURE(turn.u2);
        const auto z = detail::box_muller(0.5f, turn.u2);
        CHECK(z.cos_half == doctest::Approx(r * turn.c).epsilon(1e-6));
        CHECK(z.sin_half == doctest::Approx(r * turn.s).epsilon(1e-6));
    }
    const auto eighth = detail::box_muller(0.5f, 0.125f);  // 45°: both halves r/√2
    CHECK(eighth.cos_half == doctest::Approx(r / std::sqrt(2.0f)).epsilon(1e-6));
    CHECK(eighth.sin_half == doctest::Approx(r / std::sqrt(2.0f)).epsilon(1e-6));
}

TEST_CASE(
    "weights: an embedding row is seeded_normal entry by entry, whole pairs and a cut pair alike") {
    // d_model 769: 384 whole pairs, then the cos half of pair 384 alone.
    const SeededParams narrow(769, 64, 5), wide(1024, 64, 5);
    const Matrix a = narrow.embeddings({3, 40});
    const Matrix b = wide.embeddings({3, 40});
    const float stddev = std::sqrt(0.5f);
    for (Eigen::Index j = 0; j < 769; ++j) {
        CAPTURE(j);
        REQUIRE(a(0, j) == stddev * seeded_normal(5, 3, static_cast<std::uint64_t>(j)));
        REQUIRE(a(1, j) == stddev * seeded_normal(5, 40, static_cast<std::uint64_t>(j)));
        REQUIRE(a(0, j) == b(0, j));  // a wider model keeps the first columns
    }
}

TEST_CASE(
    "weights: a weight matrix keeps its entries when d_k changes, and each seed has its own") {
    const HeadParams a = SeededParams(96, 7, 11).head(0), b = SeededParams(96, 64, 11).head(0);
    const HeadParams c = SeededParams(96, 7, 12).head(0);
    int differ = 0;
    for (Eigen::Index i = 0; i < 96; ++i) {
        for (Eigen::Index j = 0; j < 7; ++j) {
            REQUIRE(a.wq(i, j) ==
                    b.wq(i, j));  // column 6 is a cut pair at d_k = 7, a whole one at 64
            REQUIRE(a.wv(i, j) == b.wv(i, j));
            differ += a.wq(i, j) != c.wq(i, j);
        }
    }
    CHECK(differ == 96 * 7);
}

TEST_CASE(
    "weights: seeded samples are standard normal, and the halves of a pair are uncorrelated") {
    constexpr std::uint64_t kCount = 1u << 20;  // deterministic: fixed seed and stream
    double sum = 0, sum2 = 0, within1 = 0, within2 = 0, within3 = 0, pair = 0;
    float previous = 0;
    for (std::uint64_t i = 0; i < kCount; ++i) {
        const double z = seeded_normal(42, 7, i);
        sum += z;
        sum2 += z * z;
        within1 += std::fabs(z) < 1;
        within2 += std::fabs(z) < 2;
        within3 += std::fabs(z) < 3;
        if (i & 1u) pair += z * previous;
        previous = static_cast<float>(z);
    }
    const double n = kCount;
    const double mean = sum / n;
    // Bounds ≥ 4 standard errors at this n.
    CHECK(std::fabs(mean) < 0.005);
    CHECK(sum2 / n - mean * mean == doctest::Approx(1.0).epsilon(0.006));
    CHECK(within1 / n == doctest::Approx(0.682689).epsilon(0.003));
    CHECK(within2 / n == doctest::Approx(0.954500).epsilon(0.001));
    CHECK(within3 / n == doctest::Approx(0.997300).epsilon(0.0003));
    CHECK(std::fabs(pair / (n / 2)) < 0.01);
}

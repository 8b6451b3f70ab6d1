// Queries and keys as points in a plane: the first axis the query's direction (a key's
// coordinate there times |q| is its score), the second the keys' largest remaining spread.
#include <doctest.h>

#include <cmath>

#include "attention/geometry.hpp"
#include "helpers.hpp"

using namespace attention;
using test_support::contains;
using test_support::error_from;
using test_support::make;

TEST_CASE("key_plane: x along the query (x·|q| is the score), y along the keys' spread off it") {
    const Matrix q = make(2, 3, {2, 0, 0, 0, 1, 0});
    const Matrix k = make(3, 3, {1, 0, 0, 0, 3, 0, 1, 1, 0});
    const KeyPlane p = key_plane(q, k, 0);
    CHECK(p.query_norm == doctest::Approx(2));
    CHECK(p.key_x == std::vector<float>{1, 0, 1});
    for (std::size_t j = 0; j < 3; ++j)
        CHECK(p.scores[j] == doctest::Approx(p.key_x[j] * p.query_norm));
    CHECK(p.second_axis);
    CHECK(std::fabs(p.key_y[1]) == doctest::Approx(3));  // the spread off e1 is along e2
    CHECK(p.kept == doctest::Approx(1));                 // the keys lie in the plane
    CHECK(p.query_x == std::vector<float>{2, 0});        // the other query in the same plane
    CHECK(std::fabs(p.query_y[1]) == doctest::Approx(1));
    // Keys that spread in three directions: the plane keeps part of it.
    const Matrix k3 = make(4, 3, {0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 1});
    const KeyPlane p3 = key_plane(q, k3, 0);
    CHECK(p3.kept > 0.5f);
    CHECK(p3.kept < 0.99f);
    // Every key the same point: no spread, no second axis.
    const KeyPlane same = key_plane(q, make(2, 3, {1, 2, 3, 1, 2, 3}), 1);
    CHECK_FALSE(same.second_axis);
    CHECK(same.kept == 0);
    CHECK(same.key_y == std::vector<float>{0, 0});
    CHECK(same.scores[0] ==
          doctest::Approx(2));  // query 1 = e2: the score is the keys' second entry
}

TEST_CASE("key_plane refuses a zero query, a row out of range and widths that differ") {
    const Matrix k = make(1, 2, {1, 1});
    CHECK(contains(error_from([&] {
                       key_plane(make(1, 2, {0, 0}), k, 0);
                   }).what(),
                   "no direction"));
    CHECK(contains(error_from([&] {
                       key_plane(make(1, 2, {1, 0}), k, 1);
                   }).what(),
                   "from 0 to 0, got 1"));
    CHECK(contains(error_from([&] {
                       key_plane(make(1, 3, {1, 0, 0}), k, 0);
                   }).what(),
                   "same width"));
}

TEST_CASE(
    "random_keys: lengths and the scores' spread grow as √d_k; ÷√d_k brings the spread to about "
    "1") {
    const RandomKeys small = random_keys(4, 64, 7), large = random_keys(512, 64, 7);
    CHECK(large.root_d_k == doctest::Approx(std::sqrt(512.0f)));
    CHECK(large.query_norm / large.root_d_k > 0.9f);
    CHECK(large.query_norm / large.root_d_k < 1.1f);
    for (const float n : large.key_norms) CHECK(std::fabs(n / large.root_d_k - 1) < 0.15f);
    CHECK(large.score_sd > 8 * small.score_sd);
    CHECK(large.scaled_sd > 0.6f);
    CHECK(large.scaled_sd < 1.5f);
    for (std::size_t j = 0; j < large.scores.size(); ++j)
        CHECK(large.scaled[j] == doctest::Approx(large.scores[j] / large.root_d_k));
    CHECK(random_keys(512, 64, 7).scores == large.scores);  // the same for the same seed
    CHECK(random_keys(512, 64, 8).scores != large.scores);
    CHECK(contains(error_from([] { random_keys(0, 8, 1); }).what(), "1 ≤ d_k ≤ 512"));
    CHECK(contains(error_from([] { random_keys(513, 8, 1); }).what(), "1 ≤ d_k ≤ 512"));
    CHECK(contains(error_from([] { random_keys(8, 1, 1); }).what(), "2 to 64 keys"));
}

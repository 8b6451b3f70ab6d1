// mean and variance: population statistics over every entry, in double.
#include <doctest.h>

#include "attention/statistics.hpp"
#include "helpers.hpp"

using namespace attention;
using test_support::error_from;
using test_support::make;

TEST_CASE("mean and variance: over all entries, divided by the count (not count − 1)") {
    const Matrix m = make(2, 2, {1, 3, 5, 7});
    CHECK(mean(m) == 4.0);
    CHECK(variance(m) == 5.0);  // (9 + 1 + 1 + 9) / 4; the sample variance would be 20 / 3
    CHECK(variance(make(1, 3, {2, 2, 2})) == 0.0);
}

TEST_CASE("mean and variance: accumulated in double, so float32 rounding does not pile up") {
    // 100 001 entries of 1e4 and one of 1e4 + 1: float sums would lose the 1.
    Matrix m = Matrix::Constant(1, 100001, 1.0e4f);
    m(0, 0) = 1.0e4f + 1.0f;
    CHECK(mean(m) == doctest::Approx(1.0e4 + 1.0 / 100001.0).epsilon(1e-12));
    CHECK(variance(m) > 0.0);
}

TEST_CASE("mean and variance: no numbers is an error, not a NaN") {
    CHECK(error_from([] { mean(Matrix(0, 0)); }).code() == "invalid_argument");
    CHECK(error_from([] { variance(Matrix(0, 3)); }).code() == "invalid_argument");
}

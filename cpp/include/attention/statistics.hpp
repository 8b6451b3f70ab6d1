// Summary statistics the lessons quote (the article's variance of [1, 2, 3, 4, 5] = 2).
#pragma once

#include "attention/matrix.hpp"

namespace attention {

// Mean of all entries of m; throws attention::Error for an empty matrix.
double mean(const Matrix& m);

// Population variance of all entries: the mean of (v − mean)², divided by the
// count (not count − 1), as the article computes it. Accumulated in double.
double variance(const Matrix& m);

}  // namespace attention

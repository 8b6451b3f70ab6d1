// Summary statistics the lessons quote (the article's variance of [1, 2, 3, 4, 5] = 2).
#pragma once

#include <cstdint>
#include <vector>

#include "attention/matrix.hpp"

namespace attention {

// Mean of all entries of m; throws attention::Error for an empty matrix.
double mean(const Matrix& m);

// Population variance of all entries: the mean of (v − mean)², divided by the
// count (not count − 1), as the article computes it. Accumulated in double.
double variance(const Matrix& m);

// The indices of values, largest value first; equal values in index order (a stable sort's
// order). One insertion sort for every such list (a softmax row's keys, a layer's mean row): the
// lists are at most a text's tokens long, and the page's wasm carries one small sort.
std::vector<std::int32_t> order_descending(const std::vector<float>& values);

}  // namespace attention

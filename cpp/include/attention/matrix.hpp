// Matrix types shared by every stage of the attention core.
#pragma once

#include <Eigen/Core>

namespace attention {

// Every stage of the trace is a row-major float matrix:
//   data[i * cols + j] == M(i, j)
// Row-major (not Eigen's default column-major) so that a flat copy handed to
// JavaScript reads row by row, the way the page draws it.
using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// The same in any scalar: the encoder and its ops run in float, their gradient
// checks in double.
template <class T>
using Mat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// One row, e.g. a projection bias b_q (1 × d_k) or one row of scores.
using RowVector = Eigen::Matrix<float, 1, Eigen::Dynamic, Eigen::RowMajor>;

}  // namespace attention

// e^x in double with no tables: x = k·ln 2 + r with |r| ≤ ln 2 / 2 (Cody and Waite's two-part
// ln 2, so k·ln2_hi is exact), e^r by its Taylor series to r^13 (the next term is below 2^-58 of
// the sum), times 2^k. Within 1 ulp of std::exp (tested). The C library's double exp (and pow, and
// log) carry tables of about 10 KB that would be a twentieth of the page's wasm; the core's few
// double exponentials (a worked softmax row, the exercises' mistakes, the positional table's
// frequencies) are not hot.
#pragma once

#include <cmath>
#include <limits>

namespace attention::detail {

inline double exp_double(double x) {
    if (std::isnan(x)) return x;
    if (x > 709.782712893384) return std::numeric_limits<double>::infinity();
    if (x < -745.1332191019412) return 0.0;
    constexpr double kLog2e = 1.4426950408889634;
    constexpr double kLn2Hi = 6.93147180369123816490e-01;  // 0x3fe62e42fee00000: low bits zero
    constexpr double kLn2Lo = 1.90821492927058770002e-10;
    const double k = std::nearbyint(x * kLog2e);
    const double r = (x - k * kLn2Hi) - k * kLn2Lo;
    double sum = 1.0;  // Horner from the r^13 term down: 1 + r(1 + r/2(1 + r/3(…)))
    for (int n = 13; n >= 1; --n) sum = 1.0 + r * sum / n;
    return std::ldexp(sum, static_cast<int>(k));
}

}  // namespace attention::detail

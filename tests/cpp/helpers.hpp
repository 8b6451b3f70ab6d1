// Small helpers shared by the core's tests.
#pragma once

#include <doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "attention/error.hpp"
#include "attention/matrix.hpp"

namespace test_support {

inline attention::Matrix make(int rows, int cols, std::vector<float> values) {
    REQUIRE(values.size() == static_cast<std::size_t>(rows * cols));
    return Eigen::Map<attention::Matrix>(values.data(), rows, cols);
}

// Rounds to a number of decimals the way the article prints (half away from zero).
inline double round_to(double value, int decimals) {
    const double scale = std::pow(10.0, decimals);
    return std::round(value * scale) / scale;
}

// Runs f, requires an attention::Error, and returns it for further checks.
template <class F>
attention::Error error_from(F&& f) {
    try {
        f();
    } catch (const attention::Error& e) {
        return e;
    }
    FAIL("expected attention::Error");
    return attention::Error("", "");
}

inline bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

}  // namespace test_support

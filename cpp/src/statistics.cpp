#include "attention/statistics.hpp"

#include "attention/error.hpp"

namespace attention {

double mean(const Matrix& m) {
    if (m.size() == 0) throw Error("invalid_argument", "the mean of no numbers is undefined");
    return m.cast<double>().mean();
}

double variance(const Matrix& m) {
    const double mu = mean(m);
    return (m.cast<double>().array() - mu).square().mean();
}

}  // namespace attention

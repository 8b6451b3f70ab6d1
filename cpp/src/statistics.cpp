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

std::vector<std::int32_t> order_descending(const std::vector<float>& values) {
    std::vector<std::int32_t> order;
    order.reserve(values.size());
    for (std::size_t j = 0; j < values.size(); ++j) {
        // after every earlier index whose value is at least this one's
        std::size_t at = order.size();
        while (at > 0 && values[static_cast<std::size_t>(order[at - 1])] < values[j]) --at;
        order.insert(order.begin() + static_cast<std::ptrdiff_t>(at), static_cast<std::int32_t>(j));
    }
    return order;
}

}  // namespace attention

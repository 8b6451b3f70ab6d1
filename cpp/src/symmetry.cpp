#include "attention/symmetry.hpp"

#include <vector>

#include "attention/error.hpp"

namespace attention {

// Plain loops in double (no Eigen double matrices: this runs once a view, and the page's wasm stays small).
QkSymmetry qk_symmetry(const Matrix& scores, const Matrix& weights) {
    const Eigen::Index n = scores.rows();
    if (scores.cols() != n || weights.rows() != n || weights.cols() != n) {
        throw Error("invalid_argument", "a head's scores and weights must both be n × n");
    }
    QkSymmetry out;
    if (n == 0) return out;
    // Double-centred: a row's offset (softmax ignores it) and a key's offset for every query (its
    // popularity, as [SEP]'s) are taken out; what is left is how query i and key j go together.
    std::vector<double> rows(static_cast<std::size_t>(n), 0.0), cols(static_cast<std::size_t>(n), 0.0);
    double all = 0;
    for (Eigen::Index i = 0; i < n; ++i) {
        for (Eigen::Index j = 0; j < n; ++j) {
            const double s = scores(i, j);
            rows[static_cast<std::size_t>(i)] += s;
            cols[static_cast<std::size_t>(j)] += s;
            all += s;
        }
    }
    const double size = static_cast<double>(n);
    const auto centred = [&](Eigen::Index i, Eigen::Index j) {
        return scores(i, j) - rows[static_cast<std::size_t>(i)] / size - cols[static_cast<std::size_t>(j)] / size + all / (size * size);
    };
    double total = 0, symmetric = 0, diagonal = 0;
    for (Eigen::Index i = 0; i < n; ++i) {
        diagonal += weights(i, i);
        for (Eigen::Index j = 0; j < n; ++j) {
            const double c = centred(i, j), half = 0.5 * (c + centred(j, i));
            total += c * c;
            symmetric += half * half;
        }
    }
    if (total > 0) out.symmetric_share = symmetric / total;
    out.self_share = diagonal / size;
    return out;
}

QkSymmetry qk_symmetry(const Trace& trace) { return qk_symmetry(trace.scores, trace.weights); }

}  // namespace attention

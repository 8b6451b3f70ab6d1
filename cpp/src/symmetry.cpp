#include "attention/symmetry.hpp"

#include <vector>

#include "attention/error.hpp"
#include "attention/heads.hpp"

namespace attention {

// Plain loops in double (no Eigen double matrices: this runs once a view, and the page's wasm stays
// small).
double symmetric_share(const Matrix& scores) {
    const Eigen::Index n = scores.rows();
    if (scores.cols() != n) throw Error("invalid_argument", "a head's scores must be n × n");
    if (n == 0) return 1;
    // Double-centred: a row's offset (softmax ignores it) and a key's offset for every query (its
    // popularity, as [SEP]'s) are taken out; what is left is how query i and key j go together.
    std::vector<double> rows(static_cast<std::size_t>(n), 0.0),
        cols(static_cast<std::size_t>(n), 0.0);
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
        return scores(i, j) - rows[static_cast<std::size_t>(i)] / size -
               cols[static_cast<std::size_t>(j)] / size + all / (size * size);
    };
    double total = 0, symmetric = 0;
    for (Eigen::Index i = 0; i < n; ++i) {
        for (Eigen::Index j = 0; j < n; ++j) {
            const double c = centred(i, j), half = 0.5 * (c + centred(j, i));
            total += c * c;
            symmetric += half * half;
        }
    }
    return total > 0 ? symmetric / total : 1;
}

QkSymmetry qk_symmetry(const Matrix& scores, const Matrix& weights,
                       const std::vector<std::int32_t>& ids) {
    const auto n = static_cast<Eigen::Index>(ids.size());
    if (scores.rows() != n || scores.cols() != n || weights.rows() != n || weights.cols() != n) {
        throw Error("invalid_argument",
                    "a head's scores and weights must both be n × n for a sentence of n ids");
    }
    const HeadReport report = head_report(weights, ids);  // checks n ≥ 3
    QkSymmetry out;
    out.symmetric_share = symmetric_share(scores);
    out.antisymmetric_share = 1 - out.symmetric_share;
    out.self_share = report.shares.self;
    if ((report.label == "next" || report.label == "previous") &&
        out.symmetric_share > kMostlySymmetric) {
        out.one_way = report.label;
        out.one_way_share = report.label == "next" ? report.shares.next : report.shares.previous;
    }
    return out;
}

QkSymmetry qk_symmetry(const Trace& trace) {
    std::vector<std::int32_t> ids;
    for (const Token& t : trace.tokens) ids.push_back(t.id);
    return qk_symmetry(trace.scores, trace.weights, ids);
}

}  // namespace attention

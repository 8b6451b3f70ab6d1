#include "attention/explain.hpp"

#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "attention/error.hpp"

namespace attention {

namespace {

std::vector<float> to_vector(const Eigen::Ref<const RowVector>& row) {
    return std::vector<float>(row.data(), row.data() + row.size());
}

}  // namespace

std::pair<Eigen::Index, Eigen::Index> checked_cell(const Matrix& m, std::int64_t i, std::int64_t j,
                                                   std::string_view stage) {
    if (i < 0 || i >= static_cast<std::int64_t>(m.rows()) || j < 0 ||
        j >= static_cast<std::int64_t>(m.cols())) {
        throw Error("invalid_argument", "cell (" + std::to_string(i) + ", " + std::to_string(j) +
                                            ") is outside " + std::string(stage) + " (" +
                                            std::to_string(m.rows()) + " × " +
                                            std::to_string(m.cols()) + ")");
    }
    return {static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)};
}

DotTerms dot_terms(const Trace& trace, std::string_view stage, std::int64_t i, std::int64_t j) {
    DotTerms terms;
    if (stage == "scores") {
        const auto [r, c] = checked_cell(trace.scores, i, j, stage);
        terms.a = to_vector(trace.q.row(r));
        terms.b = to_vector(trace.k.row(c));
        terms.total = trace.scores(r, c);
    } else if (stage == "output") {
        const auto [r, c] = checked_cell(trace.output, i, j, stage);
        terms.a = to_vector(trace.weights.row(r));
        const RowVector column = trace.v.col(c).transpose();
        terms.b = to_vector(column);
        terms.total = trace.output(r, c);
    } else {
        throw Error("invalid_argument",
                    "term-by-term sums exist for \"scores\" (q_i · k_j) and "
                    "\"output\" (Σ_k p_ik · v_kj), not for \"" +
                        std::string(stage) + "\"");
    }
    for (std::size_t t = 0; t < terms.a.size(); ++t)
        terms.products.push_back(terms.a[t] * terms.b[t]);
    const auto range = finite_range(Eigen::Map<const Matrix>(
        terms.products.data(), 1, static_cast<Eigen::Index>(terms.products.size())));
    terms.products_min = range.min;
    terms.products_max = range.max;
    return terms;
}

Matrix weighted_rows(const Trace& trace, std::int64_t i) {
    const Eigen::Index r = checked_cell(trace.weights, i, 0, "weights").first;
    return trace.weights.row(r).transpose().asDiagonal() * trace.v;
}

Contributions contributions(const Trace& trace, std::int64_t i) {
    const Matrix rows = weighted_rows(trace, i);
    Contributions c;
    for (Eigen::Index j = 0; j < rows.rows(); ++j) {
        c.lengths.push_back(rows.row(j).norm());
        if (c.lengths.back() > c.lengths[static_cast<std::size_t>(c.strongest)]) c.strongest = j;
    }
    return c;
}

std::vector<float> row_sums(const Matrix& m) {
    std::vector<float> sums;
    for (Eigen::Index i = 0; i < m.rows(); ++i) {
        double s = 0;
        for (Eigen::Index j = 0; j < m.cols(); ++j) {
            if (std::isfinite(m(i, j))) s += m(i, j);
        }
        sums.push_back(static_cast<float>(s));
    }
    return sums;
}

float cosine_similarity(const Matrix& a, const Matrix& b) {
    if (a.size() != b.size()) {
        throw Error("invalid_argument", "cosine similarity needs two rows of the same length");
    }
    const Eigen::Map<const Eigen::VectorXf> x(a.data(), a.size()), y(b.data(), b.size());
    const double norms = static_cast<double>(x.norm()) * static_cast<double>(y.norm());
    return norms == 0 ? 0.0f : static_cast<float>(static_cast<double>(x.dot(y)) / norms);
}

float cosine_similarity(const Trace& a, std::string_view stage_a, std::int64_t row_a,
                        const Trace& b, std::string_view stage_b, std::int64_t row_b) {
    const Matrix& ma = a.stage(stage_a);
    const Matrix& mb = b.stage(stage_b);
    const Eigen::Index ra = checked_cell(ma, row_a, 0, stage_a).first;
    const Eigen::Index rb = checked_cell(mb, row_b, 0, stage_b).first;
    return cosine_similarity(Matrix(ma.row(ra)), Matrix(mb.row(rb)));
}

FiniteRange finite_range(const Matrix& m) {
    FiniteRange r{std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity()};
    for (Eigen::Index t = 0; t < m.size(); ++t) {
        const float v = m.data()[t];
        if (!std::isfinite(v)) continue;
        r.min = std::fmin(r.min, v);
        r.max = std::fmax(r.max, v);
    }
    if (r.min > r.max) return {};
    return r;
}

}  // namespace attention

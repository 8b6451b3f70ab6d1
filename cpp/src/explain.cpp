#include "attention/explain.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "attention/error.hpp"

namespace attention {

namespace {

void check_index(const Matrix& m, Eigen::Index i, Eigen::Index j, std::string_view stage) {
    if (i < 0 || i >= m.rows() || j < 0 || j >= m.cols()) {
        throw Error("invalid_argument", "cell (" + std::to_string(i) + ", " + std::to_string(j) +
                                            ") is outside " + std::string(stage) + " (" +
                                            std::to_string(m.rows()) + " × " +
                                            std::to_string(m.cols()) + ")");
    }
}

std::vector<float> to_vector(const Eigen::Ref<const RowVector>& row) {
    return std::vector<float>(row.data(), row.data() + row.size());
}

}  // namespace

DotTerms dot_terms(const Trace& trace, std::string_view stage, Eigen::Index i, Eigen::Index j) {
    DotTerms terms;
    if (stage == "scores") {
        check_index(trace.scores, i, j, stage);
        terms.a = to_vector(trace.q.row(i));
        terms.b = to_vector(trace.k.row(j));
        terms.total = trace.scores(i, j);
    } else if (stage == "output") {
        check_index(trace.output, i, j, stage);
        terms.a = to_vector(trace.weights.row(i));
        const RowVector column = trace.v.col(j).transpose();
        terms.b = to_vector(column);
        terms.total = trace.output(i, j);
    } else {
        throw Error("invalid_argument", "term-by-term sums exist for \"scores\" (q_i · k_j) and "
                                        "\"output\" (Σ_k p_ik · v_kj), not for \"" +
                                            std::string(stage) + "\"");
    }
    for (std::size_t t = 0; t < terms.a.size(); ++t) terms.products.push_back(terms.a[t] * terms.b[t]);
    return terms;
}

RowSteps row_steps(const Trace& trace, Eigen::Index i) {
    check_index(trace.weights, i, 0, "weights");
    RowSteps r;
    r.scores = to_vector(trace.scores.row(i));
    r.scaled = to_vector(trace.scaled.row(i));
    r.masked = to_vector(trace.masked.row(i));
    r.probs = to_vector(trace.weights.row(i));
    r.divisor = trace.config.scale ? std::sqrt(static_cast<float>(trace.config.d_k)) : 1.0f;
    r.max = trace.masked.row(i).maxCoeff();  // finite: the diagonal is never masked
    for (const float s : r.masked) {
        r.exps.push_back(std::exp(s));
        r.shifted_exps.push_back(std::exp(s - r.max));
    }
    for (const float e : r.exps) r.exp_sum += e;
    for (const float e : r.shifted_exps) r.shifted_sum += e;
    for (const float e : r.exps) r.shares.push_back(std::isfinite(r.exp_sum) ? e / r.exp_sum : NAN);
    double sum = 0;
    for (const float p : r.probs) sum += p;
    r.prob_sum = static_cast<float>(sum);
    return r;
}

Matrix weighted_rows(const Trace& trace, Eigen::Index i) {
    check_index(trace.weights, i, 0, "weights");
    return trace.weights.row(i).transpose().asDiagonal() * trace.v;
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

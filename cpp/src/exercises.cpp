#include "attention/exercises.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "attention/error.hpp"
#include "attention/softmax_row.hpp"

namespace attention {

namespace {

using Row = std::vector<double>;

// A vector index from a matrix index (never negative here).
std::size_t at(std::int64_t k) { return static_cast<std::size_t>(k); }
// A matrix index from a checked cell index (Eigen::Index is 32 bits in wasm).
Eigen::Index ix(std::int64_t k) { return static_cast<Eigen::Index>(k); }

bool known(std::string_view name) {
    return std::find(std::begin(kExerciseNames), std::end(kExerciseNames), name) != std::end(kExerciseNames);
}

void check_cell(const Matrix& m, std::int64_t i, std::int64_t j, std::string_view what) {
    if (i < 0 || i >= m.rows() || j < 0 || j >= m.cols()) {
        throw Error("invalid_argument", "cell (" + std::to_string(i) + ", " + std::to_string(j) +
                                            ") is outside " + std::string(what) + " (" +
                                            std::to_string(m.rows()) + " × " + std::to_string(m.cols()) + ")");
    }
}

// Row i of scores divided by `divisor`, −∞ where the trace's mask hides a key.
Row divided_row(const Trace& t, std::int64_t i, double divisor) {
    Row row(at(t.scores.cols()));
    for (Eigen::Index k = 0; k < t.scores.cols(); ++k) {
        row[at(k)] = std::isinf(t.masked(ix(i), k)) ? -std::numeric_limits<double>::infinity() : t.scores(ix(i), k) / divisor;
    }
    return row;
}

// e^x of each entry, in double, no shift (0 where masked).
Row exps(const Row& row) {
    Row out(row.size());
    std::transform(row.begin(), row.end(), out.begin(), [](double x) { return std::exp(x); });
    return out;
}

double sum(const Row& row) {
    double s = 0;
    for (double x : row) s += x;
    return s;
}

// The softmax of a row, in the stable form.
Row softmax(const Row& row) {
    const double top = *std::max_element(row.begin(), row.end());
    Row out(row.size());
    std::transform(row.begin(), row.end(), out.begin(), [&](double x) { return std::exp(x - top); });
    const double s = sum(out);
    for (double& p : out) p /= s;
    return out;
}

// Σ_k w[k] · v(k, j).
double weighted(const Row& w, const Matrix& v, std::int64_t j) {
    double s = 0;
    for (std::size_t k = 0; k < w.size(); ++k) s += w[k] * v(static_cast<Eigen::Index>(k), ix(j));
    return s;
}

float tolerance_for(double value) { return static_cast<float>(std::max(0.005, 0.01 * std::fabs(value))); }

std::vector<float> floats(const Row& row) { return std::vector<float>(row.begin(), row.end()); }

}  // namespace

Exercise make_exercise(const Trace& t, std::string_view name, std::int64_t i, std::int64_t j) {
    if (!known(name)) {
        throw Error("invalid_argument", "there is no exercise \"" + std::string(name) +
                                            "\": dot, scaled, exp, softmax or output");
    }
    Exercise e;
    e.name = std::string(name);
    e.row = i;
    e.col = j;
    e.d_k = t.config.d_k;
    e.d_model = t.config.d_model;
    e.divisor = t.divisor();
    check_cell(name == "output" ? t.output : t.scores, i, j, name == "output" ? "output" : "scores");
    const Eigen::Index r = ix(i), c = ix(j);
    const double score = t.scores(r, c);
    const double root_d_model = std::sqrt(static_cast<double>(e.d_model));
    const Row scaled = divided_row(t, i, e.divisor);
    const Row exp_scaled = exps(scaled);
    std::vector<Mistake> wrong;
    auto add = [&](const char* id, double value) { wrong.push_back({id, static_cast<float>(value)}); };

    if (name == "dot") {
        e.a.assign(t.q.row(r).data(), t.q.row(r).data() + t.q.cols());
        for (Eigen::Index d = 0; d < t.k.cols(); ++d) e.b.push_back(t.k(c, d));
        e.expected = t.scores(r, c);
        add("transposed", t.scores(c, r));
        add("already_scaled", score / e.divisor);
    } else if (name == "scaled") {
        e.a = {static_cast<float>(score)};
        e.expected = t.scaled(r, c);
        add("no_scale", score);
        add("sqrt_d_model", score / root_d_model);
        add("no_sqrt", score / (e.divisor * e.divisor));
    } else if (name == "exp") {
        e.a = {t.masked(r, c)};
        e.expected = static_cast<float>(exp_scaled[at(c)]);
        add("no_scale", std::exp(score));
        add("sqrt_d_model", std::exp(score / root_d_model));
    } else if (name == "softmax") {
        e.a = floats(scaled);
        e.expected = t.weights(r, c);
        const double top = exp_scaled[at(c)];
        add("not_normalised", top);
        add("not_normalised", std::exp(scaled[at(c)] - *std::max_element(scaled.begin(), scaled.end())));
        add("no_scale", softmax(divided_row(t, i, 1))[at(c)]);
        add("sqrt_d_model", softmax(divided_row(t, i, root_d_model))[at(c)]);
        for (Eigen::Index other = 0; other < t.scores.rows(); ++other) {
            if (other != r) add("wrong_row_sum", top / sum(exps(divided_row(t, other, e.divisor))));
        }
        double column = 0;
        for (Eigen::Index other = 0; other < t.scores.rows(); ++other) column += exps(divided_row(t, other, e.divisor))[at(c)];
        add("wrong_axis", top / column);
    } else {  // output
        const Row w(t.weights.row(r).data(), t.weights.row(r).data() + t.weights.cols());
        e.a = floats(w);
        for (Eigen::Index k = 0; k < t.v.rows(); ++k) e.b.push_back(t.v(k, c));
        e.expected = t.output(r, c);
        if (r < t.weights.cols()) {
            Row column(at(t.weights.rows()));
            for (Eigen::Index k = 0; k < t.weights.rows(); ++k) column[at(k)] = t.weights(k, r);
            add("wrong_axis", weighted(column, t.v, j));
        }
        add("unweighted", weighted(Row(w.size(), 1.0), t.v, j));
        add("no_scale", weighted(softmax(divided_row(t, i, 1)), t.v, j));
        add("sqrt_d_model", weighted(softmax(divided_row(t, i, root_d_model)), t.v, j));
        add("not_normalised", weighted(exp_scaled, t.v, j));
    }
    e.tolerance = tolerance_for(e.expected);
    // A mistake is offered when its value can be told from the right one, from
    // 0 (an answer of about 0 says nothing about how it was reached) and from
    // every mistake before it (the first of two that agree is named).
    auto apart = [](float a, float b) { return std::fabs(a - b) > tolerance_for(a) + tolerance_for(b); };
    for (const Mistake& m : wrong) {
        if (!std::isfinite(m.value) || !apart(m.value, e.expected) || !apart(m.value, 0)) continue;
        if (std::all_of(e.mistakes.begin(), e.mistakes.end(), [&](const Mistake& kept) { return apart(kept.value, m.value); })) {
            e.mistakes.push_back(m);
        }
    }
    return e;
}

std::pair<std::int64_t, std::int64_t> pick_cell(const Trace& t, std::string_view name, std::int64_t row,
                                                std::uint32_t seed) {
    if (!known(name)) make_exercise(t, name, 0, 0);  // throws the message for an unknown name
    const std::int64_t n = t.scores.rows();
    const std::int64_t first = n > 2 ? 1 : 0, last = n > 2 ? n - 2 : n - 1;  // the real tokens
    if (row < first || row > last) row = first;
    std::vector<std::int64_t> candidates;
    if (name == "output") {
        for (std::int64_t j = 0; j < t.output.cols(); ++j) candidates.push_back(j);
    } else {
        const Row scaled = divided_row(t, row, t.divisor());
        for (std::int64_t j = 0; j < n; ++j) {
            if (std::isfinite(scaled[at(j)]) && std::isfinite(std::exp(scaled[at(j)])) &&
                std::isfinite(std::exp(static_cast<double>(t.scores(ix(row), ix(j)))))) {
                candidates.push_back(j);
            }
        }
        // Keys the query really attends to: a weight near 0 makes every mistake near 0 too.
        std::vector<std::int64_t> attended;
        for (std::int64_t j : candidates) {
            if (t.weights(ix(row), ix(j)) >= 0.05f) attended.push_back(j);
        }
        if (!attended.empty()) candidates = attended;
        if (candidates.empty()) candidates.push_back(row);
    }
    std::uint32_t h = seed * 2654435761u;  // Knuth's multiplicative hash spreads nearby seeds
    h ^= h >> 16;
    return {row, candidates[h % candidates.size()]};
}

Verdict check_answer(const Exercise& e, double answer) {
    if (!std::isfinite(answer)) throw Error("invalid_argument", "an answer must be a finite number");
    if (std::fabs(answer - e.expected) <= e.tolerance) return {true, ""};
    Verdict v;
    double best = std::numeric_limits<double>::infinity();
    for (const Mistake& m : e.mistakes) {
        const double off = std::fabs(answer - m.value);
        if (off <= tolerance_for(m.value) && off < best) {
            best = off;
            v.mistake = m.id;
        }
    }
    return v;
}

}  // namespace attention

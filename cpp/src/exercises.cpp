#include "attention/exercises.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "attention/error.hpp"
#include "attention/explain.hpp"
#include "attention/softmax_row.hpp"
#include "exp_double.hpp"

namespace attention {

namespace {

// A vector index from a matrix index (never negative here).
std::size_t at(Eigen::Index k) { return static_cast<std::size_t>(k); }
// A matrix index from a checked cell index (Eigen::Index is 32 bits in wasm).
Eigen::Index ix(std::int64_t k) { return static_cast<Eigen::Index>(k); }

void check_name(std::string_view name) {
    if (std::find(std::begin(kExerciseNames), std::end(kExerciseNames), name) ==
        std::end(kExerciseNames)) {
        throw Error("invalid_argument", "there is no exercise \"" + std::string(name) +
                                            "\": dot, scaled, exp, softmax or output");
    }
}

float tolerance_for(double value) {
    return static_cast<float>(std::max(0.005, 0.01 * std::fabs(value)));
}

}  // namespace

Exercise make_exercise(const Trace& t, std::string_view name, std::int64_t i, std::int64_t j) {
    check_name(name);
    const auto [r, c] = checked_cell(name == "output" ? t.output : t.scores, i, j,
                                     name == "output" ? "output" : "scores");
    Exercise e;
    e.name = std::string(name);
    e.row = i;
    e.col = j;
    e.d_k = t.config.d_k;
    e.d_model = t.config.d_model;
    e.divisor = t.divisor();
    const double score = t.scores(r, c);
    std::vector<Mistake> wrong;
    auto add = [&](const char* id, double value) {
        wrong.push_back({id, static_cast<float>(value)});
    };

    // Each branch sets what the learner is given (a, b, partial_sum, and d_k and d_model, which
    // the task states), then the mistakes, each computed from those givens alone: a mistake the
    // learner could not have made from what is on screen is never offered.
    if (name == "dot") {
        // By hand: the last (up to) four products; the others' sum is given.
        const Eigen::Index n = t.q.cols();
        const Eigen::Index from =
            std::max<Eigen::Index>(0, n - static_cast<Eigen::Index>(kDotByHand));
        double partial = 0;
        for (Eigen::Index d = 0; d < n; ++d) {
            const double product = static_cast<double>(t.q(r, d)) * t.k(c, d);
            if (d < from)
                partial += product;
            else
                e.a.push_back(t.q(r, d)), e.b.push_back(t.k(c, d));
        }
        e.by_hand = n - from;
        e.summed = from;
        e.partial_sum = static_cast<float>(partial);
        e.expected = t.scores(r, c);
        double last = 0;
        for (std::size_t d = 0; d < e.a.size(); ++d) last += static_cast<double>(e.a[d]) * e.b[d];
        add("already_scaled", (e.partial_sum + last) / e.divisor);
        add("partial_sum_left_out", last);
    } else if (name == "scaled") {
        e.a = {static_cast<float>(score)};
        e.expected = t.scaled(r, c);
        const double given = e.a[0];
        add("no_scale", given);
        add("sqrt_d_model", given / std::sqrt(static_cast<double>(e.d_model)));
        add("no_sqrt", given / static_cast<double>(e.d_k));
    } else if (name == "exp") {
        // Given: x alone. No usual mistake can be told from it.
        e.a = {t.masked(r, c)};
        e.expected = softmax_row(t, i).exps[at(c)];
    } else if (name == "softmax") {
        // Given: each key's e^(x − max), so one sum and one division are left.
        e.a = softmax_row(t, i).shifted_exps;
        e.expected = t.weights(r, c);
        add("not_normalised", e.a[at(c)]);
    } else {  // output
        // Given: row i's weights and V's column j.
        e.a.assign(t.weights.row(r).data(), t.weights.row(r).data() + t.weights.cols());
        for (Eigen::Index k = 0; k < t.v.rows(); ++k) e.b.push_back(t.v(k, c));
        e.expected = t.output(r, c);
        double plain = 0;
        for (const float v : e.b) plain += v;
        add("unweighted", plain);
    }
    e.tolerance = tolerance_for(e.expected);
    // A mistake is offered when its value can be told from the right one, from
    // 0 (an answer of about 0 says nothing about how it was reached) and from
    // every mistake before it (the first of two that agree is named).
    auto apart = [](float a, float b) {
        return std::fabs(a - b) > tolerance_for(a) + tolerance_for(b);
    };
    for (const Mistake& m : wrong) {
        if (!std::isfinite(m.value) || !apart(m.value, e.expected) || !apart(m.value, 0)) continue;
        if (std::all_of(e.mistakes.begin(), e.mistakes.end(),
                        [&](const Mistake& kept) { return apart(kept.value, m.value); })) {
            e.mistakes.push_back(m);
        }
    }
    return e;
}

std::pair<std::int64_t, std::int64_t> pick_cell(const Trace& t, std::string_view name,
                                                std::int64_t row, std::uint32_t seed) {
    check_name(name);
    const std::int64_t n = t.scores.rows();
    const std::int64_t first = n > 2 ? 1 : 0, last = n > 2 ? n - 2 : n - 1;  // the real tokens
    if (row < first || row > last) row = first;
    std::vector<std::int64_t> candidates;
    if (name == "output") {
        for (std::int64_t j = 0; j < t.output.cols(); ++j) candidates.push_back(j);
    } else {
        // Keys the query sees whose e^x, scaled or not, stays finite.
        for (std::int64_t j = 0; j < n; ++j) {
            const double x = t.masked(ix(row), ix(j));
            if (std::isfinite(x) && std::isfinite(detail::exp_double(x)) &&
                std::isfinite(detail::exp_double(static_cast<double>(t.scores(ix(row), ix(j)))))) {
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
    if (!std::isfinite(answer))
        throw Error("invalid_argument", "an answer must be a finite number");
    Verdict v;
    v.expected = e.expected;
    v.tolerance = e.tolerance;
    v.correct = std::fabs(answer - e.expected) <= e.tolerance;
    if (v.correct) return v;
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

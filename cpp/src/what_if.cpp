#include "attention/what_if.hpp"

#include <cmath>

#include "attention/error.hpp"

namespace attention {

EditedRow edit_row(const std::vector<float>& row, const std::vector<RowEdit>& edits,
                   bool renormalise) {
    const auto n = static_cast<std::int64_t>(row.size());
    if (n == 0) throw Error("invalid_argument", "the row to edit is empty");
    EditedRow out{row, 0};
    std::vector<char> edited(row.size(), 0);
    for (const RowEdit& e : edits) {
        if (e.key < 0 || e.key >= n) {
            throw Error("invalid_argument", "a key to edit must be a token's index, from 0 to " +
                                                std::to_string(n - 1) + ", got " +
                                                std::to_string(e.key));
        }
        if (!(e.weight >= 0 && e.weight <= 1)) {
            throw Error("invalid_argument", "a key's new weight must be a number from 0 to 1");
        }
        out.weights[static_cast<std::size_t>(e.key)] = e.weight;
        edited[static_cast<std::size_t>(e.key)] = 1;
    }
    // No edit: softmax's row as it is (renormalising it would move it by its float sum's rounding).
    if (renormalise && !edits.empty()) {
        double pinned = 0, others = 0;  // the edited keys' sum, the others'
        std::int64_t free = 0;
        for (std::size_t j = 0; j < row.size(); ++j) {
            (edited[j] ? pinned : others) += out.weights[j];
            free += edited[j] ? 0 : 1;
        }
        if (pinned + others <= 0) {
            throw Error("invalid_argument",
                        "every key was hidden: there is nothing to renormalise");
        }
        const double left = 1 - pinned;  // what the keys not edited share
        for (std::size_t j = 0; j < row.size(); ++j) {
            double w = out.weights[j];
            if (left < 0 || free == 0) {
                w /= pinned + others;
            } else if (!edited[j]) {
                w = others > 0 ? w * left / others : left / static_cast<double>(free);
            }
            out.weights[j] = static_cast<float>(w);
        }
    }
    for (const float w : out.weights) out.sum += w;
    return out;
}

Moved moved(const std::vector<float>& before, const std::vector<float>& after) {
    if (before.size() != after.size()) {
        throw Error("invalid_argument", "two vectors to compare must have the same length");
    }
    double b = 0, a = 0, d = 0;
    for (std::size_t j = 0; j < before.size(); ++j) {
        b += double(before[j]) * before[j];
        a += double(after[j]) * after[j];
        d += (double(after[j]) - before[j]) * (double(after[j]) - before[j]);
    }
    Moved m{static_cast<float>(std::sqrt(b)), static_cast<float>(std::sqrt(a)),
            static_cast<float>(std::sqrt(d)), 0, false};
    m.relative = m.before > 0 ? m.distance / m.before : 0;
    m.moved = m.distance > kUnmoved * m.before;
    return m;
}

GuessShift guess_shift(const std::vector<Guess>& before, const std::vector<Guess>& after) {
    if (before.empty() || after.empty()) {
        throw Error("invalid_argument", "guesses to compare must hold at least one guess each");
    }
    GuessShift s;
    s.first_before = before.front().token;
    s.first_after = after.front().token;
    s.same_first = s.first_before == s.first_after;
    s.before = before.front().probability;
    s.after = -1;
    for (const Guess& g : after) {
        if (g.token == s.first_before) s.after = g.probability;
    }
    s.direction = s.after < 0                                         ? "gone"
                  : std::fabs(s.after - s.before) <= kSameProbability ? "same"
                  : s.after > s.before                                ? "up"
                                                                      : "down";
    return s;
}

}  // namespace attention

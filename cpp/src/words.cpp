#include "attention/words.hpp"

#include <algorithm>
#include <string>

#include "attention/error.hpp"

namespace attention {

namespace {

std::string span_text(const WordSpan& w) {
    return std::to_string(w.from) + "–" + std::to_string(w.to);
}

}  // namespace

std::vector<WordSpan> word_groups(std::int64_t n, std::vector<WordSpan> words) {
    std::sort(words.begin(), words.end(),
              [](const WordSpan& a, const WordSpan& b) { return a.from < b.from; });
    std::vector<WordSpan> groups;
    std::int64_t next = 0;
    for (const WordSpan& w : words) {
        if (w.from < 0 || w.to >= n || w.from > w.to) {
            throw Error("invalid_argument", "the word " + span_text(w) +
                                                " is not within the sentence's " +
                                                std::to_string(n) + " tokens (0 … " +
                                                std::to_string(n - 1) + ", from ≤ to)");
        }
        if (w.from == w.to)
            throw Error("invalid_argument", "the word " + span_text(w) +
                                                " is one token: a word here is two tokens or more");
        if (w.from < next)
            throw Error("invalid_argument",
                        "the word " + span_text(w) + " overlaps the word before it");
        for (; next < w.from; ++next) groups.push_back({next, next});
        groups.push_back(w);
        next = w.to + 1;
    }
    for (; next < n; ++next) groups.push_back({next, next});
    return groups;
}

Matrix word_attention(const Matrix& weights, const std::vector<WordSpan>& groups) {
    const auto g = static_cast<Eigen::Index>(groups.size());
    if (g == 0 || groups.front().from != 0 || groups.back().to + 1 != weights.rows() ||
        weights.rows() != weights.cols()) {
        throw Error("invalid_argument", "the word groups must cover the attention matrix's tokens");
    }
    Matrix out = Matrix::Zero(g, g);
    for (Eigen::Index a = 0; a < g; ++a) {
        const WordSpan& from = groups[static_cast<std::size_t>(a)];
        const auto first_row = static_cast<Eigen::Index>(from.from);
        const auto rows = static_cast<Eigen::Index>(from.to - from.from + 1);
        for (Eigen::Index b = 0; b < g; ++b) {
            const WordSpan& to = groups[static_cast<std::size_t>(b)];
            const auto first_col = static_cast<Eigen::Index>(to.from);
            const auto cols = static_cast<Eigen::Index>(to.to - to.from + 1);
            // Σ over the word's keys, then the mean over its queries (in double: float32 out).
            double total = 0;
            for (Eigen::Index i = 0; i < rows; ++i)
                for (Eigen::Index j = 0; j < cols; ++j)
                    total += weights(first_row + i, first_col + j);
            out(a, b) = static_cast<float>(total / static_cast<double>(rows));
        }
    }
    return out;
}

}  // namespace attention

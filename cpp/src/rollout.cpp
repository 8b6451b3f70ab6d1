#include "attention/rollout.hpp"

#include <string>

#include "attention/error.hpp"

namespace attention {

Rollout attention_rollout(const std::vector<std::vector<const Matrix*>>& weights,
                          const std::vector<std::vector<bool>>& silenced) {
    if (weights.empty() || weights[0].empty()) throw Error("invalid_argument", "a rollout needs at least one layer of heads");
    const Eigen::Index n = weights[0][0]->rows();
    Rollout r;
    r.rollout = Matrix::Identity(n, n);
    for (std::size_t l = 0; l < weights.size(); ++l) {
        Matrix average = Matrix::Zero(n, n);
        int count = 0;
        for (std::size_t h = 0; h < weights[l].size(); ++h) {
            const Matrix& w = *weights[l][h];
            if (w.rows() != n || w.cols() != n) throw Error("invalid_argument", "every head's attention in a rollout must be n × n");
            if (l < silenced.size() && h < silenced[l].size() && silenced[l][h]) continue;
            average += w;
            ++count;
        }
        if (weights[l].empty()) throw Error("invalid_argument", "layer " + std::to_string(l) + " of the rollout has no heads");
        if (count > 0) average /= static_cast<float>(count);
        r.averaged.push_back(count);
        // A layer whose heads are all silenced passes every token on unchanged: its average is I.
        const Matrix mixed = count > 0 ? Matrix(0.5f * average + 0.5f * Matrix::Identity(n, n)) : Matrix(Matrix::Identity(n, n));
        r.rollout = mixed * r.rollout;
        if (l + 1 == weights.size()) r.last = count > 0 ? average : Matrix::Identity(n, n);
    }
    return r;
}

Rollout attention_rollout(const Trace& trace) { return attention_rollout({{&trace.weights}}, {{false}}); }

Rollout rollout_by_words(const Rollout& r, const std::vector<WordSpan>& groups) {
    return {word_attention(r.rollout, groups), word_attention(r.last, groups), r.averaged};
}

RolloutRow rollout_row(const Rollout& r, std::int64_t i) {
    const Eigen::Index n = r.rollout.rows();
    if (i < 0 || i >= n) {
        throw Error("invalid_argument", "row " + std::to_string(i) + " is outside the rollout's " + std::to_string(n) + " tokens");
    }
    RolloutRow out;
    out.row = i;
    const auto at = static_cast<Eigen::Index>(i);
    out.rollout.assign(r.rollout.row(at).data(), r.rollout.row(at).data() + n);
    out.last.assign(r.last.row(at).data(), r.last.row(at).data() + n);
    out.rollout_self = r.rollout(at, at);
    out.last_self = r.last(at, at);
    // The largest share on another token (the first on ties).
    const auto top = [&](const std::vector<float>& row) {
        std::int64_t best = i == 0 ? 1 : 0;
        for (std::int64_t j = 0; j < n; ++j) {
            if (j != i && row[static_cast<std::size_t>(j)] > row[static_cast<std::size_t>(best)]) best = j;
        }
        return best;
    };
    out.rollout_top = top(out.rollout);
    out.last_top = top(out.last);
    return out;
}

}  // namespace attention

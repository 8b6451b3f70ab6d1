#include "attention/rollout.hpp"

#include <string>

#include "attention/error.hpp"
#include "attention/kernels.hpp"

namespace attention {

Rollout attention_rollout(const std::vector<std::vector<const Matrix*>>& weights,
                          const std::vector<std::vector<bool>>& silenced) {
    if (weights.empty() || weights[0].empty())
        throw Error("invalid_argument", "a rollout needs at least one layer of heads");
    const Eigen::Index n = weights[0][0]->rows();
    const auto identity = [n] {
        Matrix m = Matrix::Zero(n, n);
        for (Eigen::Index i = 0; i < n; ++i) m(i, i) = 1;
        return m;
    };
    Rollout r;
    r.rollout = identity();
    for (std::size_t l = 0; l < weights.size(); ++l) {
        if (weights[l].empty())
            throw Error("invalid_argument",
                        "layer " + std::to_string(l) + " of the rollout has no heads");
        Matrix average = Matrix::Zero(n, n);
        int count = 0;
        for (std::size_t h = 0; h < weights[l].size(); ++h) {
            const Matrix& w = *weights[l][h];
            if (w.rows() != n || w.cols() != n)
                throw Error("invalid_argument",
                            "every head's attention in a rollout must be n × n");
            if (l < silenced.size() && h < silenced[l].size() && silenced[l][h]) continue;
            for (Eigen::Index k = 0; k < w.size(); ++k) average.data()[k] += w.data()[k];
            ++count;
        }
        r.averaged.push_back(count);
        // ½·mean + ½·I; a layer whose heads are all silenced passes every token on unchanged: I.
        Matrix mixed = identity();
        if (count > 0) {
            for (Eigen::Index k = 0; k < average.size(); ++k)
                average.data()[k] /= static_cast<float>(count);
            for (Eigen::Index k = 0; k < mixed.size(); ++k)
                mixed.data()[k] = 0.5f * average.data()[k] + 0.5f * mixed.data()[k];
        }
        r.rollout = kernels::times(
            mixed, r.rollout);  // the core's own products (no second GEMM in the wasm)
        if (l + 1 == weights.size()) r.last = count > 0 ? average : identity();
    }
    return r;
}

Rollout attention_rollout(const Trace& trace) {
    return attention_rollout({{&trace.weights}}, {{false}});
}

Rollout rollout_by_words(const Rollout& r, const std::vector<WordSpan>& groups) {
    return {word_attention(r.rollout, groups), word_attention(r.last, groups), r.averaged};
}

RolloutRow rollout_row(const Rollout& r, std::int64_t i) {
    const Eigen::Index n = r.rollout.rows();
    if (i < 0 || i >= n) {
        throw Error("invalid_argument", "row " + std::to_string(i) + " is outside the rollout's " +
                                            std::to_string(n) + " tokens");
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
            if (j != i && row[static_cast<std::size_t>(j)] > row[static_cast<std::size_t>(best)])
                best = j;
        }
        return best;
    };
    out.rollout_top = top(out.rollout);
    out.last_top = top(out.last);
    // Itself against the top other token (a row of one token has no other: its own share is first).
    const auto self_first = [&](const std::vector<float>& row, std::int64_t other) {
        return n < 2 || row[static_cast<std::size_t>(i)] >= row[static_cast<std::size_t>(other)];
    };
    out.rollout_self_first = self_first(out.rollout, out.rollout_top);
    out.last_self_first = self_first(out.last, out.last_top);
    out.tops_differ = out.rollout_top != out.last_top;
    return out;
}

}  // namespace attention

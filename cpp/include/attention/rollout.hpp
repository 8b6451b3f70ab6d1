// Attention rollout (Abnar & Zuidema, "Quantifying Attention Flow in
// Transformers", 2020): how much each input token reaches each output through
// every layer. Each layer's attention is averaged over its heads and mixed half
// and half with the identity, for the residual connection that carries every
// token past the layer: Ã_l = ½·mean_h A_l^h + ½·I. The rollout multiplies them,
// last layer on the left: R = Ã_L ⋯ Ã_2 · Ã_1. Row i of R says where output i's
// mixture comes from among the input tokens; each row sums to 1.
#pragma once

#include <cstdint>
#include <vector>

#include "attention/matrix.hpp"
#include "attention/trace.hpp"
#include "attention/words.hpp"

namespace attention {

struct Rollout {
    Matrix rollout;  // n × n  R: row i, output i's share of each input token
    Matrix last;     // n × n  the last layer's attention averaged over its heads (no identity)
    std::vector<int>
        averaged;  // per layer, the heads in its average (a knocked-out head is left out:
                   // its output is zero, so it moves nothing; a layer with none left is I)
};

// weights[layer][head]: each head's n × n attention; silenced[layer][head]: knocked out.
// Throws attention::Error ("invalid_argument") for no layer, an empty layer or weights not all n ×
// n.
Rollout attention_rollout(const std::vector<std::vector<const Matrix*>>& weights,
                          const std::vector<std::vector<bool>>& silenced);

// The seeded model's one head, as a rollout of one layer: ½·weights + ½·I.
Rollout attention_rollout(const Trace& trace);

// The rollout and the last layer's average between words (words.hpp's rule, groups from
// word_groups()).
Rollout rollout_by_words(const Rollout& r, const std::vector<WordSpan>& groups);

// Row i of a rollout beside the same row of the last layer's average, and what they say of it.
struct RolloutRow {
    std::int64_t row = 0;
    std::vector<float> rollout, last;  // n each
    std::int64_t rollout_top = 0;  // the other token (not i) with the largest share in the rollout
    std::int64_t last_top = 0;     // …and in the last layer's average
    float rollout_self = 0, last_self = 0;  // the row's share on token i itself
    // Token i's own share is at least the top other token's: then the row's largest share stays on
    // i itself (a tie too), else it goes to that other token, strictly more than i keeps.
    bool rollout_self_first = false, last_self_first = false;
    bool tops_differ =
        false;  // rollout_top is not last_top: the two give the most to different other tokens
};

// Throws attention::Error ("invalid_argument") for a row outside the matrix.
RolloutRow rollout_row(const Rollout& r, std::int64_t i);

}  // namespace attention

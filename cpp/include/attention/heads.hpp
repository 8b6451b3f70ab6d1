// What a trained model's heads do, and what it guesses for a hidden token:
// the report card of a head (where its attention goes, measured on the
// sentence at hand), and the top-k tokens for each [MASK].
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "attention/encoder.hpp"
#include "attention/trace.hpp"
#include "attention/vocabulary.hpp"

namespace attention {

// The share of a head's attention, averaged over the sentence's real tokens
// (not [CLS] or [SEP]) as queries, that goes to:
struct HeadShares {
    float self = 0;      // the token itself
    float previous = 0;  // the token just before
    float next = 0;      // the token just after
    float special = 0;   // [CLS] and [SEP]
    float same = 0;      // the same token elsewhere in the sentence
};

struct HeadReport {
    HeadShares shares;
    // The kind whose share dominates (at least kDominant): "self", "previous",
    // "next", "special" or "same"; empty when none does.
    std::string label;
};

inline constexpr float kDominant = 0.5f;

// weights: one head's n × n attention weights on a sentence whose ids are
// `ids` ([CLS] first, [SEP] last). Throws attention::Error ("invalid_argument")
// unless weights is n × n with n = ids.size() ≥ 3.
HeadReport head_report(const Mat<float>& weights, const std::vector<std::int32_t>& ids);

// The report of one head's run: its weights on its tokens' ids.
HeadReport head_report(const Trace& head);

struct Guess {
    std::string token;
    float probability = 0;
};

// For each [MASK] of the text, in order, the top_k tokens the model puts there
// with their probabilities, most likely first, among the tokens that can start
// a word (a [MASK] is a word of its own: no ##piece, no special token). Throws attention::Error for text
// the vocabulary rejects, for top_k outside 1 … 50, or for a text with no
// [MASK] ("invalid_argument"). packed: model's panels (encoder.hpp), if any.
std::vector<std::vector<Guess>> predict_masked(const EncoderParams<float>& model, const Vocabulary& vocabulary,
                                               std::string_view text, int top_k,
                                               const std::vector<HeadId>& knock_out = {},
                                               const PackedEncoder* packed = nullptr);

}  // namespace attention

// What a trained model's heads do, and what it guesses for a hidden token:
// the report card of a head (where its attention goes, measured on the
// sentence at hand), and the top-k tokens for each [MASK].
#pragma once

#include <cstdint>
#include <optional>
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

// HeadShares::self alone: the weight each real token (rows 1 … n − 2: not [CLS] or [SEP]) keeps on
// itself, averaged over them; the one rule for "weight on itself" wherever it is shown. Throws
// attention::Error ("invalid_argument") unless weights is n × n with n ≥ 3.
float mean_self_weight(const Mat<float>& weights);

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

// The head a lab opens on for one token, by the rule the article's table
// illustrates (喜's row gives its largest share after itself to 欢, the token
// after it, 0.23 against 我's 0.16, and spreads the rest: a softmax, not an
// argmax). Candidates: the heads whose row for the token gives its largest
// weight among the other real tokens to a neighbour (the token just before or
// after it; [CLS] and [SEP] are not real tokens). Among them, in order: a
// labelled head (its report card names what it does); a spread row (its
// largest weight below kSpread, where claims.hpp's kSaturated marks saturation);
// the token after before the token before; the largest weight on that neighbour; then the lower
// layer and the lower head. Without a candidate (the token is [CLS] or [SEP], or the sentence has
// one real token, or no head looks at a neighbour): layer 0, head 0, with found false.
struct ArticleHead {
    HeadId head;
    bool found = false;           // a candidate was found
    std::int64_t neighbour = -1;  // the neighbour's index, when found
    float weight = 0;             // the row's weight on it
    bool labelled = false;        // the head's report card has a label
    bool spread = false;          // the row's largest weight is below kSpread (not saturated)
    bool next = false;            // the neighbour is the token after it
};

inline constexpr float kSpread = 0.9f;  // as kSaturated: a row at 0.9 saturates, so is not spread

// weights[layer][head]: each head's n × n weights on a sentence of ids (as
// head_report()). Throws attention::Error ("invalid_argument") for a row out
// of range, no heads, or weights of the wrong size.
ArticleHead article_head(const std::vector<std::vector<const Mat<float>*>>& weights,
                         const std::vector<std::int32_t>& ids, std::int64_t row);
// The same rule for a one-head run (the seeded model): its one head, found or not.
ArticleHead article_head(const Trace& head, std::int64_t row);

// Row `row` of one layer's attention, its heads together: each head's largest weight for the
// row, and the mean over the heads (a knocked-out head left out, as rollout leaves it: its output
// is zero). The tour's answer to the article's third question ("whose information is in 喜's new
// vector?"): the layer's output joins every head's. Throws attention::Error ("invalid_argument")
// for a row out of range, no heads or weights of the wrong size.
struct LayerRow {
    std::vector<float> mean;             // n   the heads' rows averaged (0s when none is left)
    std::vector<std::int32_t> order;     // n   the keys by mean weight, largest first (ties:
                                         //     the earlier key)
    std::vector<std::int32_t> head_top;  // per head: the key it gives the row most weight
    std::vector<float> head_weight;      // per head: that weight
    std::vector<std::uint8_t> averaged;  // per head: 1 when in the mean (not knocked out)
};
LayerRow layer_row(const std::vector<const Mat<float>*>& heads, const std::vector<bool>& silenced,
                   std::int64_t row);

// How much token `from` looks at token `to` (a pronoun and the noun it refers
// to, say), over every head: the head that gives `to` the largest weight in
// from's row, and whether `to` is that row's first choice there (the largest
// weight but from's own, [CLS] and [SEP] counted: a row that rests on [SEP]
// has not chosen `to`); and the head whose row for `from` gives one other real
// token its largest weight, with that token. Throws attention::Error
// ("invalid_argument") unless from and to are different real tokens.
struct TokenLink {
    HeadId strongest;  // the head with the largest weight from `from` to `to`
    float weight = 0;  // that weight
    bool first =
        false;    // `to` is that row's largest weight but from's own ([CLS] and [SEP] counted)
    HeadId peak;  // the head whose row for `from` has the largest weight on one other real token
    std::int64_t peak_token = -1;
    float peak_weight = 0;
};
TokenLink token_link(const std::vector<std::vector<const Mat<float>*>>& weights, std::int64_t from,
                     std::int64_t to);

struct Guess {
    std::string token;
    float probability = 0;
};

// What a [MASK] is guessed among: characters and words (the vocabulary's
// word_guesses(): no punctuation, no symbol), or every token that can start a
// word (word_starts(): punctuation and symbols too).
enum class GuessAmong { words, word_starts };

// The forms guesses are shown in: the vocabulary's own, unless the text holds
// a character the vocabulary has in another form (then the forms the learner
// writes, Vocabulary::typed_form()); `traditional` always the latter (a page
// in traditional Chinese, for a text such as 我喜[MASK]人工智慧 whose every
// character is the same in both).
enum class GuessForms { as_typed, traditional };

// For each [MASK] of the text, in order, the top_k tokens the model puts there
// with their probabilities, most likely first, among the tokens `among` names
// (a [MASK] is a word of its own: never a ##piece or a special token). Throws
// attention::Error for text the vocabulary rejects, for top_k outside 1 … 50,
// or for a text with no [MASK] ("invalid_argument"). packed: model's panels
// (encoder.hpp), if any. depth: where the prediction head reads the [MASK]'s
// row: after the last layer (none, or model.shape.layers: the model's guess),
// or earlier, what the head would say of the row there ("logit lens",
// nostalgebraist 2020): 0 after the embeddings (their LayerNorm, the first
// layer's input), d after layer d. The head was trained on the last layer's
// rows only. Another depth is an "invalid_argument". override: one head's row
// of weights replaced (encode()'s RowOverride), and its errors.
std::vector<std::vector<Guess>> predict_masked(
    const EncoderParams<float>& model, const Vocabulary& vocabulary, std::string_view text,
    int top_k, const std::vector<HeadId>& knock_out = {}, const PackedEncoder* packed = nullptr,
    GuessAmong among = GuessAmong::words, GuessForms forms = GuessForms::as_typed,
    std::optional<int> depth = std::nullopt, const RowOverride* override = nullptr);

// Where the text a [MASK] hid stands among the model's guesses for it.
struct AnswerRank {
    std::string answer;               // as given
    std::vector<std::string> pieces;  // the answer as the vocabulary's tokens
    bool guessable =
        false;              // one token, among those the [MASK] is guessed among: it can be a guess
    std::int64_t rank = 0;  // 1 + how many of those come before it (0: not guessable)
    std::int64_t candidates = 0;  // how many tokens the [MASK] is guessed among
    float probability = 0;        // as the guesses' (0: not guessable)
    bool shown = false;           // among predict_masked()'s top_k guesses: rank 1 … top_k
};

// For each [MASK] of the text, in order, the answer given for it (one text each) ranked as
// predict_masked() orders its guesses (the same model, knock_out, among and depth), and whether
// it is among the top_k it lists: a learner who hid a character sees how far down the list the
// model puts it. Throws attention::Error ("invalid_argument") as predict_masked() does, and for
// answers that are not one non-empty text for each [MASK].
std::vector<AnswerRank> rank_answers(const EncoderParams<float>& model,
                                     const Vocabulary& vocabulary, std::string_view text,
                                     const std::vector<std::string>& answers, int top_k,
                                     const std::vector<HeadId>& knock_out = {},
                                     const PackedEncoder* packed = nullptr,
                                     GuessAmong among = GuessAmong::words,
                                     std::optional<int> depth = std::nullopt);

}  // namespace attention

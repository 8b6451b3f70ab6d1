// Corpus lines as training sequences: every line tokenized by the learned
// vocabulary and closed by [SEP], the lines run together into one stream, and
// windows cut from it, each wrapped in [CLS] … [SEP]: at fixed places for the
// held-out evaluation, at random places and of several lengths for training,
// so the model meets short sentences and [SEP] anywhere.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "attention/vocabulary.hpp"
#include "mlm.hpp"

namespace attention::train {

struct TokenStream {
    std::vector<std::int32_t> ids;  // every line's ids, each line followed by [SEP]
    std::size_t unknown = 0;        // [UNK] ids among them
};

// Lines that do not tokenize (invalid UTF-8, nothing in them) are skipped.
TokenStream make_stream(const std::vector<std::string>& lines, const Vocabulary& vocabulary);

struct Sequences {
    int length = 0;                 // n ids a sequence, [CLS] and [SEP] included
    std::vector<std::int32_t> ids;  // count() · length, row-major
    std::size_t count() const {
        return length > 0 ? ids.size() / static_cast<std::size_t>(length) : 0;
    }
};

// The stream cut into consecutive windows of length − 2 ids, each in [CLS] … [SEP].
Sequences make_sequences(const TokenStream& stream, int length);

// `count` windows of `length` at random places of the stream, masked.
MlmBatch draw_batch(const TokenStream& stream, int count, int length, int vocab,
                    const SpecialIds& special, Rng& rng);

// Sentences as a learner types them, for batches without padding: every
// sentence of the lines (one a line; an empty line ends a paragraph) and every
// two consecutive sentences of a paragraph, each also without its trailing
// punctuation, as ids without [CLS] and [SEP]; a unit is at most max_length
// ids, and units are grouped by length so one batch holds units of one length.
struct SentenceUnits {
    std::vector<std::int32_t> ids;  // every unit's ids back to back
    std::vector<std::vector<std::uint32_t>>
        by_length;                      // by_length[L]: where each unit of L ids starts in ids
    std::vector<std::uint8_t> lengths;  // every unit's length, in the order added
    std::size_t count() const { return lengths.size(); }
};

SentenceUnits make_units(const std::vector<std::string>& lines, const Vocabulary& vocabulary,
                         int max_length);

// About `tokens` ids of units of one length (a unit drawn at random decides
// the length; the others are drawn among units of that length), each in
// [CLS] … [SEP], masked.
MlmBatch draw_sentence_batch(const SentenceUnits& units, int tokens, int vocab,
                             const SpecialIds& special, Rng& rng);

// The one mix of every training run's batches: with probability `sentences` a
// batch of sentence units (from the first pool with probability first_share, else
// the second; no pool, or only empty ones: never), otherwise `count` windows of
// `length` of the running text, or with shrink_windows of length / 1, 2 or 4
// (count · 1, 2 or 4 of them: as many tokens a batch).
struct BatchMix {
    double sentences = 0.7;
    double first_share = 1.0;
    bool shrink_windows = false;
};
MlmBatch draw_mixed_batch(const std::vector<const SentenceUnits*>& pools, const TokenStream& stream,
                          int count, int length, int vocab, const SpecialIds& special, Rng& rng,
                          const BatchMix& mix);

// Whether a token is trailing punctuation to drop: one ASCII punctuation
// mark, or one symbol from U+2000 up that is not a CJK character (general
// punctuation, CJK symbols, full-width forms: 。 ， ” … ！). The corpus holds
// no other script from U+2000 up; a change here changes the units, and so
// the shipped model (docs/model.md).
bool is_punctuation(const std::string& token);

// Reads a text file's lines.
std::vector<std::string> read_lines(const std::string& path);

}  // namespace attention::train

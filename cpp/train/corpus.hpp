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
    std::vector<std::int32_t> ids;   // every line's ids, each line followed by [SEP]
    std::size_t unknown = 0;         // [UNK] ids among them
};

// Lines that do not tokenize (invalid UTF-8, nothing in them) are skipped.
TokenStream make_stream(const std::vector<std::string>& lines, const Vocabulary& vocabulary);

struct Sequences {
    int length = 0;                  // n ids a sequence, [CLS] and [SEP] included
    std::vector<std::int32_t> ids;   // count() · length, row-major
    std::size_t count() const { return length > 0 ? ids.size() / static_cast<std::size_t>(length) : 0; }
};

// The stream cut into consecutive windows of length − 2 ids, each in [CLS] … [SEP].
Sequences make_sequences(const TokenStream& stream, int length);

// `count` windows of `length` at random places of the stream, masked.
MlmBatch draw_batch(const TokenStream& stream, int count, int length, int vocab, const SpecialIds& special, Rng& rng);

// Reads a text file's lines.
std::vector<std::string> read_lines(const std::string& path);

}  // namespace attention::train

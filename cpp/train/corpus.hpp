// Corpus lines as training sequences: every line tokenized by the learned
// vocabulary, the lines' tokens run together and cut into windows of
// length − 2 ids, each window wrapped in [CLS] … [SEP].
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "attention/vocabulary.hpp"
#include "mlm.hpp"

namespace attention::train {

struct Sequences {
    int length = 0;                  // n ids a sequence, [CLS] and [SEP] included
    std::vector<std::int32_t> ids;   // count() · length, row-major
    std::size_t count() const { return length > 0 ? ids.size() / static_cast<std::size_t>(length) : 0; }
    std::size_t unknown = 0;         // [UNK] ids among them
};

// Lines that do not tokenize (invalid UTF-8, nothing in them) are skipped.
Sequences make_sequences(const std::vector<std::string>& lines, const Vocabulary& vocabulary, int length);

// One batch of `count` sequences drawn at random (with the generator's help), masked.
MlmBatch draw_batch(const Sequences& sequences, int count, int vocab, const SpecialIds& special, Rng& rng);

// Reads a text file's lines.
std::vector<std::string> read_lines(const std::string& path);

}  // namespace attention::train

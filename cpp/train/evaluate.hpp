// What a trained encoder has learned: masked-token accuracy on held-out
// sequences, and each head's attention on a sentence of one's choosing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "attention/vocabulary.hpp"
#include "corpus.hpp"
#include "encoder.hpp"

namespace attention::train {

struct Evaluation {
    double loss = 0;           // mean cross-entropy over the masked tokens
    double top1 = 0, top5 = 0; // the share whose target is the best guess, among the best five
    std::size_t masked = 0;
};

// Every held-out sequence once (in batches), masked the same way for a seed.
Evaluation evaluate(const EncoderParams<float>& params, const Sequences& heldout, int batch, std::uint64_t seed);

// The sentence's tokens and, per layer and head, its attention weights (n × n).
struct SentenceAttention {
    std::vector<Token> tokens;
    std::vector<std::vector<Mat<float>>> weights;  // [layer][head]
};
SentenceAttention attention_of(const EncoderParams<float>& params, const Vocabulary& vocabulary, const std::string& sentence);

}  // namespace attention::train

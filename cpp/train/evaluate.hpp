// What a trained encoder has learned: masked-token accuracy on held-out
// sequences, and each head's attention on a sentence of one's choosing.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "attention/vocabulary.hpp"
#include "corpus.hpp"
#include "encoder.hpp"

namespace attention::train {

struct Evaluation {
    double loss = 0;            // mean cross-entropy over the masked tokens
    double top1 = 0, top5 = 0;  // the share whose target is the best guess, among the best five
    std::size_t masked = 0;
};

// Every held-out sequence once (in batches), masked the same way for a seed.
Evaluation evaluate(const EncoderParams<float>& params, const Sequences& heldout, int batch,
                    std::uint64_t seed);

// The share of masked tokens (masked as evaluate() does) where two models'
// best guesses agree: a file's int8 params against the float ones they came from.
double top1_agreement(const EncoderParams<float>& a, const EncoderParams<float>& b,
                      const Sequences& heldout, int batch, std::uint64_t seed);

// The sentence's tokens and, per layer and head, its attention weights (n × n).
struct SentenceAttention {
    std::vector<Token> tokens;
    std::vector<std::vector<Mat<float>>> weights;  // [layer][head]
};
SentenceAttention attention_of(const EncoderParams<float>& params, const Vocabulary& vocabulary,
                               const std::string& sentence);

// An evaluation set (tests/data/everyday/*.tsv, scripts/eval-sets.mjs): each
// line a text with one [MASK], a tab, and the hidden word.
struct MaskedItem {
    std::string text, answer;
};
std::vector<MaskedItem> read_masked_set(const std::string& path);

// How many items have their answer as the first guess, among the first five.
struct SetScore {
    std::size_t items = 0, top1 = 0, top5 = 0;
    double top1_share() const {
        return items ? static_cast<double>(top1) / static_cast<double>(items) : 0;
    }
    double top5_share() const {
        return items ? static_cast<double>(top5) / static_cast<double>(items) : 0;
    }
};

// The model's guesses (predict_masked(), as the page and the API show them).
// An answer the vocabulary holds only as several pieces can never be guessed
// by one [MASK]: it counts as a miss.
SetScore score_model(const EncoderParams<float>& params, const Vocabulary& vocabulary,
                     const std::vector<MaskedItem>& items, const PackedEncoder* packed = nullptr);

// The neighbour-count baseline: how often each token and each pair of
// adjacent tokens occur in training lines (each line in [CLS] … [SEP]). A
// [MASK] between tokens a and b is guessed as the characters and words c
// (what the model guesses among) with the largest P(c | a) · P(b | c), each estimated from the
// counts with one pseudo-count spread by the tokens' own frequencies.
class NeighbourCounts {
public:
    NeighbourCounts(const std::vector<std::string>& lines, const Vocabulary& vocabulary);
    std::vector<std::int32_t> guess(std::int32_t before, std::int32_t after, std::size_t k) const;

private:
    double unigram(std::int32_t id) const;
    double pair(std::int32_t a, std::int32_t b) const;
    const Vocabulary& vocabulary_;
    std::vector<double> counts_;
    std::unordered_map<std::uint64_t, std::uint32_t> pairs_;
    double total_ = 0;
};

SetScore score_baseline(const NeighbourCounts& counts, const Vocabulary& vocabulary,
                        const std::vector<MaskedItem>& items);

// The lexicon baseline: complete the hidden character or word from a word
// list with counts and the text around the [MASK], no model. A text is units
// (Chinese: its characters; English: its words, lower case, commas dropped);
// an entry of the list is units too (a Chinese word's characters, an English
// lemma's words: "cup of tea") with a count. Each entry of two or more units
// that, laid over the text with one of its units on the [MASK], matches every
// other unit it covers adds its count to that unit; the units with the largest
// sums are the guesses, then (to fill five) the one-unit entries by count.
// Only units the vocabulary holds as one token are guessed, as for the model.
class LexiconBaseline {
public:
    // A "word<TAB>count" file (corpus.mjs writes zh.words.tsv from jieba's
    // dictionary, en.words.tsv from WordNet's lemmas).
    LexiconBaseline(const std::string& path, const Vocabulary& vocabulary);
    std::vector<std::string> guess(const std::vector<std::string>& units, std::size_t mask,
                                   std::size_t k) const;
    // A text's units; the [MASK]'s place is where "[MASK]" stands.
    static std::vector<std::string> units(const std::string& text);

private:
    std::vector<std::vector<std::string>> entries_;
    std::vector<double> counts_;
    std::unordered_map<std::string, std::vector<std::pair<std::uint32_t, std::uint32_t>>>
        places_;                      // unit → (entry, place)
    std::vector<std::string> prior_;  // one-unit entries the vocabulary holds, most counted first
};

SetScore score_lexicon(const LexiconBaseline& lexicon, const Vocabulary& vocabulary,
                       const std::vector<MaskedItem>& items);

}  // namespace attention::train

// train_encoder's command line: its options with their defaults, and their
// parser (docs/model.md lists what each does).
#pragma once

#include <cstdint>
#include <string>

namespace attention::train {

struct Options {
    std::string corpus = "build/corpus", out = "build/model",
                model_file = "web/models/trained.almodel";
    std::string eval_sets = "tests/data/everyday";  // {zh,en}.tsv: the everyday evaluation sets
    // Four heads of d_k 32 (two of 64 trained as well but named no head: docs/model.md); 3200 CJK
    // characters and the 6000 most frequent words whole, in token rows of 96 numbers (a
    // factorised embedding: 12 500 × 96 is the size 9500 × 128 was).
    int vocab = 12500, cjk = 3200, whole_words = 6000, d_model = 128, heads = 4, d_ff = 512,
        layers = 2, length = 64, batch = 32, embedding = 96;
    int steps = 78000,
        eval_every = 13000;  // 78 000 steps: npm run train within 90 min on two cores
                             // (docs/model.md's table says what the steps after 52 000 buy)
    int levels = 31;         // the model file's int8 levels (model_file.hpp): 6 bits, gzips to 80 %
    int embedding_levels = 15;  // the token embeddings' (0: levels): the largest block, ±15 keeps
                                // the offline file under 2 MB
    int threads = 2;            // the batch split over this many threads (data parallel)
    int vocab_weight = 5;     // everyday lines count this many times when the vocabulary is learned
    int learner_weight = 10;  // the learner-register sources' English sentences are this many times
                              // among the English units
    int zh_learner_weight = 6;  // and their Chinese ones among the Chinese units
    int lexicon_weight = 1;  // the lexicon's words (zh.lexicon.train.txt) are this many times among
                             // the Chinese units (0: none)
    double sentences = 0.7;  // the share of steps on everyday sentence units (the rest: windows of
                             // the whole stream)
    double zh_share = 0.65;  // of those, the share on Chinese units (the rest: English)
    double lr = 1e-3, warmup = 0.05;
    double token_sd =
        0.1;  // the token embeddings' initial standard deviation (BERT's 0.02 leaves them
              // under the positions' sinusoids: training sat at the unigram plateau)
    int mask_final_punctuation =
        0;  // 1: trailing punctuation (before [SEP]) may be masked, as before; 0: never
    // A model file to go on from (its vocabulary and weights) instead of a new one.
    std::string init;
    std::string only;  // "baseline": the vocabulary and the neighbour-count baseline, no training
    std::uint64_t seed = 1;
};

// "--name value" pairs into Options. An unknown name, a name without a value,
// or a value that is not a number (an integer where the option counts) stops
// the program with a message and exit status 2.
Options parse_options(int argc, char** argv);

}  // namespace attention::train

// What train_encoder prints: the evaluation sets' figures beside the
// baselines', final-[MASK] punctuation, tokens per English word, and what each
// head does on the article's sentence (docs/model.md reports them).
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "attention/encoder.hpp"
#include "attention/vocabulary.hpp"
#include "evaluate.hpp"
#include "train_options.hpp"

namespace attention::train {

// The sets docs/model.md reports, beside the baselines: the everyday sets, the
// learner-register English set, and the word-level sets (a character inside a
// Chinese word, an English content word).
struct EverydaySets {
    std::vector<MaskedItem> zh, en, learner, words, content;
    explicit EverydaySets(const std::string& dir)
        : zh(read_masked_set(dir + "/zh.tsv")),
          en(read_masked_set(dir + "/en.tsv")),
          learner(read_masked_set(dir + "/en-learner.tsv")),
          words(read_masked_set(dir + "/zh-words.tsv")),
          content(read_masked_set(dir + "/en-content.tsv")) {}
};

template <class Score>
void print_scores(const char* who, const EverydaySets& sets, Score score) {
    const SetScore zh = score(sets.zh), en = score(sets.en), learner = score(sets.learner),
                   words = score(sets.words), content = score(sets.content);
    std::printf(
        "%s: everyday zh top-1 %.1f %%, top-5 %.1f %% (%zu); en top-1 %.1f %%, top-5 %.1f %% "
        "(%zu); "
        "learner en top-1 %.1f %%, top-5 %.1f %% (%zu); zh inside a word top-1 %.1f %%, top-5 %.1f "
        "%% (%zu); "
        "en content word top-1 %.1f %%, top-5 %.1f %% (%zu)\n",
        who, 100 * zh.top1_share(), 100 * zh.top5_share(), zh.items, 100 * en.top1_share(),
        100 * en.top5_share(), en.items, 100 * learner.top1_share(), 100 * learner.top5_share(),
        learner.items, 100 * words.top1_share(), 100 * words.top5_share(), words.items,
        100 * content.top1_share(), 100 * content.top5_share(), content.items);
}

// The lexicon baseline (jieba's words for the Chinese sets, WordNet's lemmas for the English ones).
void print_lexicon_baseline(const Options& o, const Vocabulary& vocabulary,
                            const EverydaySets& sets);

// Of the items whose [MASK] ends the text (no final punctuation after it, as
// learners type), how often the model's guesses among every word start put
// punctuation first, and among the first five; and the answer's top-1 among
// characters and words (what the page shows).
void print_final_masks(const EncoderParams<float>& params, const Vocabulary& vocabulary,
                       const std::vector<MaskedItem>& items, const char* name,
                       const PackedEncoder* packed = nullptr);

// Tokens per English word (letters only) over the English set's sentences.
double tokens_per_word(const Vocabulary& vocabulary, const std::vector<MaskedItem>& items);

// What each head does on the article's sentence, and a few guesses for hidden tokens.
void inspect(const EncoderParams<float>& params, const Vocabulary& vocabulary,
             std::vector<std::string> texts = {});

}  // namespace attention::train

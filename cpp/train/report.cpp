#include "report.hpp"

#include <algorithm>
#include <cctype>

#include "attention/heads.hpp"
#include "corpus.hpp"
#include "wordpiece.hpp"

namespace attention::train {

// The lexicon baseline (jieba's words for the Chinese sets, WordNet's lemmas for the English ones).
void print_lexicon_baseline(const Options& o, const Vocabulary& vocabulary,
                            const EverydaySets& sets) {
    const LexiconBaseline zh(o.corpus + "/zh.words.tsv", vocabulary),
        en(o.corpus + "/en.words.tsv", vocabulary);
    print_scores("lexicon (baseline)", sets, [&](const std::vector<MaskedItem>& items) {
        const bool chinese = &items == &sets.zh || &items == &sets.words;
        return score_lexicon(chinese ? zh : en, vocabulary, items);
    });
}

// Of the items whose [MASK] ends the text (no final punctuation after it, as
// learners type), how often the model's guesses among every word start put
// punctuation first, and among the first five; and the answer's top-1 among
// characters and words (what the page shows).
void print_final_masks(const EncoderParams<float>& params, const Vocabulary& vocabulary,
                       const std::vector<MaskedItem>& items, const char* name,
                       const PackedEncoder* packed) {
    std::size_t n = 0, first = 0, five = 0;
    std::vector<MaskedItem> final_items;
    for (const MaskedItem& item : items) {
        const std::vector<Token> tokens = vocabulary.tokenize(item.text);
        if (tokens.size() < 3 || tokens[tokens.size() - 2].id != Vocabulary::kMask) continue;
        final_items.push_back(item);
        n += 1;
        const auto guesses =
            predict_masked(params, vocabulary, item.text, 5, {}, packed, GuessAmong::word_starts)
                .at(0);
        first += is_punctuation(guesses.at(0).token);
        five += std::any_of(guesses.begin(), guesses.end(),
                            [](const Guess& g) { return is_punctuation(g.token); });
    }
    const SetScore s = score_model(params, vocabulary, final_items, packed);
    const auto share = [n](std::size_t k) {
        return n ? 100.0 * static_cast<double>(k) / static_cast<double>(n) : 0.0;
    };
    std::printf(
        "  %s, [MASK] at the end (%zu items): punctuation first %.1f %%, among the five %.1f %% "
        "(before the words-only "
        "filter); top-1 %.1f %%, top-5 %.1f %%\n",
        name, n, share(first), share(five), 100 * s.top1_share(), 100 * s.top5_share());
}

// Tokens per English word (letters only) over the English set's sentences.
double tokens_per_word(const Vocabulary& vocabulary, const std::vector<MaskedItem>& items) {
    std::size_t words = 0, tokens = 0;
    for (const MaskedItem& item : items) {
        std::string sentence = item.text;
        sentence.replace(sentence.find("[MASK]"), 6, item.answer);
        for (const std::string& w : pre_tokenize(sentence)) {
            if (!std::isalpha(static_cast<unsigned char>(w[0]))) continue;
            words += 1;
            tokens += vocabulary.wordpiece(w).size();
        }
    }
    return words ? static_cast<double>(tokens) / static_cast<double>(words) : 0;
}

// What each head does on the article's sentence, and a few guesses for hidden tokens.
void inspect(const EncoderParams<float>& params, const Vocabulary& vocabulary,
             std::vector<std::string> texts) {
    // Each head's report card, and the row of one token: 喜 in the article's
    // sentence, "it" in the sentence English courses use.
    for (const auto& [sentence, word] :
         {std::pair<const char*, const char*>{"我喜欢人工智能", "喜"},
          {"The animal didn't cross the street because it was too tired", "it"}}) {
        const SentenceAttention a = attention_of(params, vocabulary, sentence);
        std::size_t row = 0;
        while (row + 1 < a.tokens.size() && a.tokens[row].text != word) ++row;
        std::vector<std::int32_t> ids;
        for (const Token& t : a.tokens) ids.push_back(t.id);
        std::printf("%s\n", sentence);
        for (std::size_t l = 0; l < a.weights.size(); ++l) {
            for (std::size_t h = 0; h < a.weights[l].size(); ++h) {
                const HeadReport r = head_report(a.weights[l][h], ids);
                std::printf(
                    "layer %zu head %zu: self %.2f previous %.2f next %.2f [CLS]/[SEP] %.2f same "
                    "%.2f  %s\n  row %s:",
                    l, h, r.shares.self, r.shares.previous, r.shares.next, r.shares.special,
                    r.shares.same, r.label.empty() ? "(mixed)" : r.label.c_str(),
                    a.tokens.at(row).text.c_str());
                for (std::size_t j = 0; j < a.tokens.size(); ++j) {
                    std::printf(" %s %.2f", a.tokens[j].text.c_str(),
                                a.weights[l][h](static_cast<Eigen::Index>(row),
                                                static_cast<Eigen::Index>(j)));
                }
                std::printf("\n");
            }
        }
    }
    if (texts.empty()) {
        texts = {"我[MASK]欢人工智能",
                 "我喜[MASK]人工智能",
                 "我喜欢人工[MASK]能",
                 "今天天[MASK]很好",
                 "我们一起去吃[MASK]吧",
                 "attention is all you [MASK]",
                 "the animal did not cross the [MASK] because it was too tired",
                 "i like to [MASK] books"};
    }
    for (const std::string& text : texts) {
        std::printf("%s →", text.c_str());
        const auto guesses = predict_masked(params, vocabulary, text, 5);
        for (const auto& g : guesses[0]) std::printf(" %s %.2f", g.token.c_str(), g.probability);
        std::printf("\n");
    }
}

}  // namespace attention::train

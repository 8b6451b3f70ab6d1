// Learning a vocabulary: CJK characters by frequency, the most frequent words
// whole, merges by frequency (BPE's rule, the default) or by WordPiece's score,
// and the core's Vocabulary splitting each word as the learner did.
#include <doctest.h>

#include <algorithm>
#include <map>

#include "attention/tokenizer.hpp"
#include "attention/vocabulary.hpp"
#include "train/wordpiece.hpp"

using namespace attention;
using namespace attention::train;

namespace {

std::vector<std::string> fixture() {
    std::vector<std::string> lines;
    for (int k = 0; k < 20; ++k) {
        lines.push_back("我喜欢人工智能，也喜欢注意力。");
        lines.push_back("Attention is all you need: attending, attended, attends.");
        lines.push_back("The learner learns; learning is what learners do.");
    }
    lines.push_back("罕见的字只出现一次");  // 罕, 见, 的, 字 … once each: below the CJK threshold
    lines.push_back("\xff not UTF-8");      // skipped, not fatal
    return lines;
}

}  // namespace

TEST_CASE(
    "learn_wordpiece: specials, frequent CJK characters, the alphabet, then merges by WordPiece's "
    "score") {
    WordPieceOptions options;
    options.vocab_size = 90;
    options.min_cjk_count = 3;
    options.by_frequency = false;
    const LearnedVocabulary learned = learn_wordpiece(fixture(), options);
    CHECK(learned.tokens.size() == 90);
    CHECK(std::vector<std::string>(learned.tokens.begin(), learned.tokens.begin() + 5) ==
          std::vector<std::string>{"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"});
    const auto has = [&](const std::string& t) {
        return std::find(learned.tokens.begin(), learned.tokens.end(), t) != learned.tokens.end();
    };
    CHECK(learned.tokens[5] == "喜");  // the most frequent CJK character (40 times) comes first
    CHECK(has("注"));
    CHECK_FALSE(has("罕"));    // seen once
    CHECK(learned.cjk == 11);  // 我 喜 欢 人 工 智 能 也 注 意 力
    CHECK(has("a"));
    CHECK(has("##n"));
    CHECK(learned.merges > 0);
    CHECK(has("learner"));          // whole frequent words become pieces of their own…
    CHECK(has("##ending"));         // …and so do parts they share (attend-ing, attend-ed)
    CHECK_FALSE(has("attention"));  // not every word: the vocabulary is full
}

TEST_CASE(
    "learn_wordpiece: merges by frequency take the most frequent pair first, and stop when every "
    "word is whole") {
    // The pairs of adjacent characters in the fixture's words, by count.
    std::map<std::string, std::size_t> pairs;
    for (const std::string& line : fixture()) {
        std::vector<std::string> words;
        try {
            words = pre_tokenize(line);
        } catch (const std::exception&) {
            continue;
        }
        for (const std::string& w : words) {
            if (is_cjk_character(w) || w.size() < 2) continue;
            // ASCII words: a byte a character; a pair inside a word merges into a "##" piece.
            for (std::size_t k = 0; k + 1 < w.size(); ++k)
                pairs[(k == 0 ? "" : "##") + w.substr(k, 2)] += 1;
        }
    }
    const auto best =
        std::max_element(pairs.begin(), pairs.end(),
                         [](const auto& a, const auto& b) { return a.second < b.second; });
    WordPieceOptions options;
    options.vocab_size = 2000;  // more than the fixture can fill
    const LearnedVocabulary learned = learn_wordpiece(fixture(), options);
    const std::size_t first_merge = learned.tokens.size() - learned.merges;
    CHECK(learned.tokens[first_merge] ==
          best->first);  // ties: the smaller text, as the map orders them
    CHECK(learned.tokens.size() < options.vocab_size);
    for (const auto& word : learned.words)
        CHECK(word.pieces.size() == 1);  // nothing left to merge: every word whole
}

TEST_CASE("learn_wordpiece: the most frequent words whole, before any merge") {
    WordPieceOptions options;
    options.vocab_size = 60;
    options.whole_words = 3;
    const LearnedVocabulary learned = learn_wordpiece(fixture(), options);
    CHECK(learned.whole_words == 3);
    const std::size_t first_whole = learned.tokens.size() - learned.merges - 3;
    // "is" comes 40 times; "all", "attended", "attending", … 20 times each, ties in alphabetical
    // order.
    CHECK(std::vector<std::string>(
              learned.tokens.begin() + static_cast<std::ptrdiff_t>(first_whole),
              learned.tokens.begin() + static_cast<std::ptrdiff_t>(first_whole + 3)) ==
          std::vector<std::string>{"is", "all", "attended"});
    CHECK(learned.tokens.size() == 60);
}

TEST_CASE("learn_wordpiece: the core's Vocabulary splits every learned word as the learner did") {
    WordPieceOptions options;
    options.vocab_size = 90;
    options.by_frequency = false;
    const LearnedVocabulary learned = learn_wordpiece(fixture(), options);
    const Vocabulary vocabulary(learned.tokens);
    std::size_t same = 0;
    for (const auto& word : learned.words) {
        std::vector<std::string> pieces;
        for (const std::int32_t id : vocabulary.wordpiece(word.text))
            pieces.push_back(vocabulary.token(id));
        CAPTURE(word.text);
        CHECK(pieces == word.pieces);
        same += pieces == word.pieces;
    }
    CHECK(same == learned.words.size());
    // Deterministic: the same lines give the same vocabulary.
    CHECK(learn_wordpiece(fixture(), options).tokens == learned.tokens);
}

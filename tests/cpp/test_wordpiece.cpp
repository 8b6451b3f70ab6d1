// Learning a vocabulary: CJK characters by frequency, WordPiece merges by
// score, and the core's Vocabulary splitting each word as the learner did.
#include <doctest.h>

#include <algorithm>

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

TEST_CASE("learn_wordpiece: specials, frequent CJK characters, the alphabet, then merges up to the size") {
    WordPieceOptions options;
    options.vocab_size = 90;
    options.min_cjk_count = 3;
    const LearnedVocabulary learned = learn_wordpiece(fixture(), options);
    CHECK(learned.tokens.size() == 90);
    CHECK(std::vector<std::string>(learned.tokens.begin(), learned.tokens.begin() + 5) ==
          std::vector<std::string>{"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"});
    const auto has = [&](const std::string& t) { return std::find(learned.tokens.begin(), learned.tokens.end(), t) != learned.tokens.end(); };
    CHECK(learned.tokens[5] == "喜");  // the most frequent CJK character (40 times) comes first
    CHECK(has("注"));
    CHECK_FALSE(has("罕"));            // seen once
    CHECK(learned.cjk == 11);          // 我 喜 欢 人 工 智 能 也 注 意 力
    CHECK(has("a"));
    CHECK(has("##n"));
    CHECK(learned.merges > 0);
    CHECK(has("learner"));             // whole frequent words become pieces of their own…
    CHECK(has("##ending"));            // …and so do parts they share (attend-ing, attend-ed)
    CHECK_FALSE(has("attention"));     // not every word: the vocabulary is full
}

TEST_CASE("learn_wordpiece: the core's Vocabulary splits every learned word as the learner did") {
    WordPieceOptions options;
    options.vocab_size = 90;
    const LearnedVocabulary learned = learn_wordpiece(fixture(), options);
    const Vocabulary vocabulary(learned.tokens);
    std::size_t same = 0;
    for (const auto& word : learned.words) {
        std::vector<std::string> pieces;
        for (const std::int32_t id : vocabulary.wordpiece(word.text)) pieces.push_back(vocabulary.token(id));
        CAPTURE(word.text);
        CHECK(pieces == word.pieces);
        same += pieces == word.pieces;
    }
    CHECK(same == learned.words.size());
    // Deterministic: the same lines give the same vocabulary.
    CHECK(learn_wordpiece(fixture(), options).tokens == learned.tokens);
}

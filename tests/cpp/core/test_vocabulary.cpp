// A learned vocabulary's tokenizer: CJK characters one each, other words as
// WordPiece pieces (greedy longest match first), [UNK], [MASK].
#include <doctest.h>

#include "attention/vocabulary.hpp"
#include "helpers.hpp"

using namespace attention;
using test_support::contains;
using test_support::error_from;

namespace {

const Vocabulary& small() {
    static const Vocabulary v({"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "我", "喜", "欢", "un",
                               "##aff", "##able", "a", "##b", "##le", "able", "，", "!"});
    return v;
}

std::vector<std::string> texts(const std::vector<Token>& tokens) {
    std::vector<std::string> out;
    for (const Token& t : tokens) out.push_back(t.text);
    return out;
}

}  // namespace

TEST_CASE("Vocabulary: WordPiece, greedy longest match first, as BERT splits \"unaffable\"") {
    const Vocabulary& v = small();
    CHECK(v.wordpiece("unaffable") == std::vector<std::int32_t>{8, 9, 10});  // un ##aff ##able
    CHECK(v.wordpiece("able") == std::vector<std::int32_t>{14});  // the whole word beats a ##b ##le
    CHECK(v.wordpiece("ab") == std::vector<std::int32_t>{11, 12});
    CHECK(v.wordpiece("abx") ==
          std::vector<std::int32_t>{Vocabulary::kUnk});  // a part no piece covers
    CHECK(v.wordpiece("喜") == std::vector<std::int32_t>{6});
    CHECK(v.wordpiece("猫") == std::vector<std::int32_t>{Vocabulary::kUnk});
    CHECK(v.id("##aff") == 9);
    CHECK(v.id("aff") == -1);
    CHECK(v.token(10) == "##able");
}

TEST_CASE(
    "Vocabulary::tokenize: the core's words, then pieces; [MASK] in any case; errors as "
    "tokenize()") {
    const Vocabulary& v = small();
    CHECK(texts(v.tokenize("我喜欢 Unaffable，猫!")) ==
          std::vector<std::string>{"[CLS]", "我", "喜", "欢", "un", "##aff", "##able", "，",
                                   "[UNK]", "!", "[SEP]"});
    const auto masked = v.tokenize("我[MASK]欢 [mask]");
    CHECK(texts(masked) ==
          std::vector<std::string>{"[CLS]", "我", "[MASK]", "欢", "[MASK]", "[SEP]"});
    CHECK(masked[2].id == Vocabulary::kMask);
    CHECK(texts(v.tokenize("[MASK] [MASK]")) ==
          std::vector<std::string>{"[CLS]", "[MASK]", "[MASK]", "[SEP]"});
    CHECK(texts(v.tokenize("[ mask ]"))[1] == "[UNK]");  // spaced out it is not the mask token
    CHECK(error_from([&] { v.tokenize("   "); }).code() == "empty_text");
    std::string many;
    for (int i = 0; i < 600; ++i) many += "我";
    CHECK(error_from([&] { v.tokenize(many); }).code() == "too_many_tokens");
    CHECK(error_from([&] { v.tokenize("\xff"); }).code() == "invalid_utf8");
}

TEST_CASE(
    "Vocabulary::tokenize: where each token's word stands, in UTF-16 units of the text as typed") {
    const Vocabulary& v = small();
    // "İ" lower-cases to two code points ("i̇"): the places are the typed text's, not the
    // lower-cased one's.
    const auto tokens = v.tokenize("İ Unaffable [Mask]，喜😀欢");
    struct Place {
        std::string text;
        std::uint32_t begin, end;
        bool hideable;
    };
    const std::vector<Place> expected{
        {"[CLS]", 0, 0, false},  {"[UNK]", 0, 1, true},    {"un", 2, 11, true},
        {"##aff", 2, 11, false}, {"##able", 2, 11, false}, {"[MASK]", 12, 18, false},
        {"，", 18, 19, false},   {"喜", 19, 20, true},     {"[UNK]", 20, 22, false},
        {"欢", 22, 23, true},    {"[SEP]", 0, 0, false}};
    REQUIRE(tokens.size() == expected.size());
    for (std::size_t k = 0; k < tokens.size(); ++k) {
        CAPTURE(k);
        CHECK(tokens[k].text == expected[k].text);
        CHECK(tokens[k].begin == expected[k].begin);
        CHECK(tokens[k].end == expected[k].end);
        CHECK(tokens[k].hideable == expected[k].hideable);
    }
}

TEST_CASE("Vocabulary: the five special tokens first, nothing empty or twice") {
    CHECK(contains(error_from([] {
                       Vocabulary({"[PAD]", "[UNK]", "[CLS]", "[SEP]"});
                   }).what(),
                   "starts with [PAD]"));
    CHECK(error_from([] {
              Vocabulary({"[UNK]", "[PAD]", "[CLS]", "[SEP]", "[MASK]"});
          }).code() == "invalid_model");
    CHECK(contains(error_from([] {
                       Vocabulary({"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "a", "a"});
                   }).what(),
                   "twice"));
    CHECK(contains(error_from([] {
                       Vocabulary({"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", ""});
                   }).what(),
                   "line 6"));
}

TEST_CASE(
    "Vocabulary::word_starts: every token a [MASK] can stand for, no special token and no "
    "##piece") {
    const Vocabulary v(
        {"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "我", "##s", "cat", "##at", "，"});
    CHECK(v.word_starts() == std::vector<std::int32_t>{5, 7, 9});
}

TEST_CASE(
    "Vocabulary: a traditional character stands for the simplified token it aliases, shown as "
    "typed") {
    const Vocabulary v({"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "我", "喜", "欢", "们", "学"},
                       {{"歡", "欢"},
                        {"們", "们"},
                        {"懽", "欢"},
                        {"學", "学"},
                        {"喜", "我"},    // typed is a token itself: dropped
                        {"貓", "猫"},    // the token is not in the vocabulary: dropped
                        {"學習", "学"},  // more than one code point: dropped
                        {"歡", "们"}});  // typed twice: the first stays
    CHECK(v.aliases() ==
          std::vector<Vocabulary::Alias>{{"歡", "欢"}, {"們", "们"}, {"懽", "欢"}, {"學", "学"}});
    CHECK(v.alias("歡") == 7);
    CHECK(v.alias("懽") == 7);
    CHECK(v.alias("欢") == -1);
    CHECK(v.typed_form(7) == "歡");  // the first alias of a token is the form shown
    CHECK(v.typed_form(5) == "我");  // a token without an alias is itself
    const std::vector<Token> tokens = v.tokenize("我們喜歡貓");
    CHECK(texts(tokens) ==
          std::vector<std::string>{"[CLS]", "我", "們", "喜", "歡", "[UNK]", "[SEP]"});
    CHECK(tokens[2].id == 8);
    CHECK(tokens[4].id == 7);
    CHECK(tokens[4].hideable);
    CHECK(tokens[4].begin == 3);
    CHECK(tokens[4].end == 4);
    // Without aliases the same text has [UNK]s.
    const Vocabulary plain(
        {"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "我", "喜", "欢", "们", "学"});
    CHECK(texts(plain.tokenize("我們喜歡")) ==
          std::vector<std::string>{"[CLS]", "我", "[UNK]", "喜", "[UNK]", "[SEP]"});
}

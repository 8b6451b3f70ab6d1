// The BERT-style tokenizer: CJK characters, Latin words, punctuation, emoji,
// invalid UTF-8, empty and over-long input, and the documented vocabulary.
#include <doctest.h>

#include "attention/config.hpp"
#include "attention/tokenizer.hpp"
#include "attention/utf8.hpp"
#include "helpers.hpp"

using namespace attention;
using test_support::contains;
using test_support::error_from;

namespace {

std::vector<std::string> texts(std::string_view sentence) {
    std::vector<std::string> out;
    for (const Token& t : tokenize(sentence)) out.push_back(t.text);
    return out;
}

using Texts = std::vector<std::string>;

}  // namespace

TEST_CASE("tokenize: the article's sentence gives its 9 tokens") {
    const auto tokens = tokenize("我喜欢人工智能");
    CHECK(texts("我喜欢人工智能") ==
          Texts{"[CLS]", "我", "喜", "欢", "人", "工", "智", "能", "[SEP]"});
    CHECK(tokens.front().id == 101);
    CHECK(tokens.back().id == 102);
}

TEST_CASE("tokenize: Latin words are lower-cased and split on spaces and punctuation") {
    CHECK(texts("Hello, World!") == Texts{"[CLS]", "hello", ",", "world", "!", "[SEP]"});
    CHECK(texts("  I love\tattention.\n") ==
          Texts{"[CLS]", "i", "love", "attention", ".", "[SEP]"});
    CHECK(texts("don't") == Texts{"[CLS]", "don", "'", "t", "[SEP]"});
    CHECK(texts("GPT-4 (2023)") == Texts{"[CLS]", "gpt", "-", "4", "(", "2023", ")", "[SEP]"});
    CHECK(texts("ÉCOLE Straße ΑΘΗΝΑ МОСКВА") ==
          Texts{"[CLS]", "école", "straße", "αθηνα", "москва", "[SEP]"});
}

TEST_CASE("tokenize: mixed Chinese and English, full-width punctuation") {
    CHECK(texts("我love AI！") == Texts{"[CLS]", "我", "love", "ai", "！", "[SEP]"});
    CHECK(texts("你好，世界。") == Texts{"[CLS]", "你", "好", "，", "世", "界", "。", "[SEP]"});
    CHECK(texts("「注意力」") == Texts{"[CLS]", "「", "注", "意", "力", "」", "[SEP]"});
    CHECK(texts("ＡＢＣ１２３") == Texts{"[CLS]", "ａｂｃ１２３", "[SEP]"});
    CHECK(texts("𠮷野家") == Texts{"[CLS]", "𠮷", "野", "家", "[SEP]"});  // outside the BMP
}

TEST_CASE("tokenize: an emoji or symbol is one token of whole code points") {
    CHECK(texts("I ❤️ NLP") == Texts{"[CLS]", "i", "❤️", "nlp", "[SEP]"});
    CHECK(texts("👩‍💻👍🏽") == Texts{"[CLS]", "👩‍💻", "👍🏽", "[SEP]"});
    CHECK(texts("🇨🇳🇫🇷") == Texts{"[CLS]", "🇨🇳", "🇫🇷", "[SEP]"});
    CHECK(texts("👨‍👩‍👧‍👦!") ==
          Texts{"[CLS]", "👨‍👩‍👧‍👦", "!", "[SEP]"});
    CHECK(texts("😀😀") == Texts{"[CLS]", "😀", "😀", "[SEP]"});
    CHECK(texts("a+b=c") == Texts{"[CLS]", "a", "+", "b", "=", "c", "[SEP]"});
    CHECK(texts("100€ → ∑") == Texts{"[CLS]", "100", "€", "→", "∑", "[SEP]"});
    // Every token is valid UTF-8 on its own.
    for (const Token& t : tokenize("🏳️‍🌈x👍🏽y🇨🇳z"))
        CHECK_NOTHROW(decode_utf8(t.text));
}

TEST_CASE("tokenize: combining marks stay with their letter; controls are dropped") {
    CHECK(texts("cafe\xCC\x81 ok") == Texts{"[CLS]", "cafe\xCC\x81", "ok", "[SEP]"});
    CHECK(texts("a\x01"
                "b\x7F"
                "c") == Texts{"[CLS]", "abc", "[SEP]"});
    CHECK(texts("zero\xE2\x80\x8Bwidth") == Texts{"[CLS]", "zerowidth", "[SEP]"});
    CHECK(texts("\xCC\x81x") == Texts{"[CLS]", "\xCC\x81", "x", "[SEP]"});  // a lone mark
}

TEST_CASE("tokenize: right-to-left text and markup are just text") {
    CHECK(texts("مرحبا بالعالم") == Texts{"[CLS]", "مرحبا", "بالعالم", "[SEP]"});
    CHECK(texts("שלום, עולם") == Texts{"[CLS]", "שלום", ",", "עולם", "[SEP]"});
    CHECK(texts("<b>hi</b>") == Texts{"[CLS]", "<", "b", ">", "hi", "<", "/", "b", ">", "[SEP]"});
    CHECK(texts("[CLS]") == Texts{"[CLS]", "[", "cls", "]", "[SEP]"});
}

TEST_CASE(
    "pre_tokenize_words and tokenize: each word's place in UTF-16 units, and whether it can be "
    "hidden") {
    const auto words = pre_tokenize_words("İ cat, 👩‍💻 猫!", 3);
    REQUIRE(words.size() == 6);
    const std::uint32_t begins[] = {3, 5, 8, 10, 16, 17}, ends[] = {4, 8, 9, 15, 17, 18};
    const bool hideable[] = {true, true, false, false, true, false};
    for (std::size_t k = 0; k < words.size(); ++k) {
        CAPTURE(k);
        CHECK(words[k].begin == begins[k]);
        CHECK(words[k].end == ends[k]);
        CHECK(words[k].hideable == hideable[k]);
    }
    CHECK(utf16_length("İ cat, 👩‍💻 猫!") == 15);
    const auto tokens =
        tokenize("a\u200bb c");  // an ignored character inside a word: the word spans it
    CHECK(tokens[1].text == "ab");
    CHECK(tokens[1].begin == 0);
    CHECK(tokens[1].end == 3);
    CHECK(tokens[2].begin == 4);
}

TEST_CASE("tokenize: invalid UTF-8 is rejected with the byte offset") {
    const std::vector<std::pair<std::string, std::string>> bad = {
        {"\xFF", "never occurs"},
        {"ok\x80", "continuation byte"},
        {"\xE4\xBD", "cut short by the end"},
        {"\xE4\x41\x41", "cut short"},
        {"\xC0\xAF", "overlong"},
        {"\xE0\x80\xAF", "overlong"},
        {"\xED\xA0\x80", "surrogate"},
        {"\xF4\x90\x80\x80", "above U+10FFFF"},
    };
    for (const auto& b : bad) {
        CAPTURE(b.second);
        const auto e = error_from([&] { tokenize(b.first); });
        CHECK(e.code() == "invalid_utf8");
        CHECK(contains(e.what(), "not valid UTF-8"));
        CHECK(contains(e.what(), b.second));
    }
    CHECK(contains(error_from([] { tokenize("ok\x80"); }).what(), "at byte 2"));
}

TEST_CASE("tokenize: empty, blank and invisible-only text is an error") {
    for (const char* text : {"", "   ", "\t\r\n", "\x01\x02", "\xE3\x80\x80", "\xE2\x80\x8B"}) {
        CAPTURE(text);
        const auto e = error_from([&] { tokenize(text); });
        CHECK(e.code() == "empty_text");
        CHECK(contains(e.what(), "empty"));
    }
}

TEST_CASE("tokenize: at most 512 tokens, [CLS] and [SEP] included") {
    std::string longest;
    for (int i = 0; i < 510; ++i) longest += "字";
    CHECK(tokenize(longest).size() == 512);
    const auto e = error_from([&] { tokenize(longest + "字"); });
    CHECK(e.code() == "too_many_tokens");
    CHECK(contains(e.what(), "513 tokens"));
    CHECK(contains(e.what(), "the most is 512"));
    CHECK(e.params() == Error::Params{{"tokens", "513"}, {"max", "512"}});
    // A very long text fails the same way, quickly and without a crash.
    const std::string huge(200000, 'a');
    CHECK(tokenize(huge).size() == 3);  // one over-long word: [UNK]
    std::string many;
    for (int i = 0; i < 50000; ++i) many += "ab ";
    CHECK(contains(error_from([&] { tokenize(many); }).what(), "50002 tokens"));
    const auto e2 = error_from([] { tokenize(std::string(kMaxTextBytes + 1, 'a')); });
    CHECK(e2.code() == "text_too_long");
    CHECK(contains(e2.what(), "1048577 bytes"));
    CHECK(tokenize(std::string(kMaxTextBytes, 'a')).size() == 3);
}

TEST_CASE("token ids: special ids, the documented hash vocabulary, [UNK] for over-long words") {
    CHECK(token_id("[CLS]") == kClsId);
    CHECK(token_id("[SEP]") == kSepId);
    CHECK(token_id("[UNK]") == kUnkId);
    // 1000 + FNV-1a-32(UTF-8) mod 29522, values pinned from the README's formula.
    CHECK(token_id("喜") == 8896);
    CHECK(token_id("我") == 9428);
    CHECK(token_id("hello") == 21267);
    CHECK(token_id("attention") == 4747);
    CHECK(token_id("👩‍💻") == 22163);
    for (const Token& t : tokenize("The quick brown fox jumps over 13 lazy dogs 😀 我喜欢")) {
        if (t.text.front() == '[') continue;
        CHECK(t.id >= kFirstHashedId);
        CHECK(t.id < kVocabSize);
        CHECK(t.id == token_id(t.text));
    }
    // Case folds before lookup: the same word gets the same id.
    const auto a = tokenize("Hello hello HELLO");
    CHECK(a[1].id == a[2].id);
    CHECK(a[2].id == a[3].id);

    const std::string word100(100, 'x');
    CHECK(tokenize(word100)[1].text == word100);
    const auto unk = tokenize(word100 + "x")[1];
    CHECK(unk.text == "[UNK]");
    CHECK(unk.id == kUnkId);
}

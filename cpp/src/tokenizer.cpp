#include "attention/tokenizer.hpp"

#include "attention/config.hpp"
#include "attention/error.hpp"
#include "attention/fnv1a.hpp"
#include "attention/utf8.hpp"
#include "unicode_classes.hpp"

namespace attention {

using unicode::Kind;

std::int32_t token_id(std::string_view token_text) {
    if (token_text == "[CLS]") return kClsId;
    if (token_text == "[SEP]") return kSepId;
    if (token_text == "[UNK]") return kUnkId;
    const std::uint32_t hash = fnv1a(token_text.data(), token_text.size());
    return kFirstHashedId + static_cast<std::int32_t>(
                                hash % static_cast<std::uint32_t>(kVocabSize - kFirstHashedId));
}

namespace {

// Collects the code points of the word being built, then emits it.
class TokenBuilder {
public:
    explicit TokenBuilder(std::vector<Word>& out) : out_(out) {}

    bool empty() const { return count_ == 0; }
    Kind kind() const { return kind_; }

    void start(Kind kind) {
        finish();
        kind_ = kind;
    }
    // cp, which stands at [at, at + its UTF-16 length) in the text.
    void add(char32_t cp, std::uint32_t at) {
        if (count_ == 0) begin_ = at;
        end_ = at + (cp >= 0x10000 ? 2 : 1);
        append_utf8(text_, unicode::to_lower(cp));
        ++count_;
    }
    void finish() {
        if (count_ == 0) return;
        const bool too_long = kind_ == Kind::Word && count_ > kMaxWordChars;
        out_.push_back({too_long ? std::string("[UNK]") : text_, begin_, end_,
                        kind_ == Kind::Word || kind_ == Kind::Cjk});
        text_.clear();
        count_ = 0;
    }

private:
    std::vector<Word>& out_;
    std::string text_;
    std::size_t count_ = 0;
    std::uint32_t begin_ = 0, end_ = 0;
    Kind kind_ = Kind::Word;
};

}  // namespace

std::uint32_t utf16_length(std::string_view text) {
    std::uint32_t units = 0;
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if ((byte & 0xC0) != 0x80) units += 1;  // a code point starts here
        if ((byte & 0xF8) == 0xF0) units += 1;  // a four-byte one: a surrogate pair
    }
    return units;
}

std::vector<std::string> pre_tokenize(std::string_view text) {
    std::vector<std::string> out;
    for (Word& w : pre_tokenize_words(text)) out.push_back(std::move(w.text));
    return out;
}

std::vector<Word> pre_tokenize_words(std::string_view text, std::uint32_t offset) {
    if (text.size() > kMaxTextBytes) {
        throw Error(
            "text_too_long",
            "the text is too long: " + std::to_string(text.size()) +
                " bytes of UTF-8, and the most is " + std::to_string(kMaxTextBytes) + " (at most " +
                std::to_string(kMaxTokens) + " tokens are used anyway)",
            {{"bytes", std::to_string(text.size())}, {"max", std::to_string(kMaxTextBytes)}});
    }
    const std::vector<char32_t> cps = decode_utf8(text);
    std::vector<Word> words;
    TokenBuilder current(words);
    // Where each code point starts, in UTF-16 units.
    std::vector<std::uint32_t> at(cps.size() + 1, offset);
    for (std::size_t i = 0; i < cps.size(); ++i) at[i + 1] = at[i] + (cps[i] >= 0x10000 ? 2 : 1);

    for (std::size_t i = 0; i < cps.size(); ++i) {
        const char32_t cp = cps[i];
        const Kind kind = unicode::classify(cp);
        switch (kind) {
            case Kind::Whitespace:
                current.finish();
                break;
            case Kind::Ignored:
                break;
            case Kind::Extender:
                // A mark, selector, modifier or tag belongs to what precedes it;
                // a zero-width joiner also pulls in the code point after it, so
                // 👩‍💻 stays one token. With nothing before it, it stands alone.
                if (current.empty()) current.start(Kind::Symbol);
                current.add(cp, at[i]);
                if (cp == 0x200D && i + 1 < cps.size()) {
                    const Kind next = unicode::classify(cps[i + 1]);
                    if (next != Kind::Whitespace && next != Kind::Ignored)
                        ++i, current.add(cps[i], at[i]);
                }
                break;
            case Kind::Word:
                if (current.empty() || current.kind() != Kind::Word) current.start(Kind::Word);
                current.add(cp, at[i]);
                break;
            case Kind::Cjk:
            case Kind::Punctuation:
            case Kind::Symbol:
                current.start(kind);
                current.add(cp, at[i]);
                // A flag is a pair of regional indicators: keep the pair whole.
                if (unicode::is_regional_indicator(cp) && i + 1 < cps.size() &&
                    unicode::is_regional_indicator(cps[i + 1])) {
                    ++i;
                    current.add(cps[i], at[i]);
                }
                break;
        }
    }
    current.finish();
    return words;
}

bool is_cjk_character(std::string_view word) {
    if (word.empty() || word.size() > 4) return false;
    const std::vector<char32_t> cps = decode_utf8(word);
    return cps.size() == 1 && unicode::classify(cps[0]) == Kind::Cjk;
}

void close_tokens(std::vector<Token>& tokens, Token sep) {
    if (tokens.size() == 1) {
        throw Error("empty_text",
                    "the text is empty: type a sentence with at least one word or character");
    }
    tokens.push_back(std::move(sep));
    if (tokens.size() > kMaxTokens) {
        throw Error(
            "too_many_tokens",
            "the text is too long: it makes " + std::to_string(tokens.size()) +
                " tokens with [CLS] and [SEP], and the most is " + std::to_string(kMaxTokens),
            {{"tokens", std::to_string(tokens.size())}, {"max", std::to_string(kMaxTokens)}});
    }
}

std::vector<Token> tokenize(std::string_view text) {
    std::vector<Token> tokens{{"[CLS]", kClsId, 0, 0, false, {}}};
    for (Word& word : pre_tokenize_words(text)) {
        const std::int32_t id = token_id(word.text);
        tokens.push_back({std::move(word.text), id, word.begin, word.end, word.hideable, {}});
    }
    close_tokens(tokens, {"[SEP]", kSepId, 0, 0, false, {}});
    return tokens;
}

}  // namespace attention

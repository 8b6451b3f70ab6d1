// BERT-style tokenizer: [CLS] … [SEP], one token per CJK character,
// lower-cased Latin words split on spaces and punctuation, one token per
// emoji or other symbol (kept whole, including ZWJ sequences and modifiers).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace attention {

struct Token {
    std::string text;  // UTF-8, e.g. "[CLS]", "喜", "attention", "👍🏽"
    std::int32_t id;   // vocabulary id, see token_id()
    // The word this token is of, where it stands in the text: [begin, end) in UTF-16
    // code units, as JavaScript counts (the original text, not lower-cased). hideable:
    // the token starts a word of letters or digits or is a CJK character, so the
    // word can be hidden behind [MASK] (not punctuation, a symbol, a special token).
    std::uint32_t begin = 0, end = 0;
    bool hideable = false;
    // The vocabulary's token when text is a form it aliases (a traditional
    // character typed for the model's simplified one: Vocabulary), else empty.
    std::string stands_for;
};

// A pre_tokenize() word with where it stands in its text (as Token's).
struct Word {
    std::string text;
    std::uint32_t begin = 0, end = 0;
    bool hideable = false;
};

// Special ids as in BERT's vocabularies.
inline constexpr std::int32_t kPadId = 0;
inline constexpr std::int32_t kUnkId = 100;
inline constexpr std::int32_t kClsId = 101;
inline constexpr std::int32_t kSepId = 102;

// The deterministic vocabulary (documented in docs/core.md, "Tokens"):
// ids 1000 … 30521 (BERT-base's vocabulary size, 30522) are given by
//   1000 + FNV-1a-32(UTF-8 bytes of the token) mod 29522.
// A word longer than kMaxWordChars code points is [UNK] (100), as in BERT.
inline constexpr std::int32_t kVocabSize = 30522;
inline constexpr std::int32_t kFirstHashedId = 1000;
inline constexpr std::size_t kMaxWordChars = 100;

std::int32_t token_id(std::string_view token_text);

// The text's words before any vocabulary: each CJK character, each lower-cased
// run of letters and digits, each punctuation mark and each symbol (with its
// extenders), in order; a word over kMaxWordChars is "[UNK]". Throws
// attention::Error for invalid UTF-8 and for more than kMaxTextBytes bytes.
std::vector<std::string> pre_tokenize(std::string_view text);
// The same words with their places; offset: where text starts in a longer text (UTF-16 units).
std::vector<Word> pre_tokenize_words(std::string_view text, std::uint32_t offset = 0);

// UTF-16 code units of valid UTF-8 text (its length as JavaScript counts it).
std::uint32_t utf16_length(std::string_view text);

// Whether a pre_tokenize() word is one CJK character.
bool is_cjk_character(std::string_view word);

// Ends a token list that starts with [CLS]: appends sep, then throws
// attention::Error ("empty_text") when nothing lies between them and
// ("too_many_tokens") past kMaxTokens.
void close_tokens(std::vector<Token>& tokens, Token sep);

// Splits text into tokens, [CLS] first and [SEP] last: pre_tokenize(), each
// word's id by token_id().
// Throws attention::Error for invalid UTF-8 (invalid_utf8), for text with no
// token in it (empty, whitespace or control characters only: empty_text), for
// more than kMaxTokens tokens (too_many_tokens), and for more than
// kMaxTextBytes bytes (text_too_long, checked before any work).
std::vector<Token> tokenize(std::string_view text);

}  // namespace attention

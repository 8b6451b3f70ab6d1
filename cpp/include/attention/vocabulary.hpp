// A learned vocabulary and its tokenizer, BERT's way: every CJK character is a
// token of its own, every other word (pre_tokenize()) is split into WordPiece
// pieces, greedy longest match first, continuation pieces written "##…"; a
// word with a part no piece covers is [UNK]. Ids are line numbers of the
// vocabulary, whose first five lines are [PAD] [UNK] [CLS] [SEP] [MASK].
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "attention/tokenizer.hpp"

namespace attention {

class Vocabulary {
public:
    static constexpr std::int32_t kPad = 0, kUnk = 1, kCls = 2, kSep = 3, kMask = 4;

    // Throws attention::Error ("invalid_model": a vocabulary is a model's) unless the five special
    // tokens come first, in that order, and no token is empty or repeated.
    explicit Vocabulary(std::vector<std::string> tokens);

    // Characters a learner may type that the vocabulary holds in another form
    // (a traditional character and the model's simplified one: OpenCC's table,
    // written into the model file at train time). Each pair is (typed, token):
    // a pair is kept when typed is one code point the vocabulary does not hold
    // and token is a token it holds; the first pair kept for a token gives the
    // form guesses are shown in (typed_form()).
    using Alias = std::pair<std::string, std::string>;
    Vocabulary(std::vector<std::string> tokens, const std::vector<Alias>& aliases);
    // The pairs kept, in the order given.
    const std::vector<Alias>& aliases() const { return aliases_; }
    // The token id a typed character stands for (-1: none).
    std::int32_t alias(std::string_view typed) const;
    // A token as a learner who writes the aliased forms would type it: the
    // first alias kept for it, else the token itself.
    const std::string& typed_form(std::int32_t id) const;

    std::size_t size() const { return tokens_.size(); }
    const std::string& token(std::int32_t id) const {
        return tokens_.at(static_cast<std::size_t>(id));
    }
    // The id of a token, or -1 when the vocabulary does not hold it.
    std::int32_t id(std::string_view token) const;

    // The ids of the tokens that can start a word: not a special token, not a
    // ##continuation piece (what a [MASK] can stand for).
    const std::vector<std::int32_t>& word_starts() const { return word_starts_; }

    // The word starts that are a character or a word: their first code point
    // is a CJK character or part of a word (a letter or a digit, in the
    // tokenizer's classes), not punctuation or a symbol. What a [MASK] is
    // guessed among by default: "guess the hidden character or word".
    const std::vector<std::int32_t>& word_guesses() const { return word_guesses_; }

    // One word as WordPiece ids: [UNK] alone when some part has no piece.
    std::vector<std::int32_t> wordpiece(std::string_view word) const;

    // A text as tokens: [CLS], the pieces of every word, [SEP]; "[MASK]" (any
    // case) in the text is the mask token. Throws attention::Error as
    // tokenize() does (invalid UTF-8, empty text, over kMaxTokens tokens).
    std::vector<Token> tokenize(std::string_view text) const;

private:
    std::vector<std::string> tokens_;
    std::unordered_map<std::string, std::int32_t> ids_;
    std::vector<std::int32_t> word_starts_, word_guesses_;
    std::vector<Alias> aliases_;
    std::unordered_map<std::string, std::int32_t> alias_ids_;
    std::unordered_map<std::int32_t, std::string> typed_forms_;
};

}  // namespace attention

// A learned vocabulary and its tokenizer, BERT's way: every CJK character is a
// token of its own, every other word (pre_tokenize()) is split into WordPiece
// pieces, greedy longest match first, continuation pieces written "##…"; a
// word with a part no piece covers is [UNK]. Ids are line numbers of the
// vocabulary, whose first five lines are [PAD] [UNK] [CLS] [SEP] [MASK].
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "attention/tokenizer.hpp"

namespace attention {

// How an imported checkpoint's text becomes words before WordPiece (Hugging Face's BasicTokenizer,
// bert_tokenizer.hpp): a vocabulary with one splits text its way, with none pre_tokenize_words().
class WordSplitter {
public:
    virtual ~WordSplitter() = default;
    // The words of text, each with where it stands (UTF-16 units, offset added), in order.
    virtual std::vector<Word> split(std::string_view text, std::uint32_t offset) const = 0;
};

class Vocabulary {
public:
    // The built-in model's special ids (its first five lines).
    static constexpr std::int32_t kPad = 0, kUnk = 1, kCls = 2, kSep = 3, kMask = 4;

    // Throws attention::Error ("invalid_model": a vocabulary is a model's) unless the five special
    // tokens come first, in that order, and no token is empty or repeated.
    explicit Vocabulary(std::vector<std::string> tokens);

    // An imported checkpoint's vocabulary (vocab.txt's lines, as Hugging Face's load_vocab reads
    // them: a token repeated takes its last line's id) and its splitter: the five special tokens
    // may stand anywhere, and each is matched whole (as typed, case and all) in a text. Throws
    // attention::Error ("model_vocab") naming a special token it lacks.
    Vocabulary(std::vector<std::string> tokens, std::shared_ptr<const WordSplitter> splitter);

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

    std::int32_t pad() const { return pad_; }
    std::int32_t unk() const { return unk_; }
    std::int32_t cls() const { return cls_; }
    std::int32_t sep() const { return sep_; }
    std::int32_t mask() const { return mask_; }

    // The ids of the tokens that can start a word: not a special token, not a
    // ##continuation piece (what a [MASK] can stand for). An imported checkpoint's: every token
    // but the special ones and [unused…] (## pieces too: its [MASK] may hide one).
    const std::vector<std::int32_t>& word_starts() const { return word_starts_; }

    // The word starts that are a character or a word: their first code point
    // is a CJK character or part of a word (a letter or a digit, in the
    // tokenizer's classes), not punctuation or a symbol. What a [MASK] is
    // guessed among by default: "guess the hidden character or word".
    const std::vector<std::int32_t>& word_guesses() const { return word_guesses_; }

    // One word as WordPiece ids: [UNK] alone when some part has no piece, or when it is longer
    // than kMaxWordChars code points.
    std::vector<std::int32_t> wordpiece(std::string_view word) const;

    // A text as tokens: [CLS], the pieces of every word, [SEP]; "[MASK]" (any
    // case; an imported checkpoint's: each special token as written) in the text is the mask
    // token. Throws attention::Error as tokenize() does (invalid UTF-8, empty text, over
    // kMaxTokens tokens).
    std::vector<Token> tokenize(std::string_view text) const;

    // The splitter of an imported checkpoint's vocabulary, else null.
    const WordSplitter* splitter() const { return splitter_.get(); }

private:
    std::int32_t pad_ = kPad, unk_ = kUnk, cls_ = kCls, sep_ = kSep, mask_ = kMask;
    std::shared_ptr<const WordSplitter> splitter_;
    std::vector<std::string> tokens_;
    std::unordered_map<std::string, std::int32_t> ids_;
    std::vector<std::int32_t> word_starts_, word_guesses_;
    std::vector<Alias> aliases_;
    std::unordered_map<std::string, std::int32_t> alias_ids_;
    std::unordered_map<std::int32_t, std::string> typed_forms_;
};

}  // namespace attention

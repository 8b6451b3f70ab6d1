#include "attention/vocabulary.hpp"

#include <algorithm>
#include <iterator>

#include "attention/config.hpp"
#include "attention/error.hpp"
#include "attention/utf8.hpp"
#include "checkpoints.hpp"
#include "unicode_classes.hpp"

namespace attention {

namespace {

constexpr const char* kSpecials[] = {"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"};

// Whether a token starts with a CJK character or a word's code point (a
// letter, a digit), in the tokenizer's classes: a character or a word, not
// punctuation or a symbol. A token that is not valid UTF-8 is neither.
bool starts_character_or_word(std::string_view token) {
    std::vector<char32_t> first;
    try {
        first = decode_utf8(
            token.substr(0, utf8_sequence_length(static_cast<unsigned char>(token[0]))));
    } catch (const Error&) {
        return false;
    }
    const unicode::Kind kind = unicode::classify(first[0]);
    return kind == unicode::Kind::Cjk || kind == unicode::Kind::Word;
}

}  // namespace

Vocabulary::Vocabulary(std::vector<std::string> tokens) : tokens_(std::move(tokens)) {
    for (std::size_t k = 0; k < 5; ++k) {
        if (tokens_.size() <= k || tokens_[k] != kSpecials[k]) {
            throw Error("invalid_model",
                        "a vocabulary starts with [PAD] [UNK] [CLS] [SEP] [MASK], one per line");
        }
    }
    for (std::size_t k = 0; k < tokens_.size(); ++k) {
        if (tokens_[k].empty())
            throw Error("invalid_model",
                        "line " + std::to_string(k + 1) + " of the vocabulary is empty");
        if (!ids_.emplace(tokens_[k], static_cast<std::int32_t>(k)).second) {
            throw Error("invalid_model", "the vocabulary holds \"" + tokens_[k] + "\" twice");
        }
        if (k > static_cast<std::size_t>(kMask) && tokens_[k].rfind("##", 0) != 0) {
            word_starts_.push_back(static_cast<std::int32_t>(k));
            if (starts_character_or_word(tokens_[k]))
                word_guesses_.push_back(static_cast<std::int32_t>(k));
        }
    }
}

Vocabulary::Vocabulary(std::vector<std::string> tokens,
                       std::shared_ptr<const WordSplitter> splitter)
    : splitter_(std::move(splitter)), tokens_(std::move(tokens)) {
    for (std::size_t k = 0; k < tokens_.size(); ++k)
        ids_[tokens_[k]] = static_cast<std::int32_t>(k);  // a repeated token: its last line's id
    std::int32_t* specials[] = {&pad_, &unk_, &cls_, &sep_, &mask_};
    for (std::size_t k = 0; k < 5; ++k) {
        *specials[k] = id(kSpecials[k]);
        if (*specials[k] < 0) {
            throw Error("model_vocab",
                        std::string("the vocabulary has no ") + kSpecials[k] + " token",
                        {{"token", kSpecials[k]}});
        }
    }
    for (std::size_t k = 0; k < tokens_.size(); ++k) {
        const std::string& t = tokens_[k];
        const auto id = static_cast<std::int32_t>(k);
        const bool special =
            std::find(std::begin(kSpecials), std::end(kSpecials), t) != std::end(kSpecials) ||
            (t.rfind("[unused", 0) == 0 && t.back() == ']');
        if (special || t.empty() || ids_[t] != id) continue;
        word_starts_.push_back(id);
        if (t.rfind("##", 0) != 0 && starts_character_or_word(t)) word_guesses_.push_back(id);
    }
}

Vocabulary::Vocabulary(std::vector<std::string> tokens, const std::vector<Alias>& aliases)
    : Vocabulary(std::move(tokens)) {
    for (const auto& [typed, token] : aliases) {
        std::vector<char32_t> points;
        try {
            points = decode_utf8(typed);
        } catch (const Error&) {
            continue;
        }
        const std::int32_t target = id(token);
        if (points.size() != 1 || target < 0 || id(typed) >= 0 || alias_ids_.count(typed)) continue;
        alias_ids_.emplace(typed, target);
        typed_forms_.emplace(target, typed);  // the first kept for a token stays
        aliases_.emplace_back(typed, token);
    }
}

std::int32_t Vocabulary::alias(std::string_view typed) const {
    const auto it = alias_ids_.find(std::string(typed));
    return it == alias_ids_.end() ? -1 : it->second;
}

const std::string& Vocabulary::typed_form(std::int32_t id) const {
    const auto it = typed_forms_.find(id);
    return it == typed_forms_.end() ? token(id) : it->second;
}

std::int32_t Vocabulary::id(std::string_view token) const {
    const auto it = ids_.find(std::string(token));
    return it == ids_.end() ? -1 : it->second;
}

std::vector<std::int32_t> Vocabulary::wordpiece(std::string_view word) const {
    std::size_t points = 0;
    for (const char c : word) points += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    if (points > kMaxWordChars) return {unk_};
    std::vector<std::int32_t> pieces;
    std::size_t start = 0;
    std::string candidate;
    while (start < word.size()) {
        // Code point boundaries after start, longest first.
        std::vector<std::size_t> ends;
        for (std::size_t at = start; at < word.size();) {
            at += utf8_sequence_length(static_cast<unsigned char>(word[at]));
            ends.push_back(std::min(at, word.size()));
        }
        std::int32_t found = -1;
        std::size_t end = start;
        for (auto e = ends.rbegin(); e != ends.rend() && found < 0; ++e) {
            candidate.assign(start > 0 ? "##" : "");
            candidate.append(word.substr(start, *e - start));
            found = id(candidate);
            end = *e;
        }
        if (found < 0) return {unk_};
        pieces.push_back(found);
        start = end;
    }
    return pieces;
}

std::vector<Token> Vocabulary::tokenize(std::string_view text) const {
    if (text.size() > kMaxTextBytes) pre_tokenize(text);  // throws "text_too_long"
    const WordSplitter* splitter = kCheckpoints ? splitter_.get() : nullptr;
    if (splitter) decode_utf8(text);  // throws "invalid_utf8"
    std::vector<Token> tokens{{"[CLS]", cls_, 0, 0, false, {}}};
    // part starts at byte `from` of the text (for the words' places, in UTF-16 units).
    const auto add_words = [&](std::string_view part, std::size_t from) {
        const std::uint32_t offset = utf16_length(text.substr(0, from));
        for (const Word& word :
             splitter ? splitter->split(part, offset) : pre_tokenize_words(part, offset)) {
            if (const std::int32_t aliased =
                    alias_ids_.empty() || id(word.text) >= 0 ? -1 : alias(word.text);
                aliased >= 0) {
                tokens.push_back({word.text, aliased, word.begin, word.end, word.hideable,
                                  token(aliased)});  // as typed
                continue;
            }
            bool first = true;
            for (const std::int32_t id : wordpiece(word.text)) {
                tokens.push_back({tokens_[static_cast<std::size_t>(id)],
                                  id,
                                  word.begin,
                                  word.end,
                                  first && word.hideable,
                                  {}});
                first = false;
            }
        }
    };
    // "[MASK]", in any case, is the mask token; the text around it is words. An imported
    // checkpoint's vocabulary takes each of its special tokens as written (Hugging Face's).
    const auto special_at = [&](std::size_t at) -> std::int32_t {
        if constexpr (kCheckpoints) {
            if (splitter) {
                for (const char* special : kSpecials) {
                    if (text.compare(at, std::char_traits<char>::length(special), special) == 0)
                        return id(special);
                }
                return -1;
            }
        }
        if (at + 6 > text.size() || text[at] != '[' || text[at + 5] != ']') return -1;
        for (std::size_t k = 0; k < 4; ++k) {
            if ((text[at + 1 + k] | 0x20) != "mask"[k]) return -1;
        }
        return mask_;
    };
    std::size_t from = 0;
    for (std::size_t at = 0; at < text.size(); ++at) {
        const std::int32_t special = special_at(at);
        if (special < 0) continue;
        add_words(text.substr(from, at - from), from);
        const std::string& written = tokens_[static_cast<std::size_t>(special)];
        const std::uint32_t begin = utf16_length(text.substr(0, at));
        tokens.push_back({written,
                          special,
                          begin,
                          begin + static_cast<std::uint32_t>(written.size()),
                          false,
                          {}});
        from = at + written.size();
        at = from - 1;
    }
    add_words(text.substr(from), from);
    close_tokens(tokens, {"[SEP]", sep_, 0, 0, false, {}});
    return tokens;
}

}  // namespace attention

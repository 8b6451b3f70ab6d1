#include "wordpiece.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <unordered_map>

#include "attention/error.hpp"
#include "attention/tokenizer.hpp"

namespace attention::train {

namespace {

// The code points of a UTF-8 word as separate strings.
std::vector<std::string> characters(const std::string& word) {
    std::vector<std::string> out;
    for (std::size_t at = 0; at < word.size();) {
        const auto c = static_cast<unsigned char>(word[at]);
        const std::size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
        out.push_back(word.substr(at, n));
        at += n;
    }
    return out;
}

}  // namespace

LearnedVocabulary learn_wordpiece(const std::vector<std::string>& lines,
                                  const WordPieceOptions& options) {
    // Count the core's own words: CJK characters apart, every other word whole.
    std::map<std::string, std::size_t> cjk_counts, word_counts;  // ordered: deterministic
    for (const std::string& line : lines) {
        std::vector<std::string> words;
        try {
            words = pre_tokenize(line);
        } catch (const Error&) {
            continue;  // invalid UTF-8 or an over-long line: not text to learn from
        }
        for (const std::string& w : words) {
            if (w == "[UNK]") continue;
            (is_cjk_character(w) ? cjk_counts : word_counts)[w] += 1;
        }
    }

    LearnedVocabulary out;
    out.tokens = {"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"};
    std::unordered_map<std::string, bool> in_vocab;
    for (const auto& t : out.tokens) in_vocab[t] = true;
    const auto add = [&](const std::string& token) {
        if (in_vocab.emplace(token, true).second) out.tokens.push_back(token);
    };

    // The most frequent CJK characters, each seen at least min_cjk_count times.
    std::vector<std::pair<std::string, std::size_t>> cjk(cjk_counts.begin(), cjk_counts.end());
    std::stable_sort(cjk.begin(), cjk.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    for (const auto& [ch, count] : cjk) {
        if (out.cjk >= options.max_cjk || count < options.min_cjk_count) break;
        add(ch);
        out.cjk += 1;
    }

    // Every word as its characters: the first as it is, the rest as "##c".
    std::vector<std::string> symbols;
    std::unordered_map<std::string, std::int32_t> symbol_ids;
    const auto symbol = [&](const std::string& s) {
        const auto [it, fresh] = symbol_ids.emplace(s, static_cast<std::int32_t>(symbols.size()));
        if (fresh) symbols.push_back(s);
        return it->second;
    };
    struct Word {
        std::string text;
        std::size_t count;
        std::vector<std::int32_t> pieces;
    };
    std::vector<Word> words;
    std::map<std::string, std::size_t> alphabet;
    for (const auto& [text, count] : word_counts) {
        Word w{text, count, {}};
        const std::vector<std::string> chars = characters(text);
        for (std::size_t k = 0; k < chars.size(); ++k) {
            const std::string s = k == 0 ? chars[k] : "##" + chars[k];
            alphabet[s] += count;
            w.pieces.push_back(symbol(s));
        }
        words.push_back(std::move(w));
    }
    for (const auto& [s, count] : alphabet) {
        if (count >= options.min_pair_count) add(s);
    }
    if (out.tokens.size() > options.vocab_size) {
        throw Error(
            "invalid_argument",
            "the vocabulary size is too small for the special tokens, CJK characters and alphabet");
    }

    // The most frequent words whole (one token each, their pieces merged at once).
    std::vector<std::size_t> by_count(words.size());
    for (std::size_t k = 0; k < words.size(); ++k) by_count[k] = k;
    std::stable_sort(by_count.begin(), by_count.end(),
                     [&](std::size_t a, std::size_t b) { return words[a].count > words[b].count; });
    for (std::size_t k = 0, taken = 0; k < by_count.size() && taken < options.whole_words &&
                                       out.tokens.size() < options.vocab_size;
         ++k) {
        Word& w = words[by_count[k]];
        if (w.count < options.min_pair_count) break;
        if (w.pieces.size() < 2) continue;
        w.pieces = {symbol(w.text)};
        add(w.text);
        ++taken;
        out.whole_words += 1;
    }

    // Merge the best-scoring pair until the vocabulary is full.
    std::vector<std::size_t> symbol_count;
    while (out.tokens.size() < options.vocab_size) {
        symbol_count.assign(symbols.size(), 0);
        std::unordered_map<std::uint64_t, std::size_t> pair_count;
        for (const Word& w : words) {
            for (std::size_t k = 0; k < w.pieces.size(); ++k) {
                symbol_count[static_cast<std::size_t>(w.pieces[k])] += w.count;
                if (k + 1 < w.pieces.size()) {
                    pair_count[(static_cast<std::uint64_t>(w.pieces[k]) << 32) |
                               static_cast<std::uint32_t>(w.pieces[k + 1])] += w.count;
                }
            }
        }
        double best = -1;
        std::uint64_t best_pair = 0;
        std::string best_text;
        for (const auto& [pair, count] : pair_count) {
            if (count < options.min_pair_count) continue;
            const auto a = static_cast<std::size_t>(pair >> 32),
                       b = static_cast<std::size_t>(pair & 0xFFFFFFFFu);
            const double score = options.by_frequency ? static_cast<double>(count)
                                                      : static_cast<double>(count) /
                                                            (static_cast<double>(symbol_count[a]) *
                                                             static_cast<double>(symbol_count[b]));
            const std::string text = symbols[a] + symbols[b].substr(2);  // b is always a "##" piece
            if (score > best || (score == best && text < best_text))
                best = score, best_pair = pair, best_text = text;
        }
        if (best < 0) break;  // nothing left to merge
        const auto a = static_cast<std::int32_t>(best_pair >> 32),
                   b = static_cast<std::int32_t>(best_pair & 0xFFFFFFFFu);
        const std::int32_t merged = symbol(best_text);
        add(best_text);
        out.merges += 1;
        for (Word& w : words) {
            std::vector<std::int32_t> next;
            next.reserve(w.pieces.size());
            for (std::size_t k = 0; k < w.pieces.size(); ++k) {
                if (k + 1 < w.pieces.size() && w.pieces[k] == a && w.pieces[k + 1] == b) {
                    next.push_back(merged);
                    ++k;
                } else {
                    next.push_back(w.pieces[k]);
                }
            }
            w.pieces = std::move(next);
        }
    }

    for (const Word& w : words) {
        LearnedVocabulary::Word word{w.text, w.count, {}};
        for (const std::int32_t s : w.pieces)
            word.pieces.push_back(symbols[static_cast<std::size_t>(s)]);
        out.words.push_back(std::move(word));
    }
    return out;
}

}  // namespace attention::train

#include "corpus.hpp"

#include <fstream>
#include <stdexcept>

#include "attention/error.hpp"

namespace attention::train {

Sequences make_sequences(const std::vector<std::string>& lines, const Vocabulary& vocabulary, int length) {
    if (length < 3) throw std::invalid_argument("a sequence needs room for [CLS], a token and [SEP]");
    std::vector<std::int32_t> stream;
    for (const std::string& line : lines) {
        try {
            const std::vector<Token> tokens = vocabulary.tokenize(line);
            for (std::size_t k = 1; k + 1 < tokens.size(); ++k) stream.push_back(tokens[k].id);  // without [CLS] [SEP]
        } catch (const Error&) {
            continue;  // nothing to learn from (or over 512 tokens: such lines are rare and skipped)
        }
    }
    Sequences out;
    out.length = length;
    const auto inner = static_cast<std::size_t>(length - 2);
    for (std::size_t at = 0; at + inner <= stream.size(); at += inner) {
        out.ids.push_back(Vocabulary::kCls);
        for (std::size_t k = 0; k < inner; ++k) {
            out.ids.push_back(stream[at + k]);
            out.unknown += stream[at + k] == Vocabulary::kUnk;
        }
        out.ids.push_back(Vocabulary::kSep);
    }
    return out;
}

MlmBatch draw_batch(const Sequences& sequences, int count, int vocab, const SpecialIds& special, Rng& rng) {
    if (sequences.count() == 0) throw std::invalid_argument("no training sequences");
    std::vector<std::int32_t> ids;
    ids.reserve(static_cast<std::size_t>(count) * static_cast<std::size_t>(sequences.length));
    for (int s = 0; s < count; ++s) {
        const auto pick = static_cast<std::size_t>(rng.below(static_cast<std::int64_t>(sequences.count())));
        const auto first = sequences.ids.begin() + static_cast<std::ptrdiff_t>(pick * static_cast<std::size_t>(sequences.length));
        ids.insert(ids.end(), first, first + sequences.length);
    }
    return mask_batch(ids, count, sequences.length, vocab, special, rng);
}

std::vector<std::string> read_lines(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read " + path);
    std::vector<std::string> lines;
    std::string line;
    while (std::getline(in, line)) lines.push_back(line);
    return lines;
}

}  // namespace attention::train

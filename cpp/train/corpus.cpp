#include "corpus.hpp"

#include <fstream>
#include <stdexcept>

#include "attention/error.hpp"

namespace attention::train {

TokenStream make_stream(const std::vector<std::string>& lines, const Vocabulary& vocabulary) {
    TokenStream out;
    for (const std::string& line : lines) {
        std::vector<Token> tokens;
        try {
            tokens = vocabulary.tokenize(line);
        } catch (const Error&) {
            continue;  // nothing to learn from (or over 512 tokens: such lines are rare and skipped)
        }
        for (std::size_t k = 1; k < tokens.size(); ++k) {  // without [CLS], with the closing [SEP]
            out.ids.push_back(tokens[k].id);
            out.unknown += tokens[k].id == Vocabulary::kUnk;
        }
    }
    return out;
}

namespace {

void append_window(std::vector<std::int32_t>& ids, const TokenStream& stream, std::size_t at, std::size_t inner) {
    ids.push_back(Vocabulary::kCls);
    ids.insert(ids.end(), stream.ids.begin() + static_cast<std::ptrdiff_t>(at),
               stream.ids.begin() + static_cast<std::ptrdiff_t>(at + inner));
    ids.push_back(Vocabulary::kSep);
}

}  // namespace

Sequences make_sequences(const TokenStream& stream, int length) {
    if (length < 3) throw std::invalid_argument("a sequence needs room for [CLS], a token and [SEP]");
    Sequences out;
    out.length = length;
    const auto inner = static_cast<std::size_t>(length - 2);
    for (std::size_t at = 0; at + inner <= stream.ids.size(); at += inner) append_window(out.ids, stream, at, inner);
    return out;
}

MlmBatch draw_batch(const TokenStream& stream, int count, int length, int vocab, const SpecialIds& special, Rng& rng) {
    const auto inner = static_cast<std::size_t>(length - 2);
    if (length < 3 || stream.ids.size() < inner) throw std::invalid_argument("the stream is shorter than one window");
    std::vector<std::int32_t> ids;
    ids.reserve(static_cast<std::size_t>(count) * static_cast<std::size_t>(length));
    const auto places = static_cast<std::int64_t>(stream.ids.size() - inner + 1);
    for (int s = 0; s < count; ++s) append_window(ids, stream, static_cast<std::size_t>(rng.below(places)), inner);
    return mask_batch(ids, count, length, vocab, special, rng);
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

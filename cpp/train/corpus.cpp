#include "corpus.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <stdexcept>

#include "attention/error.hpp"
#include "attention/utf8.hpp"

namespace attention::train {

TokenStream make_stream(const std::vector<std::string>& lines, const Vocabulary& vocabulary) {
    TokenStream out;
    for (const std::string& line : lines) {
        std::vector<Token> tokens;
        try {
            tokens = vocabulary.tokenize(line);
        } catch (const Error&) {
            continue;  // nothing to learn from (or over 512 tokens: such lines are rare and
                       // skipped)
        }
        for (std::size_t k = 1; k < tokens.size(); ++k) {  // without [CLS], with the closing [SEP]
            out.ids.push_back(tokens[k].id);
            out.unknown += tokens[k].id == Vocabulary::kUnk;
        }
    }
    return out;
}

namespace {

void append_window(std::vector<std::int32_t>& ids, const TokenStream& stream, std::size_t at,
                   std::size_t inner) {
    ids.push_back(Vocabulary::kCls);
    ids.insert(ids.end(), stream.ids.begin() + static_cast<std::ptrdiff_t>(at),
               stream.ids.begin() + static_cast<std::ptrdiff_t>(at + inner));
    ids.push_back(Vocabulary::kSep);
}

}  // namespace

Sequences make_sequences(const TokenStream& stream, int length) {
    if (length < 3)
        throw Error("invalid_argument", "a sequence needs room for [CLS], a token and [SEP]");
    Sequences out;
    out.length = length;
    const auto inner = static_cast<std::size_t>(length - 2);
    for (std::size_t at = 0; at + inner <= stream.ids.size(); at += inner)
        append_window(out.ids, stream, at, inner);
    return out;
}

MlmBatch draw_batch(const TokenStream& stream, int count, int length, int vocab,
                    const SpecialIds& special, Rng& rng) {
    const auto inner = static_cast<std::size_t>(length - 2);
    if (length < 3 || stream.ids.size() < inner)
        throw Error("invalid_argument", "the stream is shorter than one window");
    std::vector<std::int32_t> ids;
    ids.reserve(static_cast<std::size_t>(count) * static_cast<std::size_t>(length));
    const auto places = static_cast<std::int64_t>(stream.ids.size() - inner + 1);
    for (int s = 0; s < count; ++s)
        append_window(ids, stream, static_cast<std::size_t>(rng.below(places)), inner);
    return mask_batch(ids, count, length, vocab, special, rng);
}

MlmBatch draw_mixed_batch(const std::vector<const SentenceUnits*>& pools, const TokenStream& stream,
                          int count, int length, int vocab, const SpecialIds& special, Rng& rng,
                          const BatchMix& mix) {
    const bool any = std::any_of(pools.begin(), pools.end(),
                                 [](const SentenceUnits* p) { return p->count() > 0; });
    if (any && rng.uniform() < mix.sentences) {
        const SentenceUnits* units =
            pools.size() > 1 && !(rng.uniform() < mix.first_share) ? pools[1] : pools[0];
        return draw_sentence_batch(*units, count * length, vocab, special, rng);
    }
    const int shrink = mix.shrink_windows ? 1 << rng.below(3) : 1;
    return draw_batch(stream, count * shrink, length / shrink, vocab, special, rng);
}

bool is_punctuation(const std::string& token) {
    if (token.empty() || token.rfind("##", 0) == 0 || (token[0] == '[' && token.size() > 2))
        return false;
    const auto c = static_cast<unsigned char>(token[0]);
    const std::size_t n = utf8_sequence_length(c);
    if (token.size() != n) return false;  // more than one symbol
    if (n == 1) return std::ispunct(c) != 0;
    return !is_cjk_character(token) &&
           c >= 0xE2;  // general punctuation, CJK symbols and full-width forms (not Latin letters)
}

SentenceUnits make_units(const std::vector<std::string>& lines, const Vocabulary& vocabulary,
                         int max_length) {
    SentenceUnits out;
    out.by_length.resize(static_cast<std::size_t>(max_length) + 1);
    const auto add = [&](std::vector<std::int32_t> unit) {
        for (int variant = 0; variant < 2; ++variant) {
            if (variant == 1) {  // without its trailing punctuation
                const std::size_t before = unit.size();
                while (!unit.empty() && is_punctuation(vocabulary.token(unit.back())))
                    unit.pop_back();
                if (unit.size() == before) return;
            }
            if (unit.empty() || unit.size() > static_cast<std::size_t>(max_length)) continue;
            out.by_length[unit.size()].push_back(static_cast<std::uint32_t>(out.ids.size()));
            out.lengths.push_back(static_cast<std::uint8_t>(unit.size()));
            out.ids.insert(out.ids.end(), unit.begin(), unit.end());
        }
    };
    std::vector<std::int32_t> previous;
    for (const std::string& line : lines) {
        std::vector<Token> tokens;
        try {
            tokens = line.empty() ? std::vector<Token>{} : vocabulary.tokenize(line);
        } catch (const Error&) {
            tokens.clear();
        }
        if (tokens.size() < 3) {  // a paragraph ends (or a line with nothing to learn from)
            previous.clear();
            continue;
        }
        std::vector<std::int32_t> ids;
        for (std::size_t k = 1; k + 1 < tokens.size(); ++k) ids.push_back(tokens[k].id);
        if (!previous.empty()) {
            std::vector<std::int32_t> pair = previous;
            pair.insert(pair.end(), ids.begin(), ids.end());
            add(pair);
        }
        add(ids);
        previous = std::move(ids);
    }
    if (out.count() == 0)
        throw Error("invalid_argument",
                    "no sentence units: the lines hold no sentence of at most max_length ids");
    if (out.ids.size() > 0xFFFFFFFFu) throw Error("invalid_argument", "too many sentence units");
    return out;
}

MlmBatch draw_sentence_batch(const SentenceUnits& units, int tokens, int vocab,
                             const SpecialIds& special, Rng& rng) {
    // A random unit decides the length: lengths come as often as units have them.
    std::size_t length = 0;
    {
        const auto pick =
            static_cast<std::size_t>(rng.below(static_cast<std::int64_t>(units.count())));
        length = units.lengths[pick];
    }
    const std::vector<std::uint32_t>& starts = units.by_length[length];
    const int n = static_cast<int>(length) + 2;
    const int count = std::max(1, tokens / n);
    std::vector<std::int32_t> ids;
    ids.reserve(static_cast<std::size_t>(count) * static_cast<std::size_t>(n));
    for (int s = 0; s < count; ++s) {
        const auto at = static_cast<std::ptrdiff_t>(
            starts[static_cast<std::size_t>(rng.below(static_cast<std::int64_t>(starts.size())))]);
        ids.push_back(Vocabulary::kCls);
        ids.insert(ids.end(), units.ids.begin() + at,
                   units.ids.begin() + at + static_cast<std::ptrdiff_t>(length));
        ids.push_back(Vocabulary::kSep);
    }
    return mask_batch(ids, count, n, vocab, special, rng);
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

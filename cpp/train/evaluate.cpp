#include "evaluate.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <stdexcept>

#include "attention/error.hpp"
#include "attention/heads.hpp"
#include "attention/utf8.hpp"

namespace attention::train {

Evaluation evaluate(const EncoderParams<float>& params, const Sequences& heldout, int batch,
                    std::uint64_t seed) {
    Evaluation e;
    Rng rng(seed);
    const SpecialIds special;
    const auto n = static_cast<std::size_t>(heldout.length);
    for (std::size_t first = 0; first < heldout.count(); first += static_cast<std::size_t>(batch)) {
        const std::size_t count =
            std::min(heldout.count() - first, static_cast<std::size_t>(batch));
        const std::vector<std::int32_t> ids(
            heldout.ids.begin() + static_cast<std::ptrdiff_t>(first * n),
            heldout.ids.begin() + static_cast<std::ptrdiff_t>((first + count) * n));
        const MlmBatch b = mask_batch(ids, static_cast<int>(count), heldout.length,
                                      params.shape.vocab, special, rng);
        ForwardCache<float> cache;
        forward(params, b, cache);
        for (std::size_t m = 0; m < b.targets.size(); ++m) {
            const auto row = cache.probs.row(static_cast<Eigen::Index>(m));
            const float p = row(b.targets[m]);
            e.loss -= std::log(std::max(p, 1e-30f));
            const auto better = (row.array() > p).count();  // how many guesses beat the target
            e.top1 += better == 0;
            e.top5 += better < 5;
        }
        e.masked += b.targets.size();
    }
    if (e.masked)
        e.loss /= static_cast<double>(e.masked), e.top1 /= static_cast<double>(e.masked),
            e.top5 /= static_cast<double>(e.masked);
    return e;
}

double top1_agreement(const EncoderParams<float>& a, const EncoderParams<float>& b,
                      const Sequences& heldout, int batch, std::uint64_t seed) {
    Rng rng(seed);
    const SpecialIds special;
    const auto n = static_cast<std::size_t>(heldout.length);
    std::size_t same = 0, masked = 0;
    for (std::size_t first = 0; first < heldout.count(); first += static_cast<std::size_t>(batch)) {
        const std::size_t count =
            std::min(heldout.count() - first, static_cast<std::size_t>(batch));
        const std::vector<std::int32_t> ids(
            heldout.ids.begin() + static_cast<std::ptrdiff_t>(first * n),
            heldout.ids.begin() + static_cast<std::ptrdiff_t>((first + count) * n));
        const MlmBatch masked_batch =
            mask_batch(ids, static_cast<int>(count), heldout.length, a.shape.vocab, special, rng);
        ForwardCache<float> ca, cb;
        forward(a, masked_batch, ca);
        forward(b, masked_batch, cb);
        for (Eigen::Index m = 0; m < ca.probs.rows(); ++m) {
            Eigen::Index ia = 0, ib = 0;
            ca.probs.row(m).maxCoeff(&ia);
            cb.probs.row(m).maxCoeff(&ib);
            same += ia == ib;
        }
        masked += masked_batch.targets.size();
    }
    return masked ? static_cast<double>(same) / static_cast<double>(masked) : 0;
}

SentenceAttention attention_of(const EncoderParams<float>& params, const Vocabulary& vocabulary,
                               const std::string& sentence) {
    SentenceAttention out;
    out.tokens = vocabulary.tokenize(sentence);
    MlmBatch b;
    b.sequences = 1;
    b.length = static_cast<int>(out.tokens.size());
    for (const Token& t : out.tokens) b.ids.push_back(t.id);
    b.rows = {0};  // forward needs one row to predict; the attention does not depend on it
    b.targets = {b.ids[0]};
    ForwardCache<float> cache;
    forward(params, b, cache);
    for (const auto& layer : cache.encoder.layers) out.weights.push_back(layer.weights);
    return out;
}

std::vector<MaskedItem> read_masked_set(const std::string& path) {
    std::vector<MaskedItem> out;
    for (const std::string& line : read_lines(path)) {
        if (line.empty()) continue;
        const auto tab = line.find('\t');
        if (tab == std::string::npos || line.find("[MASK]") > tab)
            throw std::runtime_error(path + ": a line without [MASK] and a tab: " + line);
        out.push_back({line.substr(0, tab), line.substr(tab + 1)});
    }
    return out;
}

namespace {

// The answer's one token among the word starts (the core's words: lower-cased),
// or -1 when it has none (several pieces, [UNK]).
std::int32_t answer_id(const Vocabulary& vocabulary, const std::string& answer) {
    const std::vector<std::string> words = pre_tokenize(answer);
    if (words.size() != 1) return -1;
    const std::vector<std::int32_t> pieces = vocabulary.wordpiece(words[0]);
    return pieces.size() == 1 && pieces[0] != Vocabulary::kUnk ? pieces[0] : -1;
}

void count_guesses(SetScore& score, std::int32_t answer, const std::vector<std::int32_t>& ranked) {
    score.items += 1;
    if (answer < 0) return;
    const auto at = std::find(ranked.begin(), ranked.end(), answer) - ranked.begin();
    score.top1 += at == 0;
    score.top5 += at < 5 && at < static_cast<std::ptrdiff_t>(ranked.size());
}

}  // namespace

SetScore score_model(const EncoderParams<float>& params, const Vocabulary& vocabulary,
                     const std::vector<MaskedItem>& items, const PackedEncoder* packed) {
    SetScore score;
    for (const MaskedItem& item : items) {
        const auto guesses = predict_masked(params, vocabulary, item.text, 5, {}, packed);
        std::vector<std::int32_t> ranked;
        for (const Guess& g : guesses.at(0)) ranked.push_back(vocabulary.id(g.token));
        count_guesses(score, answer_id(vocabulary, item.answer), ranked);
    }
    return score;
}

NeighbourCounts::NeighbourCounts(const std::vector<std::string>& lines,
                                 const Vocabulary& vocabulary)
    : vocabulary_(vocabulary), counts_(vocabulary.size(), 0) {
    for (const std::string& line : lines) {
        std::vector<Token> tokens;
        try {
            tokens = vocabulary.tokenize(line);
        } catch (const Error&) {
            continue;
        }
        for (std::size_t k = 0; k < tokens.size(); ++k) {
            counts_[static_cast<std::size_t>(tokens[k].id)] += 1;
            if (k + 1 < tokens.size())
                pairs_[(static_cast<std::uint64_t>(tokens[k].id) << 32) |
                       static_cast<std::uint32_t>(tokens[k + 1].id)] += 1;
        }
        total_ += static_cast<double>(tokens.size());
    }
}

double NeighbourCounts::unigram(std::int32_t id) const {
    return (counts_[static_cast<std::size_t>(id)] + 1) /
           (total_ + static_cast<double>(counts_.size()));
}

double NeighbourCounts::pair(std::int32_t a, std::int32_t b) const {
    const auto it =
        pairs_.find((static_cast<std::uint64_t>(a) << 32) | static_cast<std::uint32_t>(b));
    const double n = it == pairs_.end() ? 0 : it->second;
    return (n + unigram(b)) / (counts_[static_cast<std::size_t>(a)] + 1);  // P(b | a)
}

std::vector<std::int32_t> NeighbourCounts::guess(std::int32_t before, std::int32_t after,
                                                 std::size_t k) const {
    std::vector<std::pair<double, std::int32_t>> scored;
    for (const std::int32_t c : vocabulary_.word_guesses())
        scored.emplace_back(pair(before, c) * pair(c, after), c);
    k = std::min(k, scored.size());
    std::partial_sort(scored.begin(), scored.begin() + static_cast<std::ptrdiff_t>(k), scored.end(),
                      [](const auto& a, const auto& b) {
                          return a.first > b.first || (a.first == b.first && a.second < b.second);
                      });
    std::vector<std::int32_t> out;
    for (std::size_t r = 0; r < k; ++r) out.push_back(scored[r].second);
    return out;
}

SetScore score_baseline(const NeighbourCounts& counts, const Vocabulary& vocabulary,
                        const std::vector<MaskedItem>& items) {
    SetScore score;
    for (const MaskedItem& item : items) {
        const std::vector<Token> tokens = vocabulary.tokenize(item.text);
        std::size_t at = 0;
        while (at < tokens.size() && tokens[at].id != Vocabulary::kMask) ++at;
        if (at == 0 || at + 1 >= tokens.size())
            throw std::runtime_error("an evaluation item without [MASK]: " + item.text);
        count_guesses(score, answer_id(vocabulary, item.answer),
                      counts.guess(tokens[at - 1].id, tokens[at + 1].id, 5));
    }
    return score;
}

std::vector<std::string> LexiconBaseline::units(const std::string& text) {
    std::vector<std::string> out;
    const bool chinese = std::any_of(text.begin(), text.end(),
                                     [](char c) { return static_cast<unsigned char>(c) >= 0xE0; });
    if (chinese) {
        for (std::size_t at = 0; at < text.size();) {
            if (text.compare(at, 6, "[MASK]") == 0) {
                out.emplace_back("[MASK]");
                at += 6;
                continue;
            }
            const std::size_t n = utf8_sequence_length(static_cast<unsigned char>(text[at]));
            out.push_back(text.substr(at, n));
            at += n;
        }
        return out;
    }
    std::string word;
    for (const char c : text + " ") {
        if (c == ' ') {
            if (!word.empty()) out.push_back(word == "[mask]" ? "[MASK]" : word);
            word.clear();
        } else if (c != ',') {
            word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        }
    }
    return out;
}

LexiconBaseline::LexiconBaseline(const std::string& path, const Vocabulary& vocabulary) {
    std::vector<std::pair<double, std::string>> singles;
    for (const std::string& line : read_lines(path)) {
        const std::size_t tab = line.find('\t');
        if (tab == std::string::npos) continue;
        std::vector<std::string> entry = units(line.substr(0, tab));
        const double count = std::stod(line.substr(tab + 1));
        if (entry.size() == 1) {
            if (answer_id(vocabulary, entry[0]) >= 0) singles.emplace_back(count, entry[0]);
            continue;
        }
        if (entry.empty()) continue;
        const auto e = static_cast<std::uint32_t>(entries_.size());
        for (std::size_t p = 0; p < entry.size(); ++p)
            places_[entry[p]].emplace_back(e, static_cast<std::uint32_t>(p));
        entries_.push_back(std::move(entry));
        counts_.push_back(count);
    }
    std::stable_sort(singles.begin(), singles.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    for (auto& [count, unit] : singles) prior_.push_back(std::move(unit));
}

std::vector<std::string> LexiconBaseline::guess(const std::vector<std::string>& text,
                                                std::size_t mask, std::size_t k) const {
    std::unordered_map<std::string, double> score;
    std::set<std::pair<std::uint32_t, std::uint32_t>> seen;  // (entry, the place on the [MASK])
    for (const long side : {-1L, 1L}) {  // entries that hold the unit before, or after, the [MASK]
        const long at = static_cast<long>(mask) + side;
        if (at < 0 || at >= static_cast<long>(text.size())) continue;
        const auto found = places_.find(text[static_cast<std::size_t>(at)]);
        if (found == places_.end()) continue;
        for (const auto& [e, p] : found->second) {
            const long on_mask = static_cast<long>(p) - side;
            const std::vector<std::string>& entry = entries_[e];
            if (on_mask < 0 || on_mask >= static_cast<long>(entry.size())) continue;
            if (!seen.emplace(e, static_cast<std::uint32_t>(on_mask)).second) continue;
            bool fits = true;  // every other unit of the entry on the text's
            for (std::size_t q = 0; q < entry.size() && fits; ++q) {
                const long t = static_cast<long>(mask) - on_mask + static_cast<long>(q);
                if (static_cast<long>(q) == on_mask) continue;
                fits = t >= 0 && t < static_cast<long>(text.size()) &&
                       text[static_cast<std::size_t>(t)] == entry[q];
            }
            if (fits) score[entry[static_cast<std::size_t>(on_mask)]] += counts_[e];
        }
    }
    std::vector<std::pair<double, std::string>> ranked;
    for (const auto& [unit, s] : score) ranked.emplace_back(s, unit);
    std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
        return a.first > b.first || (a.first == b.first && a.second < b.second);
    });
    std::vector<std::string> out;
    for (const auto& [s, unit] : ranked) out.push_back(unit);
    for (std::size_t i = 0; i < prior_.size() && out.size() < k; ++i) {
        if (std::find(out.begin(), out.end(), prior_[i]) == out.end()) out.push_back(prior_[i]);
    }
    if (out.size() > k) out.resize(k);
    return out;
}

SetScore score_lexicon(const LexiconBaseline& lexicon, const Vocabulary& vocabulary,
                       const std::vector<MaskedItem>& items) {
    SetScore score;
    for (const MaskedItem& item : items) {
        const std::vector<std::string> text = LexiconBaseline::units(item.text);
        const auto mask =
            static_cast<std::size_t>(std::find(text.begin(), text.end(), "[MASK]") - text.begin());
        if (mask == text.size())
            throw std::runtime_error("an evaluation item without [MASK]: " + item.text);
        std::vector<std::int32_t> ranked;
        for (const std::string& unit : lexicon.guess(text, mask, 64)) {
            const std::int32_t id = answer_id(vocabulary, unit);
            if (id >= 0 && ranked.size() < 5)
                ranked.push_back(id);  // what the model could guess too
        }
        count_guesses(score, answer_id(vocabulary, item.answer), ranked);
    }
    return score;
}

}  // namespace attention::train

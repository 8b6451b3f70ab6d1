#include "attention/heads.hpp"

#include <algorithm>

#include "attention/error.hpp"
#include "attention/kernels.hpp"
#include "attention/ops.hpp"
#include "attention/statistics.hpp"
#include "checkpoints.hpp"

namespace attention {

float mean_self_weight(const Mat<float>& weights) {
    const Eigen::Index n = weights.rows();
    if (n < 3 || weights.cols() != n)
        throw Error("invalid_argument",
                    "the weight on itself needs a head's n × n weights for n ≥ 3 tokens");
    float sum = 0;
    for (Eigen::Index i = 1; i <= n - 2; ++i)
        sum += weights(i, i);  // the real tokens, without [CLS] and [SEP]
    return sum / static_cast<float>(n - 2);
}

HeadReport head_report(const Mat<float>& weights, const std::vector<std::int32_t>& ids) {
    const auto n = static_cast<Eigen::Index>(ids.size());
    if (n < 3 || weights.rows() != n || weights.cols() != n) {
        throw Error("invalid_argument",
                    "a head report needs the head's n × n weights for a sentence of n ≥ 3 ids");
    }
    HeadShares s;
    const Eigen::Index first = 1, last = n - 2;  // the real tokens, without [CLS] and [SEP]
    for (Eigen::Index i = first; i <= last; ++i) {
        s.previous += weights(i, i - 1);  // i − 1 ≥ 0: [CLS] before the first
        s.next += weights(i, i + 1);      // i + 1 ≤ n − 1: [SEP] after the last
        s.special += weights(i, 0) + weights(i, n - 1);
        for (Eigen::Index j = first; j <= last; ++j) {
            if (j != i && ids[static_cast<std::size_t>(j)] == ids[static_cast<std::size_t>(i)])
                s.same += weights(i, j);
        }
    }
    const auto queries = static_cast<float>(last - first + 1);
    for (float* share : {&s.previous, &s.next, &s.special, &s.same}) *share /= queries;
    s.self = mean_self_weight(weights);
    HeadReport report{s, ""};
    const std::pair<float, const char*> kinds[] = {{s.self, "self"},
                                                   {s.previous, "previous"},
                                                   {s.next, "next"},
                                                   {s.special, "special"},
                                                   {s.same, "same"}};
    const auto top =
        std::max_element(std::begin(kinds), std::end(kinds),
                         [](const auto& a, const auto& b) { return a.first < b.first; });
    if (top->first >= kDominant) report.label = top->second;
    return report;
}

namespace {

// An entry of a head's weights at token indices (Eigen's index is 32-bit in wasm).
float at(const Mat<float>& m, std::int64_t i, std::int64_t j) {
    return m(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j));
}

}  // namespace

ArticleHead article_head(const std::vector<std::vector<const Mat<float>*>>& weights,
                         const std::vector<std::int32_t>& ids, std::int64_t row) {
    const auto n = static_cast<std::int64_t>(ids.size());
    if (weights.empty() || weights[0].empty())
        throw Error("invalid_argument", "the article's head needs at least one head's weights");
    if (row < 0 || row >= n) {
        throw Error("invalid_argument", "there is no token " + std::to_string(row) +
                                            ": the sentence has " + std::to_string(n) +
                                            " tokens, counted from 0");
    }
    ArticleHead best;
    const auto better =
        [](const ArticleHead& a,
           const ArticleHead& b) {  // a before b? (lower layer and head win ties: visited first)
            if (a.labelled != b.labelled) return a.labelled;
            if (a.spread != b.spread) return a.spread;
            if (a.next != b.next) return a.next;
            return a.weight > b.weight;
        };
    for (std::size_t l = 0; l < weights.size(); ++l) {
        for (std::size_t h = 0; h < weights[l].size(); ++h) {
            const Mat<float>& m = *weights[l][h];
            const HeadReport report = head_report(m, ids);  // checks the size
            if (row == 0 || row == n - 1) continue;  // [CLS] or [SEP]: no neighbours of its own
            std::int64_t top = -1;
            for (std::int64_t j = 1; j + 1 < n; ++j) {
                if (j != row && (top < 0 || at(m, row, j) > at(m, row, top))) top = j;
            }
            if (top < 0 || (top != row - 1 && top != row + 1)) continue;
            ArticleHead candidate{{static_cast<int>(l), static_cast<int>(h)},
                                  true,
                                  top,
                                  at(m, row, top),
                                  !report.label.empty(),
                                  m.row(static_cast<Eigen::Index>(row)).maxCoeff() < kSpread,
                                  top == row + 1};
            if (!best.found || better(candidate, best)) best = candidate;
        }
    }
    return best;
}

TokenLink token_link(const std::vector<std::vector<const Mat<float>*>>& weights, std::int64_t from,
                     std::int64_t to) {
    if (weights.empty() || weights[0].empty())
        throw Error("invalid_argument", "a token link needs at least one head's weights");
    const std::int64_t n = weights[0][0]->rows();
    const auto real = [n](std::int64_t k) { return k >= 1 && k + 1 < n; };
    if (!real(from) || !real(to) || from == to) {
        throw Error(
            "invalid_argument",
            "a token link needs two different real tokens (not [CLS] or [SEP]) of the sentence's " +
                std::to_string(n) + ", got " + std::to_string(from) + " and " + std::to_string(to));
    }
    TokenLink link;
    bool any = false;
    for (std::size_t l = 0; l < weights.size(); ++l) {
        for (std::size_t h = 0; h < weights[l].size(); ++h) {
            const Mat<float>& m = *weights[l][h];
            if (m.rows() != n || m.cols() != n)
                throw Error("invalid_argument",
                            "every head's weights must be n × n for one sentence");
            std::int64_t top = -1,
                         chosen = -1;  // among the other real tokens; among every key but from
            for (std::int64_t j = 0; j < n; ++j) {
                if (j == from) continue;
                if (real(j) && (top < 0 || at(m, from, j) > at(m, from, top))) top = j;
                if (chosen < 0 || at(m, from, j) > at(m, from, chosen)) chosen = j;
            }
            const HeadId id{static_cast<int>(l), static_cast<int>(h)};
            if (!any || at(m, from, to) > link.weight)
                link.strongest = id, link.weight = at(m, from, to), link.first = chosen == to;
            if (!any || at(m, from, top) > link.peak_weight)
                link.peak = id, link.peak_token = top, link.peak_weight = at(m, from, top);
            any = true;
        }
    }
    return link;
}

HeadReport head_report(const Trace& head) {
    std::vector<std::int32_t> ids;
    for (const Token& t : head.tokens) ids.push_back(t.id);
    return head_report(head.weights, ids);
}

LayerRow layer_row(const std::vector<const Mat<float>*>& heads, const std::vector<bool>& silenced,
                   std::int64_t row) {
    if (heads.empty() || silenced.size() != heads.size())
        throw Error("invalid_argument", "a layer row needs the layer's heads");
    const Eigen::Index n = heads.front()->rows();
    for (const Mat<float>* w : heads) {
        if (w->rows() != n || w->cols() != n)
            throw Error("invalid_argument", "every head's weights must be n × n");
    }
    if (row < 0 || row >= n) {
        throw Error("invalid_argument", "token " + std::to_string(row) +
                                            " is outside the sentence of " + std::to_string(n));
    }
    const auto i = static_cast<Eigen::Index>(row);
    LayerRow r;
    std::vector<double> sum(static_cast<std::size_t>(n), 0.0);
    int count = 0;
    for (std::size_t h = 0; h < heads.size(); ++h) {
        Eigen::Index top = 0;
        heads[h]->row(i).maxCoeff(&top);
        r.head_top.push_back(static_cast<std::int32_t>(top));
        r.head_weight.push_back((*heads[h])(i, top));
        r.averaged.push_back(silenced[h] ? 0 : 1);
        if (silenced[h]) continue;
        ++count;
        for (Eigen::Index j = 0; j < n; ++j) sum[static_cast<std::size_t>(j)] += (*heads[h])(i, j);
    }
    for (const double s : sum) r.mean.push_back(count ? static_cast<float>(s / count) : 0.0f);
    r.order = order_descending(r.mean);
    return r;
}

ArticleHead article_head(const Trace& head, std::int64_t row) {
    std::vector<std::int32_t> ids;
    for (const Token& t : head.tokens) ids.push_back(t.id);
    return article_head({{&head.weights}}, ids, row);
}

namespace {

void check_top_k(int top_k) {
    if (top_k < 1 || top_k > 50) {
        throw Error("invalid_argument",
                    "topK must be an integer from 1 to 50, got " + std::to_string(top_k));
    }
}

// What predict_masked() and rank_answers() share: the softmax over the whole vocabulary of the
// prediction head at every [MASK] of the text (a row each, in order), and whether the text holds a
// character the vocabulary has in another form.
struct MaskedProbs {
    Mat<float> probs;
    bool typed_aliases = false;
};

MaskedProbs masked_probs(const EncoderParams<float>& model, const Vocabulary& vocabulary,
                         std::string_view text, const std::vector<HeadId>& knock_out,
                         const PackedEncoder* packed, GuessForms forms, std::optional<int> depth,
                         const RowOverride* override) {
    const int layers = model.shape.layers;
    if (depth && (*depth < 0 || *depth > layers)) {
        throw Error("invalid_argument",
                    "depth must be an integer from 0 (after the embeddings) to " +
                        std::to_string(layers) + " (after the last layer), got " +
                        std::to_string(*depth));
    }
    const std::vector<Token> tokens = vocabulary.tokenize(text);
    std::vector<std::int32_t> ids;
    std::vector<Eigen::Index> masks;
    MaskedProbs out;
    // Or the text holds a character the vocabulary has in another form (traditional).
    out.typed_aliases = forms == GuessForms::traditional;
    for (const Token& t : tokens) {
        if (t.id == vocabulary.mask()) masks.push_back(static_cast<Eigen::Index>(ids.size()));
        out.typed_aliases = out.typed_aliases || t.text != vocabulary.token(t.id);
        ids.push_back(t.id);
    }
    if (masks.empty())
        throw Error("invalid_argument",
                    "the text has no [MASK] to guess: hide a token with [MASK]");
    EncoderCache<float>
        cache;  // the ids are the vocabulary's; a head that does not exist is check_head()'s error
    encode(model, ids, 1, static_cast<int>(ids.size()), cache, knock_out, Elementwise::vectorised,
           packed, override);
    // The rows the head reads: the last layer's output, or the input of layer `depth`.
    const Mat<float>& hidden = !depth || *depth == layers
                                   ? cache.hidden
                                   : cache.layers[static_cast<std::size_t>(*depth)].x;
    Mat<float> rows(static_cast<Eigen::Index>(masks.size()), model.shape.d_model);
    for (std::size_t m = 0; m < masks.size(); ++m)
        rows.row(static_cast<Eigen::Index>(m)) = hidden.row(masks[m]);
    // decode() on the kernels: decoder_rows(rows) · tokᵀ + b_out (equal up to float rounding).
    rows = decoder_rows(model, rows);
    if (kCheckpoints && packed && packed->only_copy) {
        out.probs = kernels::times_rows(rows, model.tok, &model.out_bias);
    } else if (packed) {
        kernels::multiply(rows, {{&packed->tok_t(model.tok), &model.out_bias, &out.probs}});
    } else {
        out.probs = kernels::times(rows, model.tok, true, &model.out_bias);
    }
    ops::softmax_rows_in_place(out.probs);
    return out;
}

// A [MASK] stands for a word of its own (the tokenizer splits words around it), so it is guessed
// among the vocabulary's word starts: by default the characters and words among them.
const std::vector<std::int32_t>& candidates(const Vocabulary& vocabulary, GuessAmong among) {
    return among == GuessAmong::words ? vocabulary.word_guesses() : vocabulary.word_starts();
}

// Whether token a comes before token b in a [MASK]'s guesses: more probable, or as probable and
// listed first in the vocabulary.
bool before(const Mat<float>& probs, Eigen::Index m, std::int32_t a, std::int32_t b) {
    return probs(m, a) > probs(m, b) || (probs(m, a) == probs(m, b) && a < b);
}

}  // namespace

std::vector<std::vector<Guess>> predict_masked(const EncoderParams<float>& model,
                                               const Vocabulary& vocabulary, std::string_view text,
                                               int top_k, const std::vector<HeadId>& knock_out,
                                               const PackedEncoder* packed, GuessAmong among,
                                               GuessForms forms, std::optional<int> depth,
                                               const RowOverride* override) {
    check_top_k(top_k);
    const MaskedProbs masked =
        masked_probs(model, vocabulary, text, knock_out, packed, forms, depth, override);
    const Mat<float>& probs = masked.probs;
    // Probabilities are the softmax's over the whole vocabulary.
    std::vector<std::vector<Guess>> out;
    std::vector<std::int32_t> order;
    for (Eigen::Index m = 0; m < probs.rows(); ++m) {
        order = candidates(vocabulary, among);  // a copy, sorted in part below
        const auto k = std::min<std::size_t>(static_cast<std::size_t>(top_k), order.size());
        std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k),
                          order.end(),
                          [&](std::int32_t a, std::int32_t b) { return before(probs, m, a, b); });
        std::vector<Guess> guesses;
        // Shown in the forms the learner writes: traditional for a traditional text.
        for (std::size_t r = 0; r < k; ++r) {
            guesses.push_back({masked.typed_aliases ? vocabulary.typed_form(order[r])
                                                    : vocabulary.token(order[r]),
                               probs(m, order[r])});
        }
        out.push_back(std::move(guesses));
    }
    return out;
}

std::vector<AnswerRank> rank_answers(const EncoderParams<float>& model,
                                     const Vocabulary& vocabulary, std::string_view text,
                                     const std::vector<std::string>& answers, int top_k,
                                     const std::vector<HeadId>& knock_out,
                                     const PackedEncoder* packed, GuessAmong among,
                                     std::optional<int> depth) {
    check_top_k(top_k);
    const MaskedProbs masked = masked_probs(model, vocabulary, text, knock_out, packed,
                                            GuessForms::as_typed, depth, nullptr);
    const Mat<float>& probs = masked.probs;
    if (answers.size() != static_cast<std::size_t>(probs.rows())) {
        throw Error("invalid_argument",
                    "answers must hold one text for each [MASK] of the sentence: it has " +
                        std::to_string(probs.rows()) + ", got " + std::to_string(answers.size()));
    }
    const std::vector<std::int32_t>& among_ids = candidates(vocabulary, among);
    std::vector<AnswerRank> out;
    for (Eigen::Index m = 0; m < probs.rows(); ++m) {
        AnswerRank a;
        a.answer = answers[static_cast<std::size_t>(m)];
        a.candidates = static_cast<std::int64_t>(among_ids.size());
        if (a.answer.find_first_not_of(" \t\n") == std::string::npos) {
            throw Error("invalid_argument",
                        "an answer is a character or a word, got an empty text");
        }
        const std::vector<Token> tokens = vocabulary.tokenize(a.answer);  // [CLS] … [SEP]
        std::int32_t id = -1;
        for (std::size_t t = 1; t + 1 < tokens.size(); ++t) {
            a.pieces.push_back(vocabulary.token(tokens[t].id));
            id = tokens[t].id;
        }
        a.guessable = a.pieces.size() == 1 &&
                      std::find(among_ids.begin(), among_ids.end(), id) != among_ids.end();
        if (a.guessable) {
            a.probability = probs(m, id);
            a.rank = 1 + std::count_if(among_ids.begin(), among_ids.end(),
                                       [&](std::int32_t c) { return before(probs, m, c, id); });
            a.shown = a.rank <= top_k;
        }
        out.push_back(std::move(a));
    }
    return out;
}

}  // namespace attention

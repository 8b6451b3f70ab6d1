#include "evaluate.hpp"

#include <algorithm>
#include <cmath>

namespace attention::train {

Evaluation evaluate(const EncoderParams<float>& params, const Sequences& heldout, int batch, std::uint64_t seed) {
    Evaluation e;
    Rng rng(seed);
    const SpecialIds special;
    const auto n = static_cast<std::size_t>(heldout.length);
    for (std::size_t first = 0; first < heldout.count(); first += static_cast<std::size_t>(batch)) {
        const std::size_t count = std::min(heldout.count() - first, static_cast<std::size_t>(batch));
        const std::vector<std::int32_t> ids(heldout.ids.begin() + static_cast<std::ptrdiff_t>(first * n),
                                            heldout.ids.begin() + static_cast<std::ptrdiff_t>((first + count) * n));
        const MlmBatch b = mask_batch(ids, static_cast<int>(count), heldout.length, params.shape.vocab, special, rng);
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
    if (e.masked) e.loss /= static_cast<double>(e.masked), e.top1 /= static_cast<double>(e.masked), e.top5 /= static_cast<double>(e.masked);
    return e;
}

SentenceAttention attention_of(const EncoderParams<float>& params, const Vocabulary& vocabulary, const std::string& sentence) {
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
    for (const auto& layer : cache.encoder.layers) out.weights.push_back(layer.probs);
    return out;
}

}  // namespace attention::train

#include "attention/model.hpp"

#include "attention/error.hpp"
#include "attention/stages.hpp"

namespace attention {

AttentionModel::AttentionModel(const Config& config, std::shared_ptr<const WeightSource> source)
    : config_(config), source_(std::move(source)) {
    validate(config_);
    if (!source_) {
        source_ = std::make_shared<SeededWeights>(config_.d_model, config_.d_k, config_.seed);
    }
    head_ = std::make_shared<const HeadWeights>(source_->head(0));
}

bool AttentionModel::same_parameters(const Config& other) const {
    return other.d_model == config_.d_model && other.d_k == config_.d_k && other.seed == config_.seed;
}

AttentionModel AttentionModel::with_switches(const Config& config) const {
    validate(config);
    if (!same_parameters(config)) {
        throw Error("invalid_config", "with_switches keeps d_model, d_k and seed; build a new model to change them");
    }
    AttentionModel model;
    model.config_ = config;
    model.source_ = source_;
    model.head_ = head_;
    return model;
}

Trace AttentionModel::run(std::string_view sentence) const {
    Trace t;
    t.config = config_;
    t.tokens = tokenize(sentence);

    std::vector<std::int32_t> ids;
    ids.reserve(t.tokens.size());
    for (const Token& token : t.tokens) ids.push_back(token.id);
    const auto n = static_cast<Eigen::Index>(ids.size());
    const auto d_model = static_cast<Eigen::Index>(config_.d_model);

    t.embeddings = source_->embeddings(ids);
    t.positional = config_.positional ? positional_encoding(n, d_model) : Matrix::Zero(n, d_model);
    t.x = t.embeddings + t.positional;

    const HeadWeights& head = *head_;
    t.wq = head.wq, t.wk = head.wk, t.wv = head.wv;
    t.bq = head.bq, t.bk = head.bk, t.bv = head.bv;
    t.q = project(t.x, head.wq, head.bq);
    t.k = project(t.x, head.wk, head.bk);
    t.v = project(t.x, head.wv, head.bv);

    t.scores = attention_scores(t.q, t.k);
    t.scaled = scale_scores(t.scores, static_cast<Eigen::Index>(config_.d_k), config_.scale);
    t.masked = causal_mask(t.scaled, config_.causal);
    t.weights = softmax_rows(t.masked);
    t.output = weighted_sum(t.weights, t.v);
    return t;
}

Trace run_attention(std::string_view sentence, const Config& config) {
    return AttentionModel(config).run(sentence);
}

}  // namespace attention

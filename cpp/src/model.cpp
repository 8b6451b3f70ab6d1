#include "attention/model.hpp"

#include <algorithm>
#include <mutex>
#include <unordered_map>

#include "attention/error.hpp"
#include "attention/kernels.hpp"
#include "attention/spin_lock.hpp"
#include "attention/stages.hpp"

namespace attention {

namespace {

// At most this many embedding floats are kept (4 MiB: 1365 rows at d_model 768).
constexpr std::size_t kMaxCachedFloats = std::size_t{1} << 20;
static_assert(kMaxTokens * static_cast<std::size_t>(kMaxDModel) <= kMaxCachedFloats,
              "one sentence's rows must fit in the cache");

}  // namespace

struct AttentionModel::Prepared {
    kernels::Panels wq, wk, wv;  // the head's W, packed once

    SpinLock cache_lock;  // guards the caches below
    std::unordered_map<std::int32_t, std::vector<float>> embedding_rows;
    Matrix positional;  // the first rows of the sinusoidal table, grown on demand
};

AttentionModel::AttentionModel(const Config& config) : config_(config) {
    validate(config_);
    source_ = std::make_shared<const SeededParams>(config_.d_model, config_.d_k, config_.seed);
    head_ = std::make_shared<const HeadParams>(source_->head(0));
    prepared_ = std::make_shared<Prepared>();
    prepared_->wq = kernels::pack(head_->wq);
    prepared_->wk = kernels::pack(head_->wk);
    prepared_->wv = kernels::pack(head_->wv);
}

bool AttentionModel::same_parameters(const Config& other) const {
    return other.d_model == config_.d_model && other.d_k == config_.d_k &&
           other.seed == config_.seed;
}

AttentionModel AttentionModel::with_switches(const Config& config) const {
    validate(config);
    if (!same_parameters(config)) {
        throw Error("invalid_config",
                    "with_switches keeps d_model, d_k and seed; build a new model to change them");
    }
    AttentionModel model;
    model.config_ = config;
    model.source_ = source_;
    model.head_ = head_;
    model.prepared_ = prepared_;
    return model;
}

Trace AttentionModel::run(std::string_view sentence) const {
    Trace t;
    t.config = config_;
    t.tokens = tokenize(sentence);
    t.head = head_;
    const auto n = static_cast<Eigen::Index>(t.tokens.size());
    const auto d_model = static_cast<Eigen::Index>(config_.d_model);

    {
        Prepared& p = *prepared_;
        const std::lock_guard<SpinLock> lock(p.cache_lock);
        // Embedding rows: drawn once per id (all new ids in one call). When the
        // new ones would overflow the cache, it starts again from this sentence.
        const auto missing_ids = [&] {
            std::vector<std::int32_t> missing;
            for (const Token& token : t.tokens) {
                if (!p.embedding_rows.count(token.id) &&
                    std::find(missing.begin(), missing.end(), token.id) == missing.end()) {
                    missing.push_back(token.id);
                }
            }
            return missing;
        };
        std::vector<std::int32_t> missing = missing_ids();
        if (!missing.empty()) {
            if ((p.embedding_rows.size() + missing.size()) * static_cast<std::size_t>(d_model) >
                kMaxCachedFloats) {
                p.embedding_rows.clear();
                missing = missing_ids();
            }
            const Matrix drawn = source_->embeddings(missing);
            for (std::size_t r = 0; r < missing.size(); ++r) {
                const float* row = drawn.data() + static_cast<Eigen::Index>(r) * d_model;
                p.embedding_rows[missing[r]].assign(row, row + d_model);
            }
        }
        if (config_.positional &&
            p.positional.rows() < n) {  // grown by doubling: typing adds one row at a time
            const auto cap = static_cast<Eigen::Index>(kMaxTokens);
            p.positional = positional_encoding(
                std::max(n, std::min(cap, 2 * p.positional.rows() + 16)), d_model);
        }
        // embeddings, positional and x = embeddings + positional, row by row
        // (one pass: each row's two inputs are still in cache for the sum).
        t.embeddings.resize(n, d_model);
        t.positional.resize(n, d_model);
        t.x.resize(n, d_model);
        for (Eigen::Index i = 0; i < n; ++i) {
            const float* embedding =
                p.embedding_rows.at(t.tokens[static_cast<std::size_t>(i)].id).data();
            float* e = t.embeddings.data() + i * d_model;
            float* pos = t.positional.data() + i * d_model;
            float* x = t.x.data() + i * d_model;
            std::copy(embedding, embedding + d_model, e);
            if (config_.positional) {
                std::copy(p.positional.data() + i * d_model,
                          p.positional.data() + (i + 1) * d_model, pos);
            } else {
                std::fill(pos, pos + d_model, 0.0f);
            }
            for (Eigen::Index j = 0; j < d_model; ++j) x[j] = e[j] + pos[j];
        }
    }

    const HeadParams& head = *head_;
    kernels::multiply(t.x, {{&prepared_->wq, &head.bq, &t.q},
                            {&prepared_->wk, &head.bk, &t.k},
                            {&prepared_->wv, &head.bv, &t.v}});
    kernels::Panels packed;
    kernels::pack_transposed(t.k, packed);
    kernels::multiply(t.q, {{&packed, nullptr, &t.scores}});
    kernels::scale_mask_softmax(t.scores, static_cast<Eigen::Index>(config_.d_k), config_.scale,
                                config_.causal, t.scaled, t.masked, t.weights);
    const kernels::Panels v = kernels::pack(t.v);
    kernels::multiply(t.weights, {{&v, nullptr, &t.output}});
    return t;
}

const AttentionModel& ModelCache::model(const Config& config) {
    if (kept_ && kept_->config() == config) return *kept_;
    validate(config);  // a bad configuration must not evict a good model
    if (kept_ && kept_->same_parameters(config)) {
        kept_ = kept_->with_switches(config);
    } else {
        kept_.reset();  // free the old params before drawing new ones
        kept_.emplace(config);
        ++draws_;
    }
    return *kept_;
}

Trace run_attention(std::string_view sentence, const Config& config) {
    return AttentionModel(config).run(sentence);
}

}  // namespace attention

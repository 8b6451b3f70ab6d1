// One self-attention head: configuration + parameters, run on sentences.
#pragma once

#include <memory>
#include <string_view>

#include "attention/config.hpp"
#include "attention/trace.hpp"
#include "attention/weights.hpp"

namespace attention {

class AttentionModel {
public:
    // Validates config (throws attention::Error) and draws the head's
    // parameters once. Without a source, SeededWeights(config) is used.
    explicit AttentionModel(const Config& config,
                            std::shared_ptr<const WeightSource> source = nullptr);

    // Tokenizes the sentence and computes every stage:
    //   x = embeddings + positional;  Q, K, V = x·W + b;
    //   weights = softmax(mask(Q·Kᵀ / √d_k));  output = weights · V
    // The products and the softmax run on the packed SIMD kernels
    // (kernels.hpp); they equal the plain stage functions (stages.hpp) up to
    // float32 rounding. Embedding rows, positional rows and the packed
    // weights are kept between runs (bounded), shared by with_switches copies.
    Trace run(std::string_view sentence) const;

    const Config& config() const { return config_; }

    // True when other has the same parameters (d_model, d_k, seed and source),
    // so switching scale, causal or positional needs no new weights.
    bool same_parameters(const Config& other) const;

    // This model under other switches (scale, causal, positional), sharing its
    // parameters: nothing is drawn again. Throws attention::Error
    // ("invalid_config") unless same_parameters(config).
    AttentionModel with_switches(const Config& config) const;

    struct Prepared;  // packed weights and the caches (model.cpp)

private:
    AttentionModel() = default;

    Config config_;
    std::shared_ptr<const WeightSource> source_;
    std::shared_ptr<const HeadWeights> head_;
    std::shared_ptr<Prepared> prepared_;
};

// Convenience: AttentionModel(config).run(sentence).
Trace run_attention(std::string_view sentence, const Config& config = {});

}  // namespace attention

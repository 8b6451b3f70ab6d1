// One self-attention head: configuration + parameters, run on sentences.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string_view>

#include "attention/config.hpp"
#include "attention/params.hpp"
#include "attention/trace.hpp"

namespace attention {

class AttentionModel {
public:
    // Validates config (throws attention::Error) and draws the head's
    // parameters once, SeededParams(config)'s.
    explicit AttentionModel(const Config& config);

    // Tokenizes the sentence and computes every stage:
    //   x = embeddings + positional;  Q, K, V = x·W + b;
    //   weights = softmax(mask(Q·Kᵀ / √d_k));  output = weights · V
    // The products and the softmax run on the packed SIMD kernels
    // (kernels.hpp); they equal the plain stage functions (stages.hpp) up to
    // float32 rounding. Embedding rows, positional rows and the packed
    // params are kept between runs (bounded), shared by with_switches copies.
    Trace run(std::string_view sentence) const;

    const Config& config() const { return config_; }

    // True when other has the same parameters (d_model, d_k and seed),
    // so switching scale, causal or positional needs no new params.
    bool same_parameters(const Config& other) const;

    // This model under other switches (scale, causal, positional), sharing its
    // parameters: nothing is drawn again. Throws attention::Error
    // ("invalid_config") unless same_parameters(config).
    AttentionModel with_switches(const Config& config) const;

    struct Prepared;  // packed params and the caches (model.cpp)

private:
    AttentionModel() = default;

    Config config_;
    std::shared_ptr<const SeededParams> source_;
    std::shared_ptr<const HeadParams> head_;
    std::shared_ptr<Prepared> prepared_;
};

// The last model, kept for the next run. Drawing W_q, W_k, W_v costs far more
// than a short sentence's forward pass, so a page that recomputes on every
// keystroke asks this cache instead of building a model each time.
class ModelCache {
public:
    // The model for config: the kept one when config is unchanged; the kept
    // one's params under new switches when only scale, causal or positional
    // changed; otherwise a new one (the old params freed first). Throws
    // attention::Error ("invalid_config") for a bad config and keeps the
    // model it had.
    const AttentionModel& model(const Config& config);

    // How many times a model's params were drawn (for tests).
    std::size_t draws() const { return draws_; }

private:
    std::optional<AttentionModel> kept_;
    std::size_t draws_ = 0;
};

// Convenience: AttentionModel(config).run(sentence).
Trace run_attention(std::string_view sentence, const Config& config = {});

}  // namespace attention

// A trained model run on one sentence: every head of every layer, and what
// follows the heads in each layer, under stage ids. One head's view is an
// ordinary Trace (trace.hpp), so everything that explains the single head of
// the seeded model (softmax_row, dot_terms, weighted_rows, cosine_similarity)
// explains any head of the trained one.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "attention/encoder.hpp"
#include "attention/heads.hpp"
#include "attention/model_file.hpp"
#include "attention/rollout.hpp"
#include "attention/trace.hpp"

namespace attention {

// A trained model runs as it was trained: with ÷√d_k, no causal mask, positions added.
// With its sizes, these are what a run of it cannot change (a model's `fixed`, a run's config).
inline constexpr bool kTrainedScale = true, kTrainedCausal = false, kTrainedPositional = true;

// A layer's own stages, in pipeline order (d = d_model):
//   x           n × d     the layer's input; layer 0's is LayerNorm(embeddings + positional)
//   concat      n × d     the heads' outputs side by side (a knocked-out head's columns are 0)
//   wo, bo      d × d, 1 × d
//   projected   n × d     concat · W_O + b_O
//   residual    n × d     x + projected
//   norm        n × d     LayerNorm(residual)
//   ffHidden    n × d_ff  GELU(norm · W_1 + b_1)
//   ffOutput    n × d     ffHidden · W_2 + b_2
//   ffResidual  n × d     norm + ffOutput
//   output      n × d     LayerNorm(ffResidual): the layer's output, the next layer's x
inline constexpr std::array<std::string_view, 11> kLayerStageNames = {
    "x",    "concat",   "wo",       "bo",         "projected",   "residual",
    "norm", "ffHidden", "ffOutput", "ffResidual", "layerOutput",
};

struct EncoderTrace {
    std::string model;  // the model's id
    std::shared_ptr<const TrainedModel> trained;
    std::vector<Token> tokens;      // [CLS] … [SEP], ids from its vocabulary
    std::vector<HeadId> knock_out;  // heads whose output was zeroed
    Matrix embeddings;              // n × d_model   token rows (positions: cache.positional)
    EncoderCache<float> cache;      // every activation (encoder.hpp)

    int layers() const { return trained->params.shape.layers; }
    int heads() const { return trained->params.shape.heads; }
    bool knocked_out(int layer, int head) const;
    // What every head's scores are divided by: √d_k.
    float divisor() const;

    // One head as a Trace: embeddings, positional, x (the layer's input), the
    // head's slices of W_q, W_k, W_v and biases, q, k, v, scores, scaled,
    // masked (= scaled: the encoder sees every token), weights and output =
    // weights · v (what the head computes, also when knocked out). Throws
    // attention::Error ("invalid_argument") for a head that does not exist.
    Trace head(int layer, int head) const;

    // The head to open on for token `row` (heads.hpp's article_head()).
    ArticleHead article_head(std::int64_t row) const;
    // How token `from` looks at token `to` over every head (heads.hpp's token_link()).
    TokenLink token_link(std::int64_t from, std::int64_t to) const;

    // Attention rollout through every layer (rollout.hpp), knocked-out heads left out of their
    // layer's average.
    Rollout rollout() const;

    // A layer's stage (kLayerStageNames). Throws attention::Error:
    // "unknown_stage" listing the ids, "invalid_argument" for a missing layer.
    Matrix layer_stage(std::string_view id, int layer) const;
};

// Tokenizes with the model's vocabulary and runs every layer, with one head's
// row replaced if `override` is given (encode()'s RowOverride: its head's view
// then shows that row among its weights, and its output row is that row's
// weighted sum). Throws attention::Error as the vocabulary does for bad text,
// and as encode() does for a knocked-out head that does not exist or an override
// that does not fit the sentence ("invalid_argument").
EncoderTrace run_encoder(std::shared_ptr<const TrainedModel> model, std::string id,
                         std::string_view sentence, std::vector<HeadId> knock_out = {},
                         const RowOverride* override = nullptr);

}  // namespace attention

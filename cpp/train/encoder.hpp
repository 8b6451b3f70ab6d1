// The trainer's side of the encoder (cpp/include/attention/encoder.hpp): its
// seeded initialisation, the masked-language-model loss on top of the core's
// forward, and the backward pass written by hand, each step beside the forward
// step it differentiates (as llm.c's train_gpt2.c). Templated on the scalar so
// the tests check every gradient in double against finite differences.
//
//   loss = mean over the M masked rows of −log softmax(decode(hidden[row]))[target]
#pragma once

#include <cstdint>
#include <vector>

#include "attention/encoder.hpp"

namespace attention::train {

using attention::EncoderCache;
using attention::EncoderParams;
using attention::EncoderShape;
using attention::LayerCache;
using attention::LayerParams;
using attention::Mat;
using attention::zeros_like;

// Seeded initialisation as BERT: the weight matrices ~ N(0, weight_sd²) (BERT's
// 0.02), biases 0, LayerNorm gains 1; the token embeddings ~ N(0, token_sd²).
// Deterministic for (shape, seed, token_sd, weight_sd).
template <class T>
EncoderParams<T> init_params(const EncoderShape& shape, std::uint64_t seed, double token_sd = 0.02,
                             double weight_sd = 0.02);

// One batch for masked-language modelling: B sequences of n ids (already
// masked), and for each masked position its row in the N rows and its target.
struct MlmBatch {
    int sequences = 0;                  // B
    int length = 0;                     // n
    std::vector<std::int32_t> ids;      // B·n, row-major
    std::vector<std::int32_t> rows;     // M rows that were masked, in 0 … N − 1
    std::vector<std::int32_t> targets;  // M original ids
};

template <class T>
struct ForwardCache {
    EncoderCache<T> encoder;  // every activation of the core's forward
    Mat<T> masked_rows;       // M × d     the last layer's rows that were masked
    Mat<T> decoder_rows;  // M × E     decoder_rows() of them (factorised only): the decoder's input
    Mat<T> probs;         // M × vocab softmax of their logits
    T loss = 0;
};

// The forward pass and the mean loss over the masked rows.
template <class T>
T forward(const EncoderParams<T>& p, const MlmBatch& batch, ForwardCache<T>& cache);

// The backward pass of the forward that filled cache: adds ∂loss/∂param into grads.
template <class T>
void backward(const EncoderParams<T>& p, const MlmBatch& batch, const ForwardCache<T>& cache,
              EncoderParams<T>& grads);

// forward and backward on a batch split by sequences over `threads` threads
// (data parallel): the mean loss, and its gradient added into grads, equal to
// one forward and backward on the whole batch up to rounding.
template <class T>
T loss_and_gradients(const EncoderParams<T>& p, const MlmBatch& batch, EncoderParams<T>& grads,
                     int threads);

}  // namespace attention::train

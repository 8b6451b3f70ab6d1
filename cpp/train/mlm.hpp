// Masked-language-model batches and the AdamW optimiser, next to the encoder
// they feed and update. Deterministic for a seed.
#pragma once

#include <cstdint>
#include <vector>

#include "encoder.hpp"

namespace attention::train {

// The vocabulary's special ids, BERT's five first: [PAD] [UNK] [CLS] [SEP] [MASK].
struct SpecialIds {
    std::int32_t pad = 0, unk = 1, cls = 2, sep = 3, mask = 4;
    std::int32_t first_normal = 5;  // ids from here on are ordinary tokens
    // Ids (a flag by id) never masked directly before [SEP]: a sentence's
    // trailing punctuation, so that a [MASK] at a text's end stands for a word
    // (learners type sentences without it). Empty: every ordinary token can be.
    std::vector<std::uint8_t> unmasked_before_sep;
};

// A small, fast, seeded generator (splitmix64) for masking and sampling.
class Rng {
public:
    explicit Rng(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next();
    double uniform();                    // [0, 1)
    std::int64_t below(std::int64_t n);  // 0 … n − 1
private:
    std::uint64_t state_;
};

// BERT's masking over B sequences of n ids each (row-major, B·n): every
// ordinary token (not special, not one of special.unmasked_before_sep directly
// before [SEP]) is chosen with probability 15 % (at least one per batch); a chosen token becomes
// [MASK] 80 % of the time, a random ordinary token 10 %, and stays as it is 10 %. Its row and
// original id become the targets.
MlmBatch mask_batch(const std::vector<std::int32_t>& ids, int sequences, int length, int vocab,
                    const SpecialIds& special, Rng& rng);

struct AdamWConfig {
    double beta1 = 0.9;
    double beta2 = 0.999;
    double eps = 1e-6;           // BERT's
    double weight_decay = 0.01;  // decoupled; only on 2-D params, never on biases or LayerNorm
};

template <class T>
struct AdamWState {
    EncoderParams<T> m, v;  // first and second moments, the params' shapes
    std::int64_t step = 0;
};

template <class T>
AdamWState<T> adamw_state(const EncoderParams<T>& params);

// One AdamW step with learning rate lr (bias-corrected moments; decay as
// p ← p − lr·wd·p for the params it applies to).
template <class T>
void adamw_step(EncoderParams<T>& params, const EncoderParams<T>& grads, AdamWState<T>& state,
                const AdamWConfig& config, double lr);

}  // namespace attention::train

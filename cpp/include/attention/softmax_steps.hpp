// The worked example: one row of raw scores through every step the article's
// table shows, plus the softmax Jacobian (for the vanishing-gradient story).
#pragma once

#include <cstdint>
#include <vector>

#include "attention/matrix.hpp"

namespace attention {

struct SoftmaxSteps {
    std::vector<float> scaled;  // s_j = score_j / √d_k
    std::vector<float> exps;    // e^{s_j}, NOT shifted by the max: the article's numbers
                                // (e^1.9125 = 6.77 …); +Inf once s_j > ~88.7 in float32
    float sum = 0;              // Σ_j e^{s_j} (42.7366 for the article's "喜" row; Inf if any exp is)
    std::vector<float> probs;   // softmax(s) by the stable, max-shifted form: always finite
    Matrix jacobian;            // m × m, ∂p_i/∂s_j = diag(p) − p·pᵀ
    float max_prob = 0;         // the largest probability…
    std::size_t argmax = 0;     // …and where it is (the first, on ties)
    float entropy = 0;          // −Σ p ln p in nats: 0 for one-hot, ln m for uniform
    float max_jacobian = 0;     // the largest |∂p_i/∂s_j|: near 0 means vanishing gradients
};

// Throws attention::Error ("invalid_argument") for an empty row, more than
// 512 scores, a NaN or infinite score, or d_k outside 1 … 1024.
SoftmaxSteps softmax_steps(const std::vector<float>& scores, std::int64_t d_k);

}  // namespace attention

namespace attention {

// ∂L/∂s for cross-entropy loss L = −log p_target after a softmax: p − one_hot(target).
// Throws attention::Error ("invalid_argument") when target is out of range.
std::vector<float> cross_entropy_gradient(const std::vector<float>& probs, std::size_t target);

}  // namespace attention

// One row of scores through softmax, every intermediate kept: the article's
// worked table (÷√d_k, e^x, their sum, each share), the stable form the core
// really uses (subtract the row's maximum first), and what the labs quote
// about the result (argmax, entropy, the Jacobian). This is the one place the
// page's softmax numbers come from.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "attention/matrix.hpp"
#include "attention/trace.hpp"

namespace attention {

// m = the row's length (the number of keys).
struct SoftmaxRow {
    std::vector<float> scores;         // m   raw scores q·k (as given, or row i of Q·Kᵀ)
    float divisor = 1;                 // √d_k · temperature (1 when scaling is off)
    std::vector<float> scaled;         // m   scores / divisor
    std::vector<float> masked;         // m   scaled, −∞ where the causal mask hides a key
    std::vector<float> exps;           // m   e^masked with no shift: the article's numbers
                                       //     (e^1.9125 = 6.77 …); 0 where masked, +Inf once
                                       //     a value passes ≈ 88.72 in float32
    float exp_sum = 0;                 // Σ exps (42.7354 for the article's 喜 row)
    float exps_min = 0, exps_max = 0;  // the smallest and largest finite exp (0, 0 if none)
    std::vector<float> shares;         // m   exps / exp_sum: the formula as written (NaN
                                       //     once exp_sum overflowed)
    bool overflowed = false;           // exp_sum is +Inf, or a share is NaN
    float max = 0;                     // the row maximum the stable form subtracts
    std::vector<float> shifted_exps;   // m   e^(masked − max): never overflows
    float shifted_sum = 0;             // Σ shifted_exps (≥ 1: the maximum gives e^0)
    std::vector<float> probs;          // m   the softmax: shifted_exps / shifted_sum
                                       //     (for a trace row, its weights row itself)
    float prob_sum = 0;                // Σ probs, accumulated in double (1 up to rounding)
    std::size_t argmax = 0;            // where the largest probability is (the first on ties)
    float max_prob = 0;                // …and its value
    std::vector<std::int32_t> order;   // m   the keys by probability, largest first (on ties,
                                       //     the earlier key first)
    float entropy = 0;                 // −Σ p ln p in nats: 0 one-hot, ln m uniform
    Matrix jacobian;         // m × m, ∂p_i/∂s_j = diag(p) − p·pᵀ; 0 × 0 unless asked for
    float max_jacobian = 0;  // the largest |∂p_i/∂s_j| (near 0: vanishing gradients)
};

// How a row of given scores is divided before the softmax: by √d_k · temperature.
struct RowScaling {
    std::int64_t d_k = 1;    // 1 … 1024 (1: no ÷√d_k)
    double temperature = 1;  // a finite number > 0
    bool jacobian = false;   // fill SoftmaxRow::jacobian
};

// Row i of a trace: its Q·Kᵀ, scaled and masked rows and its weights row.
// Throws attention::Error ("invalid_argument") when i is outside the trace.
SoftmaxRow softmax_row(const Trace& trace, std::int64_t i, bool jacobian = false);

// Every row's plain e^x (softmax_row's exps: no maximum subtracted, 0 where masked), as one
// matrix, and each row's total (its exp_sum): what the softmax step shows before it divides.
struct ExpRows {
    Matrix exps;
    std::vector<float> sums;
};
ExpRows exp_rows(const Trace& trace);

// A row of given scores. Throws attention::Error ("invalid_argument") for an
// empty row, more than 512 scores, a NaN or infinite score, d_k outside
// 1 … 1024 or a temperature that is not a finite number above 0.
SoftmaxRow softmax_row(const std::vector<float>& scores, const RowScaling& scaling = {});

// What ÷√d_k does to a row: the softmax's largest probability without the division (d_k = 1)
// and with it, and the row's shape without it against with it: "peaked" when the largest
// weight is more than kShapeMargin higher without ÷√d_k, "flatter" when that much lower, else
// the "same" (the tour's predict-first question, and its answer). Then the two gradients the
// article's "vanishing gradient" may mean: the largest entry of the softmax's Jacobian
// diag(p) − p·pᵀ (the gradient *through* softmax, whatever the loss), and, for a target key,
// the largest |p − one-hot| (the cross-entropy gradient if that key were the right answer), both
// with respect to softmax's input. The Jacobian's verdict is decided back at q·k, which W_q and
// W_k make, where the scaled path also carries 1/√d_k: "vanishes" when the unscaled one is a
// tenth of the scaled one's or less, "zero" when 0, else "smaller", "larger" or the "same"
// (claims.hpp's compare_gradient; how many times smaller: jacobian_times). The cross-entropy
// gradient's is compare_size at softmax's input. target −1: no cross-entropy gradient (its fields
// stay 0 and ""). Throws as softmax_row does, and for a target outside the row.
inline constexpr float kShapeMargin = 0.01f;
struct ScalingEffect {
    float unscaled_max = 0;  // max_prob at d_k = 1
    float scaled_max = 0;    // max_prob at d_k
    const char* shape = "same";
    float unscaled_jacobian = 0, scaled_jacobian = 0;  // max_jacobian at d_k = 1 and at d_k:
                                                       // ∂p/∂(softmax's input)
    float scaled_jacobian_qk = 0;  // scaled_jacobian ÷ √d_k: back at q·k, which W_q and W_k make
    const char* jacobian = "same";  // compare_gradient(unscaled_jacobian, scaled_jacobian_qk)
    double jacobian_times = 0;      // times_smaller(unscaled_jacobian, scaled_jacobian_qk): "1/N"
    float unscaled_gradient = 0, scaled_gradient = 0;  // max |p − one_hot(target)|
    const char* gradient = "";
    bool target_on_peak = false;  // target is where the unscaled row's largest weight is
    // Whether the row with ÷√d_k still gives one key at least kSaturated (claims.hpp) of its
    // weight: "saturates" (÷√d_k lifted the gradient but the row stays nearly one-hot), or
    // "spread".
    const char* scaled_saturation = "spread";
};
ScalingEffect scaling_effect(const std::vector<float>& scores, std::int64_t d_k,
                             std::int64_t target = -1);

// ∂L/∂s for the cross-entropy loss L = −log p_target after a softmax:
// p − one_hot(target), its target entry written −Σ_{j≠target} p_j (the same when Σ p = 1, and
// exact where 1 − p_target would round away: p_target = 0.9999997 gives −3.06e−7, not −3.6e−7).
// Throws attention::Error ("invalid_argument") when target is outside the row.
std::vector<float> cross_entropy_gradient(const std::vector<float>& probs, std::int64_t target);

}  // namespace attention

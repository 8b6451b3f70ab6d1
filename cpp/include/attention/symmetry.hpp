// How far a head's scores Q·Kᵀ are from symmetric, and how much of its weight
// stays on the token itself: the two things one matrix for queries and keys
// (W_k = W_q) changes. With one matrix, q_i·k_j = q_j·k_i, so "i looks at j"
// forces "j looks at i" as strongly, and a token's score with itself, |q_i|²,
// tends to win.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "attention/matrix.hpp"
#include "attention/trace.hpp"

namespace attention {

// ‖(C + Cᵀ)/2‖² ÷ ‖C‖² (Frobenius) of the scores double-centred, C = S minus each row's mean minus
// each column's mean plus the mean: a row's offset changes no softmax, and a key every query
// looks at (as [SEP]) is no pair. 1 when S = Sᵀ (one matrix for queries and keys), about ½ when
// how i takes j and how j takes i have nothing to do with each other, 0 when C = −Cᵀ (1 for C = 0).
// Throws attention::Error ("invalid_argument") unless scores is square.
double symmetric_share(const Matrix& scores);

// Above this symmetric share a head's scores are "mostly symmetric": well above the ½ of scores
// whose two directions are unrelated, so at most a quarter of ‖C‖² is the antisymmetric part, the
// only part that tells "i looks at j" from "j looks at i".
inline constexpr double kMostlySymmetric = 0.75;

struct QkSymmetry {
    double symmetric_share = 1;  // symmetric_share() of the scores
    double antisymmetric_share =
        0;  // ‖(C − Cᵀ)/2‖² ÷ ‖C‖² = 1 − symmetric_share (the two parts are orthogonal)
    // head_report()'s shares.self: the weight a token keeps on itself, averaged over the sentence's
    // real tokens as queries ([CLS] and [SEP] left out), the same number the heads' report cards
    // show.
    double self_share = 0;
    // "next" or "previous" when the head's report labels it so (it looks one way) and yet its
    // scores are mostly symmetric (symmetric_share > kMostlySymmetric): the small antisymmetric
    // rest, made large by softmax's exp, is what picks the direction. Empty otherwise.
    std::string one_way;
    double one_way_share =
        0;  // that direction's share in the head's report (0 when one_way is empty)
};

// scores and weights: one head's n × n Q·Kᵀ and softmax rows on a sentence of ids ([CLS] first,
// [SEP] last, as head_report() takes them). Throws attention::Error ("invalid_argument") unless
// both are n × n with n = ids.size() ≥ 3.
QkSymmetry qk_symmetry(const Matrix& scores, const Matrix& weights,
                       const std::vector<std::int32_t>& ids);

// One head's run (a Trace: the seeded head, or a trained model's head view).
QkSymmetry qk_symmetry(const Trace& trace);

}  // namespace attention

// How far a head's scores Q·Kᵀ are from symmetric, and how much of its weight
// stays on the token itself: the two things one matrix for queries and keys
// (W_k = W_q) changes. With one matrix, q_i·k_j = q_j·k_i, so "i looks at j"
// forces "j looks at i" as strongly, and a token's score with itself, |q_i|²,
// tends to win.
#pragma once

#include "attention/matrix.hpp"
#include "attention/trace.hpp"

namespace attention {

struct QkSymmetry {
    // ‖(C + Cᵀ)/2‖² ÷ ‖C‖² (Frobenius) of the scores double-centred, C = S minus each row's mean minus
    // each column's mean plus the mean: a row's offset changes no softmax, and a key every query
    // looks at (as [SEP]) is no pair. 1 when S = Sᵀ (one matrix for queries and keys), about ½ when
    // how i takes j and how j takes i have nothing to do with each other, 0 when C = −Cᵀ (1 for C = 0).
    double symmetric_share = 1;
    // The mean over the rows of the weights' diagonal: how much of a token's attention stays on itself.
    double self_share = 0;
};

// scores and weights: one head's n × n Q·Kᵀ and softmax rows.
QkSymmetry qk_symmetry(const Matrix& scores, const Matrix& weights);

// One head's run (a Trace: the seeded head, or a trained model's head view).
QkSymmetry qk_symmetry(const Trace& trace);

}  // namespace attention

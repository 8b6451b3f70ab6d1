// "Your turn": the learner computes one number of a run by hand, and the core
// checks it. Five exercises, one per step where the arithmetic happens:
//
//   "dot"      scores(i, j)  = q_i · k_j                     (a q·k term sum)
//   "scaled"   scaled(i, j)  = scores(i, j) / √d_k
//   "exp"      e^scaled(i, j)                                 (the article's e^x, no shift)
//   "softmax"  weights(i, j) = e^scaled(i, j) / Σ_k e^scaled(i, k)
//   "output"   output(i, j)  = Σ_k weights(i, k) · v(k, j)
//
// Besides the right value, the core computes the values the usual mistakes
// give, so a wrong answer can be named; only mistakes the learner could make
// from what the exercise gives (and the d_k and d_model its task states):
//
//   "dot"      given the last q and k entries and the others' sum: already_scaled,
//              partial_sum_left_out
//   "scaled"   given the score: no_scale, sqrt_d_model, no_sqrt
//   "exp"      given x: none
//   "softmax"  given row i's e^(x − max): not_normalised
//   "output"   given row i's weights and V's column j: unweighted
//
// An answer is right within a tolerance that allows for working from the
// rounded numbers on screen.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "attention/trace.hpp"

namespace attention {

inline constexpr std::string_view kExerciseNames[] = {"dot", "scaled", "exp", "softmax", "output"};

// How many products of q·k a learner multiplies by hand; the rest's sum is given.
inline constexpr std::int64_t kDotByHand = 4;

// A mistake and the value it gives for the cell.
struct Mistake {
    std::string id;  // "no_scale" (forgot ÷√d_k), "sqrt_d_model", "no_sqrt" (÷d_k),
                     // "already_scaled" (q·k ÷ √d_k), "not_normalised" (e^(x − max)
                     // without ÷Σ), "unweighted" (Σ_k v_kj), "partial_sum_left_out" (only
                     // the products asked for, without the given sum)
    float value = 0;
};

// What the learner is given, and what the core expects.
struct Exercise {
    std::string name;          // one of kExerciseNames
    std::int64_t row = 0;      // the cell: query row i …
    std::int64_t col = 0;      // … and key column j (a d_k column for "output")
    std::vector<float> a;      // the inputs: the last by_hand entries of q_i ("dot"), the score
    std::vector<float> b;      // ("scaled"), the scaled score ("exp"), row i's e^(x − max)
                               // ("softmax", 0 where masked), weights row i ("output");
                               // b: the same entries of k_j ("dot"), v column j ("output")
    float partial_sum = 0;     // "dot": Σ q_t·k_t over the other d_k − by_hand entries, given
    std::int64_t by_hand = 0;  // "dot": how many products the learner computes (≤ 4)
    std::int64_t summed = 0;   // "dot": how many products partial_sum adds up (d_k − by_hand)
    std::int64_t d_k = 0;
    std::int64_t d_model = 0;
    float divisor = 1;    // what the scores are divided by: √d_k (1 when scaling is off)
    float expected = 0;   // the stage's own value
    float tolerance = 0;  // |answer − expected| ≤ tolerance is right
    std::vector<Mistake> mistakes;  // only those a tolerance away from expected, from 0 and
                                    // from each other (of two that agree, the first listed)
};

// The exercise `name` on cell (row, col) of a trace. Throws attention::Error
// ("invalid_argument") for an unknown name or a cell outside the matrix.
Exercise make_exercise(const Trace& trace, std::string_view name, std::int64_t row,
                       std::int64_t col);

// A cell the exercise can use: row `row` if it is a real token (else the
// first one), and a column picked by `seed` among the keys the row attends to
// (weight ≥ 0.05 where there are any; never masked, e^x finite), or among the
// d_k columns for "output". Returns {row, col}.
std::pair<std::int64_t, std::int64_t> pick_cell(const Trace& trace, std::string_view name,
                                                std::int64_t row, std::uint32_t seed);

// The verdict on an answer, with what it was checked against.
struct Verdict {
    bool correct = false;
    std::string mistake;  // the named mistake whose value the answer matches; empty if none
    float expected = 0;   // the exercise's expected value …
    float tolerance = 0;  // … and tolerance
};

// Checks a (finite) answer: right within the tolerance, else the closest
// mistake whose value it matches within the tolerance.
Verdict check_answer(const Exercise& exercise, double answer);

}  // namespace attention

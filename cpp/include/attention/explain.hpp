// The arithmetic behind single cells and rows of a trace, for the page to show
// ("q_i · k_j = q_i1·k_j1 + … = value"). Everything a learner reads on screen is
// computed here, not in JavaScript.
#pragma once

#include <vector>

#include "attention/matrix.hpp"
#include "attention/trace.hpp"

namespace attention {

// One dot product term by term: total = Σ_t a[t]·b[t] (accumulated in float,
// the same order as the matrix product up to rounding).
struct DotTerms {
    std::vector<float> a, b;      // the two vectors
    std::vector<float> products;  // a[t]·b[t]
    float total = 0;              // the stage's own value for the cell
};

// scores(i, j) = q_i · k_j, and output(i, j) = Σ_k weights(i, k) · v(k, j).
// Throws attention::Error ("invalid_argument") for another stage or an index
// outside the matrix.
DotTerms dot_terms(const Trace& trace, std::string_view stage, Eigen::Index i, Eigen::Index j);

// Query row i through softmax, as the article's table shows it.
struct RowSteps {
    std::vector<float> scores;         // Q·Kᵀ row i
    std::vector<float> scaled;         // ÷ divisor
    std::vector<float> masked;         // −∞ where the causal mask hides a key
    float divisor = 1;                 // √d_k when scaling is on, 1 when off
    std::vector<float> exps;           // e^{masked}: the plain formula (0 where masked, +Inf on overflow)
    float exp_sum = 0;                 // Σ exps
    std::vector<float> shares;         // exps / exp_sum (NaN when exp_sum overflowed)
    float max = 0;                     // the row maximum the stable form subtracts
    std::vector<float> shifted_exps;   // e^{masked − max}: never overflows
    float shifted_sum = 0;             // Σ shifted_exps
    std::vector<float> probs;          // the weights row: shifted_exps / shifted_sum
    float prob_sum = 0;                // Σ probs (1 up to rounding)
};

RowSteps row_steps(const Trace& trace, Eigen::Index i);

// The terms of ×V for query i: row k is weights(i, k) · v_k (n × d_k); their
// column sums are output row i.
Matrix weighted_rows(const Trace& trace, Eigen::Index i);

// Σ of each row of a stage (n × 1), accumulated in double; −∞ entries count as 0.
std::vector<float> row_sums(const Matrix& m);

// Cosine similarity of two equally long rows: a·b / (|a| |b|); 0 if either is zero.
float cosine_similarity(const Matrix& a, const Matrix& b);

// The smallest and largest finite entries (both 0 if there are none).
struct FiniteRange {
    float min = 0;
    float max = 0;
};
FiniteRange finite_range(const Matrix& m);

}  // namespace attention

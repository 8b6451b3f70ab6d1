// The arithmetic behind single cells and rows of a trace, for the page to show
// ("q_i · k_j = q_i1·k_j1 + … = value"). Everything a learner reads on screen is
// computed here, not in JavaScript.
#pragma once

#include <string_view>
#include <utility>
#include <vector>

#include "attention/matrix.hpp"
#include "attention/trace.hpp"

namespace attention {

// Cell (i, j) of m as Eigen indices; throws attention::Error ("invalid_argument")
// naming the stage and its shape when the cell is outside m.
std::pair<Eigen::Index, Eigen::Index> checked_cell(const Matrix& m, std::int64_t i, std::int64_t j,
                                                   std::string_view stage);

// One dot product term by term: total = Σ_t a[t]·b[t] (accumulated in float,
// the same order as the matrix product up to rounding).
struct DotTerms {
    std::vector<float> a, b;      // the two vectors
    std::vector<float> products;  // a[t]·b[t]
    float total = 0;              // the stage's own value for the cell
    float products_min = 0;       // the smallest and largest finite product,
    float products_max = 0;       // for one colour scale over the terms
};

// scores(i, j) = q_i · k_j, and output(i, j) = Σ_k weights(i, k) · v(k, j).
// Throws attention::Error ("invalid_argument") for another stage or an index
// outside the matrix.
DotTerms dot_terms(const Trace& trace, std::string_view stage, std::int64_t i, std::int64_t j);

// The terms of ×V for query i: row k is weights(i, k) · v_k (n × d_k); their
// column sums are output row i.
Matrix weighted_rows(const Trace& trace, std::int64_t i);

// How much each token's value adds to output i: the length |p_ij · v_j| of each row of
// weighted_rows, and the token whose term is longest (the first on ties). Throws as weighted_rows.
struct Contributions {
    std::vector<float> lengths;  // n
    std::int64_t strongest = 0;
};
Contributions contributions(const Trace& trace, std::int64_t i);

// Σ of each row of a stage (n × 1), accumulated in double; −∞ entries count as 0.
std::vector<float> row_sums(const Matrix& m);

// Cosine similarity of two equally long rows: a·b / (|a| |b|); 0 if either is zero.
float cosine_similarity(const Matrix& a, const Matrix& b);

// Row row_a of stage stage_a in trace a against row row_b of stage stage_b in
// trace b (the same trace or two). Throws attention::Error: "unknown_stage",
// or "invalid_argument" for a row outside its stage or rows of unequal width.
float cosine_similarity(const Trace& a, std::string_view stage_a, std::int64_t row_a,
                        const Trace& b, std::string_view stage_b, std::int64_t row_b);

// The smallest and largest finite entries (both 0 if there are none).
struct FiniteRange {
    float min = 0;
    float max = 0;
};
FiniteRange finite_range(const Matrix& m);

}  // namespace attention

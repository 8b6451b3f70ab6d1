// Queries and keys as points in a plane (the lab's geometry experiment; after Yeh et
// al., "AttentionViz: A Global View of Transformer Attention", 2023). A score is
// q·k = |q|·|k|·cos θ: seen from the query, a key's coordinate along the query's
// direction times |q| is its score. The plane's first axis is that direction; its
// second is the direction, square to the first, along which the keys spread most.
#pragma once

#include <cstdint>
#include <vector>

#include "attention/matrix.hpp"

namespace attention {

struct KeyPlane {
    float query_norm = 0;                 // |q| of the chosen query
    std::vector<float> key_x, key_y;      // each key: x = k·q/|q| (x·|q| is its score), y
    std::vector<float> query_x, query_y;  // every query in the same plane
    std::vector<float> scores;            // q·k_j (= key_x[j]·|q|, up to rounding)
    // The share of the keys' spread (Σ_j |k_j − mean|²) that the plane keeps: 1 when
    // they lie in it; 0 when they are all the same point.
    float kept = 0;
    // Whether the keys spread at all off the query's direction; without it y is 0.
    bool second_axis = false;
};

// Query `row` of q (n × d) and the keys k (m × d) in the plane above. Throws
// attention::Error ("invalid_argument") for a row out of range, widths that differ,
// no keys, or a query of length 0 (it has no direction).
KeyPlane key_plane(const Matrix& q, const Matrix& k, std::int64_t row);

// One query and `count` keys with independent N(0, 1) entries (seeded), in d_k
// dimensions: their lengths grow as √d_k, and so does the spread of the scores;
// ÷√d_k brings the spread back to about 1.
struct RandomKeys {
    float query_norm = 0;               // |q|
    std::vector<float> key_norms;       // |k_j|
    std::vector<float> scores, scaled;  // q·k_j, and ÷√d_k
    float score_sd = 0, scaled_sd = 0;  // their standard deviations (population)
    float root_d_k = 0;                 // √d_k
    KeyPlane plane;                     // the same query and keys in the plane above
};
// Throws attention::Error ("invalid_argument") unless 1 ≤ d_k ≤ 512, 2 ≤ count ≤ 64
// and 0 ≤ seed ≤ 2^32 − 1.
RandomKeys random_keys(std::int64_t d_k, std::int64_t count, std::int64_t seed);

}  // namespace attention

// What the page's sentences say about numbers, decided here from the numbers:
// each sentence a learner reads beside a figure ("saturates", "smaller",
// "doubles", "not a distribution") is picked by one of these, and its
// threshold lives here. docs/claims.md lists every such sentence, the function
// that decides it and its tests.
#pragma once

#include <cstdint>
#include <vector>

#include "attention/trace.hpp"

namespace attention {

// A softmax row "saturates" when one key takes at least this share of it.
inline constexpr float kSaturated = 0.9f;
// A variance is "about 1" between these two (a factor of 2 either way).
inline constexpr double kUnitLow = 0.5, kUnitHigh = 2.0;
// Two sizes are "the same" within this fraction of the larger one.
inline constexpr double kSizeMargin = 0.1;

// A gradient "vanishes" against another when it is at most this fraction of it (an order of
// magnitude smaller).
inline constexpr double kVanishing = 0.1;

// "smaller", "larger" or "same": a against b, the same within kSizeMargin of the larger.
const char* compare_size(double a, double b);

// As compare_size, but "vanishes" when a is at most kVanishing of b (b above 0), and "zero" when
// a is 0 and b is not: the gradient through softmax without ÷√d_k (a) against with it (b).
const char* compare_gradient(double a, double b);

// How many times smaller a is than b, b / a (both above 0), as the page says it ("about 1/N of
// it"): to the nearest whole number below 1 000, to two significant figures from there; 0 when
// a or b is not above 0.
double times_smaller(double a, double b);

// "below", "unit" or "above": a variance against 1 (kUnitLow … kUnitHigh is "unit").
const char* variance_kind(double variance);

// How a variance grew from one d_k to another, by the ratio of the two: "same" below √2,
// "doubles" below 2√2, else "quadruples" (the nearest of ×1, ×2, ×4 on a log scale).
const char* growth_kind(double ratio);

// What ÷√d_k did to one head's scores (the ÷√d_k step's sentence): their variance before and
// after, and whether the weights still saturate. The variance is the one softmax sees: within
// each row (softmax ignores a row's offset, so each row's own mean is taken out), over the cells
// the row sees (not the masked ones), averaged over the rows that see two keys or more. With
// scaling off the two variances are the same.
struct ScalingReport {
    double score_row_variance = 0;    // of Q·Kᵀ, within rows
    double scaled_row_variance = 0;   // of Q·Kᵀ / √d_k, within rows
    const char* variance = "unit";    // variance_kind(scaled_row_variance)
    float largest_weight = 0;         // the largest weight of any row
    std::int64_t saturated_rows = 0;  // rows whose largest weight is at least kSaturated
    std::int64_t rows = 0;
    const char* saturation = "spread";  // "saturates" when any row does, else "spread"
};
ScalingReport scaling_report(const Trace& trace);

// The article's "why not divide by the maximum?": a row of scores divided by its largest score.
// Its values are a probability distribution only when none is negative and they add up to 1
// (within 1e-3). Throws attention::Error ("invalid_argument") for an empty row or one that is
// not finite. A largest score of 0 or below divides nothing sensibly: "undefined", no values.
struct MaxDivision {
    std::vector<float> values;
    float sum = 0;
    std::int64_t negatives = 0;
    const char* kind = "not";  // "distribution", "not" or "undefined"
};
MaxDivision divide_by_max(const std::vector<float>& scores);

// One row of weights beside another over the same keys (the article's 喜 row beside a head's):
// where each puts its largest share, and how much each keeps on the token itself.
struct RowComparison {
    std::int64_t top_a = 0, top_b = 0;
    bool same_top = false;
    float self_a = 0, self_b = 0;
    const char* self =
        "same";  // compare_size(self_b, self_a): b keeps "smaller", "larger", the "same"
};
// Throws attention::Error ("invalid_argument") for rows of different or zero length, or self
// outside them.
RowComparison compare_rows(const std::vector<float>& a, const std::vector<float>& b,
                           std::int64_t self);

}  // namespace attention

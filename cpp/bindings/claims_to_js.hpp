// The page's claims (claims.hpp, and what dot_sample.hpp and explain.hpp decide for them) as JS
// objects: one conversion per type, by to_js.hpp's rules. Included through guarded.hpp.
#pragma once

#include "attention/claims.hpp"
#include "to_js.hpp"

namespace attention_binding {

using namespace attention;  // NOLINT: this file only translates the core's names

inline val js(const ScalingReport& r) {
    return object({{"scoreRowVariance", js(r.score_row_variance)},
                   {"scaledRowVariance", js(r.scaled_row_variance)},
                   {"variance", val(std::string(r.variance))},
                   {"largestWeight", js(r.largest_weight)},
                   {"saturatedRows", js(r.saturated_rows)},
                   {"rows", js(r.rows)},
                   {"saturatedAt", js(kSaturated)},
                   {"saturation", val(std::string(r.saturation))}});
}

inline val js(const MaxDivision& d) {
    return object({{"values", js(d.values)},
                   {"sum", js(d.sum)},
                   {"negatives", js(d.negatives)},
                   {"kind", val(std::string(d.kind))}});
}

inline val js(const RowComparison& c) {
    return object({{"topA", js(c.top_a)},
                   {"topB", js(c.top_b)},
                   {"sameTop", val(c.same_top)},
                   {"selfA", js(c.self_a)},
                   {"selfB", js(c.self_b)},
                   {"self", val(std::string(c.self))}});
}

inline val js(const VarianceGrowth& g) {
    return object({{"fromVariance", js(g.from_variance)},
                   {"toVariance", js(g.to_variance)},
                   {"ratio", js(g.ratio)},
                   {"growth", val(std::string(g.growth))}});
}

inline val js(const Contributions& c) {
    return object({{"lengths", js(c.lengths)}, {"strongest", js(c.strongest)}});
}

}  // namespace attention_binding

// The exercises' tasks and verdicts (exercises.hpp) as JS objects: one conversion per type, by
// to_js.hpp's rules. Included through guarded.hpp.
#pragma once

#include "attention/exercises.hpp"
#include "to_js.hpp"

namespace attention_binding {

using namespace attention;  // NOLINT: this file only translates the core's names

// {exercise, row, col, a, b, partialSum, byHand, dK, dModel, divisor, expected, tolerance,
// mistakes: [{mistake, value}]}
inline val js(const Exercise& e) {
    val mistakes = val::array();
    for (const Mistake& m : e.mistakes)
        mistakes.call<void>("push", object({{"mistake", val(m.id)}, {"value", js(m.value)}}));
    return object({{"exercise", val(e.name)},
                   {"row", js(e.row)},
                   {"col", js(e.col)},
                   {"a", js(e.a)},
                   {"b", js(e.b)},
                   {"partialSum", js(e.partial_sum)},
                   {"byHand", js(e.by_hand)},
                   {"summed", js(e.summed)},
                   {"dK", js(e.d_k)},
                   {"dModel", js(e.d_model)},
                   {"divisor", js(e.divisor)},
                   {"expected", js(e.expected)},
                   {"tolerance", js(e.tolerance)},
                   {"mistakes", mistakes}});
}

inline val js(const Verdict& v) {
    return object({{"correct", val(v.correct)},
                   {"mistake", v.mistake.empty() ? val::null() : val(v.mistake)},
                   {"expected", js(v.expected)},
                   {"tolerance", js(v.tolerance)}});
}

}  // namespace attention_binding

// The binding's two rules (bindings.cpp is the registration table that uses
// them): numbers coming in go through integer() or small(); core types going out
// through one js() per type, each a table of its fields. No C++ exception
// crosses into JS (guarded.hpp runs a call and hands back its value or {error, code, params}).
// Included by bindings.cpp and after_bindings.cpp (built only with Emscripten); its functions are
// inline, as one module may link both.
#pragma once

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <initializer_list>
#include <new>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "attention/dot_sample.hpp"
#include "attention/encoder_trace.hpp"
#include "attention/error.hpp"
#include "attention/exercises.hpp"
#include "attention/explain.hpp"
#include "attention/heads.hpp"
#include "attention/model.hpp"
#include "attention/model_shelf.hpp"
#include "attention/softmax_row.hpp"
#include "attention/words.hpp"

namespace attention_binding {

using emscripten::val;
using namespace attention;  // NOLINT: this file only translates the core's names

// Integers arrive as JS numbers, clamped into ±2^53 so any value reaches the
// core's own range check intact or clearly out of range, never as UB.
inline std::int64_t integer(double v) {
    constexpr double kSafe = 9007199254740992.0;  // 2^53
    return static_cast<std::int64_t>(
        std::fmax(-kSafe, std::fmin(kSafe, std::isnan(v) ? -kSafe : v)));
}

// A layer, head or count: integer(), then into int's range (±1e6 is out of
// range for every one of them, and still reported as the number it was).
inline int small(double v) {
    return static_cast<int>(std::fmax(-1e6, std::fmin(1e6, static_cast<double>(integer(v)))));
}

inline std::vector<float> numbers(const val& a) {
    return emscripten::convertJSArrayToNumberVector<float>(a);
}

// Arrays go out as copies in fresh JS typed arrays: a view over the wasm heap
// would be detached when the heap grows, and its storage may be freed before
// the caller looks at it. The view lives only for the duration of the call.
template <class T>
inline val typed_copy(const T* data, std::size_t size) {
    const char* type = std::is_same_v<T, float>          ? "Float32Array"
                       : std::is_same_v<T, std::int32_t> ? "Int32Array"
                       : std::is_same_v<T, std::uint8_t> ? "Uint8Array"
                                                         : "Uint32Array";
    return val::global(type).new_(emscripten::typed_memory_view(size, data));
}
template <class T>
inline val js(const std::vector<T>& v) {
    return typed_copy(v.data(), v.size());
}
template <class Number, class = std::enable_if_t<std::is_arithmetic_v<Number>>>
inline val js(Number x) {
    return val(static_cast<double>(x));  // a JS number
}
inline val js(val v) { return v; }  // already a JS value
inline val js(const std::vector<std::string>& items) {
    val out = val::array();
    for (const auto& s : items) out.call<void>("push", s);
    return out;
}

inline val object(std::initializer_list<std::pair<const char*, val>> fields) {
    val out = val::object();
    for (const auto& [name, value] : fields) out.set(name, value);
    return out;
}

// One object per core type, its fields as a table (clang-format would put
// each on a line of its own).
// clang-format off
// {rows, cols, data, min, max}: data row-major, data[i * cols + j] == M(i, j);
// min and max over the finite entries.
inline val js(const Matrix& m) {
    const auto range = finite_range(m);
    return object({{"rows", js(m.rows())}, {"cols", js(m.cols())},
                   {"data", typed_copy(m.data(), static_cast<std::size_t>(m.size()))},
                   {"min", js(range.min)}, {"max", js(range.max)}});
}

inline val js(const Config& c) {
    return object({{"dModel", js(c.d_model)}, {"dK", js(c.d_k)}, {"seed", js(c.seed)},
                   {"scale", val(c.scale)}, {"causal", val(c.causal)},
                   {"positional", val(c.positional)}});
}

// fixed: the options a run of the model may give only with these values (the seeded model's
// sizes are its Config's to choose; a trained model fixes its sizes and switches).
inline val js(const ModelInfo& m) {
    val fixed = object({{"layers", js(m.layers)}, {"heads", js(m.heads)}, {"vocabSize", js(m.vocab_size)}});
    if (m.trained) {
        fixed.set("dModel", js(m.d_model));
        fixed.set("dK", js(m.d_k));
        fixed.set("embedding", js(m.embedding));
        fixed.set("scale", val(attention::kTrainedScale));
        fixed.set("causal", val(attention::kTrainedCausal));
        fixed.set("positional", val(attention::kTrainedPositional));
    }
    return object({{"id", val(m.id)}, {"trained", val(m.trained)}, {"layers", js(m.layers)},
                   {"heads", js(m.heads)}, {"dModel", js(m.d_model)}, {"dK", js(m.d_k)},
                   {"vocabSize", js(m.vocab_size)}, {"embedding", js(m.embedding)}, {"fixed", fixed}});
}

inline val js(const HeadReport& r) {
    const HeadShares& s = r.shares;
    return object({{"shares", object({{"self", js(s.self)}, {"previous", js(s.previous)},
                                      {"next", js(s.next)}, {"special", js(s.special)},
                                      {"same", js(s.same)}})},
                   {"label", r.label.empty() ? val::null() : val(r.label)}});
}

// One list per [MASK]: [{token, probability}], most likely first.
inline val js(const ArticleHead& a) {
    return object({{"layer", val(a.head.layer)}, {"head", val(a.head.head)}, {"found", val(a.found)},
                   {"neighbour", a.found ? val(static_cast<double>(a.neighbour)) : val::null()}, {"weight", js(a.weight)},
                   {"labelled", val(a.labelled)}, {"spread", val(a.spread)}, {"next", val(a.next)}});
}

inline val js(const LayerRow& r) {
    return object({{"mean", js(r.mean)}, {"order", js(r.order)}, {"headTop", js(r.head_top)},
                   {"headWeight", js(r.head_weight)}, {"averaged", js(r.averaged)}});
}

inline val js(const TokenLink& k) {
    return object({{"strongest", object({{"layer", val(k.strongest.layer)}, {"head", val(k.strongest.head)}})}, {"weight", js(k.weight)},
                   {"first", val(k.first)}, {"peak", object({{"layer", val(k.peak.layer)}, {"head", val(k.peak.head)}})},
                   {"peakToken", val(static_cast<double>(k.peak_token))}, {"peakWeight", js(k.peak_weight)}});
}

inline val js(const std::vector<std::vector<Guess>>& lists) {
    val out = val::array();
    for (const auto& list : lists) {
        val guesses = val::array();
        for (const Guess& g : list) {
            guesses.call<void>("push", object({{"token", val(g.token)}, {"probability", js(g.probability)}}));
        }
        out.call<void>("push", guesses);
    }
    return out;
}

inline val js(const std::vector<AnswerRank>& ranks) {
    val out = val::array();
    for (const AnswerRank& a : ranks) {
        out.call<void>("push", object({{"answer", val(a.answer)}, {"pieces", js(a.pieces)}, {"guessable", val(a.guessable)},
                                       {"rank", js(a.rank)}, {"candidates", js(a.candidates)}, {"probability", js(a.probability)},
                                       {"shown", val(a.shown)}}));
    }
    return out;
}

inline val js(const ScalingEffect& e) {
    return object({{"unscaled", js(e.unscaled_max)}, {"scaled", js(e.scaled_max)}, {"shape", val(std::string(e.shape))},
                   {"unscaledJacobian", js(e.unscaled_jacobian)}, {"scaledJacobian", js(e.scaled_jacobian)},
                   {"scaledJacobianQk", js(e.scaled_jacobian_qk)},
                   {"jacobian", val(std::string(e.jacobian))}, {"jacobianTimes", js(e.jacobian_times)},
                   {"unscaledGradient", js(e.unscaled_gradient)}, {"scaledGradient", js(e.scaled_gradient)},
                   {"gradient", val(std::string(e.gradient))}, {"targetOnPeak", val(e.target_on_peak)}, {"scaledSaturation", val(std::string(e.scaled_saturation))}});
}

inline val js(const SoftmaxRow& r) {
    return object({{"scores", js(r.scores)}, {"divisor", js(r.divisor)},
                   {"scaled", js(r.scaled)}, {"masked", js(r.masked)},
                   {"exps", js(r.exps)}, {"expSum", js(r.exp_sum)}, {"shares", js(r.shares)},
                   {"expsMin", js(r.exps_min)}, {"expsMax", js(r.exps_max)},
                   {"overflowed", val(r.overflowed)}, {"max", js(r.max)},
                   {"shiftedExps", js(r.shifted_exps)}, {"shiftedSum", js(r.shifted_sum)},
                   {"probs", js(r.probs)}, {"probSum", js(r.prob_sum)},
                   {"argmax", js(r.argmax)}, {"maxProb", js(r.max_prob)}, {"order", js(r.order)},
                   {"entropy", js(r.entropy)}, {"maxJacobian", js(r.max_jacobian)},
                   {"jacobian", r.jacobian.size() ? js(r.jacobian) : val::null()}});
}

inline val js(const DotTerms& d) {
    return object({{"a", js(d.a)}, {"b", js(d.b)}, {"products", js(d.products)},
                   {"total", js(d.total)}, {"productsMin", js(d.products_min)},
                   {"productsMax", js(d.products_max)}});
}

inline val js(const DotProductSample& s) {
    return object({{"variance", js(s.variance)}, {"scaledVariance", js(s.scaled_variance)},
                   {"halfVectorDot", js(s.half_vector_dot)}, {"histogram", js(s.histogram)},
                   {"scaledHistogram", js(s.scaled_histogram)}, {"range", js(s.range)},
                   {"scaledRange", js(s.scaled_range)}});
}

// {texts, ids}: the token texts and their vocabulary ids (Int32Array).
// spans (Int32Array, three a token): where its word stands in the text, begin and end in UTF-16
// units, and 1 when hiding it there behind [MASK] makes sense (hideable), else 0; -1 -1 0 for
// [CLS] and [SEP]. forms: each token as the vocabulary holds it, or null when every one is its
// text (no traditional character aliased). Flat, so a run of n tokens crosses in a few calls.
inline val js(const std::vector<Token>& tokens) {
    std::vector<std::string> texts, forms;
    std::vector<std::int32_t> ids, spans;
    bool aliased = false;
    for (const auto& t : tokens) {
        texts.push_back(t.text), ids.push_back(t.id);
        forms.push_back(t.stands_for.empty() ? t.text : t.stands_for);
        aliased = aliased || !t.stands_for.empty();
        const bool none = t.end == t.begin;
        spans.insert(spans.end(), {none ? -1 : static_cast<std::int32_t>(t.begin),
                                   none ? -1 : static_cast<std::int32_t>(t.end),
                                   !none && t.hideable ? 1 : 0});
    }
    return object({{"texts", js(texts)},
                   {"ids", js(ids)},
                   {"spans", js(spans)},
                   {"forms", aliased ? js(forms) : val::null()}});
}

// What never changes: the stage ids in order, the default options, the limits, the exercises' names.
inline val constants() {
    const val limits = object({{"maxTokens", js(kMaxTokens)}, {"maxDModel", js(kMaxDModel)},
                               {"maxSeed", js(kMaxSeed)}, {"maxTextBytes", js(kMaxTextBytes)}});
    const std::vector<std::string> stages(kStageNames.begin(), kStageNames.end());
    const std::vector<std::string> layer_stages(kLayerStageNames.begin(), kLayerStageNames.end());
    const std::vector<std::string> exercises(std::begin(kExerciseNames), std::end(kExerciseNames));
    return object({{"stageNames", js(stages)}, {"layerStageNames", js(layer_stages)},
                   {"defaults", js(Config{})}, {"limits", limits}, {"exerciseNames", js(exercises)}});
}

// The options object as web/lib/core.js passes it: every field present, types checked.
inline Config to_config(const val& o) {
    return {integer(o["dModel"].as<double>()), integer(o["dK"].as<double>()),
            integer(o["seed"].as<double>()), o["scale"].as<bool>(), o["causal"].as<bool>(),
            o["positional"].as<bool>()};
}

// [{from, to}] as web/lib/trace.js passes it (checked to be integers there).
inline std::vector<WordSpan> word_spans(const val& list) {
    std::vector<WordSpan> out;
    const auto count = list["length"].as<unsigned>();
    for (unsigned i = 0; i < count; ++i) out.push_back({integer(list[i]["from"].as<double>()), integer(list[i]["to"].as<double>())});
    return out;
}

inline val js(const std::vector<WordSpan>& groups) {
    val out = val::array();
    for (const WordSpan& g : groups) out.call<void>("push", object({{"from", js(g.from)}, {"to", js(g.to)}}));
    return out;
}

// [{layer, head}] as web/lib/core.js passes it (checked to be integers there).
inline std::vector<HeadId> head_ids(const val& list) {
    std::vector<HeadId> out;
    const auto count = list["length"].as<unsigned>();
    for (unsigned i = 0; i < count; ++i) {
        out.push_back({small(list[i]["layer"].as<double>()), small(list[i]["head"].as<double>())});
    }
    return out;
}

// Texts as web/lib/core.js passes them (checked to be an array of strings there).
inline std::vector<std::string> texts(const val& list) {
    std::vector<std::string> out;
    const auto count = list["length"].as<unsigned>();
    for (unsigned i = 0; i < count; ++i) out.push_back(list[i].as<std::string>());
    return out;
}

// A row override ({ layer, head, row, weights }: checked by web/lib/core.js), or none for undefined.
inline std::optional<RowOverride> row_override(const val& o) {
    if (o.isUndefined() || o.isNull()) return std::nullopt;
    return RowOverride{{small(o["layer"].as<double>()), small(o["head"].as<double>())},
                       integer(o["row"].as<double>()), numbers(o["weights"])};
}

// clang-format on

inline val error_value(const std::string& code, const std::string& message,
                       const Error::Params& params = {}) {
    val values = val::object();
    for (const auto& [name, value] : params) values.set(name, value);
    return object({{"error", val(message)}, {"code", val(code)}, {"params", values}});
}

inline val js(const std::pair<std::int64_t, std::int64_t>& cell) {
    return object({{"row", js(cell.first)}, {"col", js(cell.second)}});
}

inline val js(const EncoderTrace& t) {
    const EncoderShape& s = t.trained->params.shape;
    return object({{"model", val(t.model)},
                   {"layers", js(s.layers)},
                   {"heads", js(s.heads)},
                   {"dModel", js(s.d_model)},
                   {"dK", js(s.d_k())},
                   {"vocabSize", js(s.vocab)},
                   {"embedding", js(s.embedding)},
                   {"scale", val(attention::kTrainedScale)},
                   {"causal", val(attention::kTrainedCausal)},
                   {"positional", val(attention::kTrainedPositional)}});
}

}  // namespace attention_binding

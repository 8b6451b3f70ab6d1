// The Embind binding: translates between JavaScript values and the core, and
// nothing else. Built only with Emscripten (see CMakeLists.txt).
//
// Errors never cross this boundary as C++ exceptions: every entry point catches
// and returns {error, code} instead, which web/lib/lab.js turns into an
// AttentionLabError. So no JS exception ever unwinds through wasm frames and
// nothing leaks on the error path.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <malloc.h>

#include <cmath>
#include <new>
#include <optional>

#include "attention/error.hpp"
#include "attention/explain.hpp"
#include "attention/labs.hpp"
#include "attention/model.hpp"
#include "attention/softmax_steps.hpp"

using emscripten::val;

namespace {

val error_value(const std::string& code, const std::string& message,
                const attention::Error::Params& params = {}) {
    val result = val::object();
    result.set("error", message);
    result.set("code", code);
    val values = val::object();
    for (const auto& [name, value] : params) values.set(name, value);
    result.set("params", values);
    return result;
}

template <class F>
val guarded(F&& body) {
    try {
        return body();
    } catch (const attention::Error& e) {
        return error_value(e.code(), e.what(), e.params());
    } catch (const std::bad_alloc&) {
        return error_value("out_of_memory", "the computation ran out of memory");
    } catch (const std::exception& e) {
        return error_value("internal", std::string("internal error: ") + e.what());
    }
}

// A copy into a fresh JS typed array (new Float32Array(view) copies): a view
// over the wasm heap would be detached when the heap grows, and the storage
// behind it may be freed before the caller looks at it. The view itself lives
// only for the duration of this call.
template <class T>
val typed_copy(const char* array_type, const T* data, std::size_t size) {
    return val::global(array_type).new_(emscripten::typed_memory_view(size, data));
}

val float_array(const float* data, std::size_t size) {
    return typed_copy("Float32Array", data, size);
}

val string_array(const std::vector<std::string>& items) {
    val out = val::array();
    for (const auto& s : items) out.call<void>("push", s);
    return out;
}

val floats(const std::vector<float>& v) { return float_array(v.data(), v.size()); }

val matrix_value(const attention::Matrix& m) {
    const auto range = attention::finite_range(m);
    val out = val::object();
    out.set("rows", static_cast<double>(m.rows()));
    out.set("cols", static_cast<double>(m.cols()));
    out.set("data", float_array(m.data(), static_cast<std::size_t>(m.size())));
    out.set("min", range.min);
    out.set("max", range.max);
    return out;
}

// Indices arrive as integer JS numbers (checked by lab.js); clamp so a huge
// one becomes an out-of-range index for the core to report.
Eigen::Index index(double i) {
    return static_cast<Eigen::Index>(std::fmax(-1.0, std::fmin(1.0e9, i)));
}

// Options arrive validated for type by lab.js (integers as JS numbers, flags as
// booleans); the core validates the ranges.
struct JsConfig {
    double d_model, d_k, seed;
    bool scale, causal, positional;
};

attention::Config to_config(const JsConfig& js) {
    // Clamp into int64 so a huge (but integer) JS number reaches validate()
    // as an out-of-range value rather than undefined behaviour.
    const auto to_int = [](double v) {
        return static_cast<std::int64_t>(std::fmax(-9.0e15, std::fmin(9.0e15, v)));
    };
    attention::Config c;
    c.d_model = to_int(js.d_model);
    c.d_k = to_int(js.d_k);
    c.seed = to_int(js.seed);
    c.scale = js.scale;
    c.causal = js.causal;
    c.positional = js.positional;
    return c;
}

val config_value(const attention::Config& config) {
    val c = val::object();
    c.set("dModel", static_cast<double>(config.d_model));
    c.set("dK", static_cast<double>(config.d_k));
    c.set("seed", static_cast<double>(config.seed));
    c.set("scale", config.scale);
    c.set("causal", config.causal);
    c.set("positional", config.positional);
    return c;
}

// Drawing W_q, W_k, W_v costs far more than a short sentence's forward pass,
// so the last model is kept and reused while the configuration is unchanged.
const attention::AttentionModel& model_for(const attention::Config& config) {
    static std::optional<attention::AttentionModel> cached;
    const auto same = [&](const attention::Config& c) {
        return c.d_model == config.d_model && c.d_k == config.d_k && c.seed == config.seed &&
               c.scale == config.scale && c.causal == config.causal &&
               c.positional == config.positional;
    };
    if (!cached || !same(cached->config())) {
        attention::validate(config);  // a bad configuration must not evict a good model
        if (cached && cached->same_parameters(config)) {
            cached = cached->with_switches(config);  // only scale/causal/positional changed
        } else {
            cached.reset();  // free the old weights before drawing new ones
            cached.emplace(config);
        }
    }
    return *cached;
}

// Owned by a JS handle; web/lib/lab.js deletes it in trace.dispose().
class TraceHandle {
public:
    explicit TraceHandle(attention::Trace trace) : trace_(std::move(trace)) {}

    val tokens() const {
        std::vector<std::string> texts;
        for (const auto& t : trace_.tokens) texts.push_back(t.text);
        return string_array(texts);
    }

    val ids() const {
        std::vector<std::int32_t> ids;
        for (const auto& t : trace_.tokens) ids.push_back(t.id);
        return typed_copy("Int32Array", ids.data(), ids.size());
    }

    val config() const { return config_value(trace_.config); }

    // {rows, cols, data, min, max}: data is a copy, row-major,
    // data[i * cols + j] == M(i, j); min/max are over the finite entries.
    val stage(const std::string& id) const {
        return guarded([&] { return matrix_value(trace_.stage(id)); });
    }

    val row_steps(double i) const {
        return guarded([&] {
            const auto r = attention::row_steps(trace_, index(i));
            val out = val::object();
            out.set("scores", floats(r.scores));
            out.set("scaled", floats(r.scaled));
            out.set("masked", floats(r.masked));
            out.set("divisor", r.divisor);
            out.set("exps", floats(r.exps));
            out.set("expSum", r.exp_sum);
            out.set("shares", floats(r.shares));
            out.set("max", r.max);
            out.set("shiftedExps", floats(r.shifted_exps));
            out.set("shiftedSum", r.shifted_sum);
            out.set("probs", floats(r.probs));
            out.set("probSum", r.prob_sum);
            return out;
        });
    }

    val dot_terms(const std::string& id, double i, double j) const {
        return guarded([&] {
            const auto d = attention::dot_terms(trace_, id, index(i), index(j));
            val out = val::object();
            out.set("a", floats(d.a));
            out.set("b", floats(d.b));
            out.set("products", floats(d.products));
            out.set("total", d.total);
            const auto range = attention::finite_range(
                Eigen::Map<const attention::Matrix>(d.products.data(), 1, static_cast<Eigen::Index>(d.products.size())));
            out.set("productsMin", range.min);
            out.set("productsMax", range.max);
            return out;
        });
    }

    val weighted_rows(double i) const {
        return guarded([&] { return matrix_value(attention::weighted_rows(trace_, index(i))); });
    }

    val row_sums(const std::string& id) const {
        return guarded([&] { return floats(attention::row_sums(trace_.stage(id))); });
    }

    val cosine(const std::string& id_a, double row_a, const std::string& id_b, double row_b) const {
        return cosine_with(*this, id_a, row_a, id_b, row_b);
    }

    // Row row_a of stage id_a in this trace against row row_b of id_b in other.
    val cosine_with(const TraceHandle& other, const std::string& id_a, double row_a,
                    const std::string& id_b, double row_b) const {
        return guarded([&] {
            const attention::Matrix& a = trace_.stage(id_a);
            const attention::Matrix& b = other.trace_.stage(id_b);
            const auto ra = index(row_a), rb = index(row_b);
            if (ra < 0 || ra >= a.rows() || rb < 0 || rb >= b.rows()) {
                throw attention::Error("invalid_argument", "row index outside the stage");
            }
            val out = val::object();
            out.set("value", attention::cosine_similarity(a.row(ra), b.row(rb)));
            return out;
        });
    }

private:
    attention::Trace trace_;
};

val run(const std::string& sentence, const JsConfig& js) {
    return guarded([&] {
        const attention::AttentionModel& model = model_for(to_config(js));
        val out = val::object();
        out.set("trace", val(TraceHandle(model.run(sentence))));
        return out;
    });
}

// scores: a JS array or typed array of numbers, copied in one go.
val softmax_steps(const val& scores, double d_k) {
    return guarded([&] {
        const auto s = attention::softmax_steps(
            emscripten::convertJSArrayToNumberVector<float>(scores),
            static_cast<std::int64_t>(std::fmax(-1.0e6, std::fmin(1.0e6, d_k))));
        val out = val::object();
        out.set("scaled", float_array(s.scaled.data(), s.scaled.size()));
        out.set("exps", float_array(s.exps.data(), s.exps.size()));
        out.set("sum", s.sum);
        out.set("probs", float_array(s.probs.data(), s.probs.size()));
        val jac = val::object();
        jac.set("rows", static_cast<double>(s.jacobian.rows()));
        jac.set("cols", static_cast<double>(s.jacobian.cols()));
        jac.set("data", float_array(s.jacobian.data(), static_cast<std::size_t>(s.jacobian.size())));
        out.set("jacobian", jac);
        out.set("maxProb", s.max_prob);
        out.set("argmax", static_cast<double>(s.argmax));
        out.set("entropy", s.entropy);
        out.set("maxJacobian", s.max_jacobian);
        return out;
    });
}

// probs: a JS array or typed array; target: the index of the right answer.
val cross_entropy_gradient(const val& probs, double target) {
    return guarded([&] {
        const auto grad = attention::cross_entropy_gradient(
            emscripten::convertJSArrayToNumberVector<float>(probs),
            static_cast<std::size_t>(std::fmax(0.0, std::fmin(1.0e6, target))));
        val out = val::object();
        out.set("gradient", floats(grad));
        return out;
    });
}

double clamp_number(double v) { return std::fmax(-1.0e12, std::fmin(1.0e12, v)); }

val sample_dot_products(double d_k, double count, double bins, double seed) {
    return guarded([&] {
        const auto s = attention::sample_dot_products(
            static_cast<std::int64_t>(clamp_number(d_k)), static_cast<std::int64_t>(clamp_number(count)),
            static_cast<std::int64_t>(clamp_number(bins)), static_cast<std::int64_t>(clamp_number(seed)));
        val out = val::object();
        out.set("variance", s.variance);
        out.set("scaledVariance", s.scaled_variance);
        out.set("halfVectorDot", s.half_vector_dot);
        out.set("histogram", typed_copy("Uint32Array", s.histogram.data(), s.histogram.size()));
        out.set("scaledHistogram", typed_copy("Uint32Array", s.scaled_histogram.data(), s.scaled_histogram.size()));
        out.set("range", s.range);
        out.set("scaledRange", s.scaled_range);
        return out;
    });
}

val softmax_at_temperature(const val& scores, double temperature) {
    return guarded([&] {
        const auto s = attention::softmax_at_temperature(
            emscripten::convertJSArrayToNumberVector<float>(scores), temperature);
        val out = val::object();
        out.set("probs", floats(s.probs));
        out.set("maxProb", s.max_prob);
        out.set("entropy", s.entropy);
        return out;
    });
}

val naive_softmax(const val& scores) {
    return guarded([&] {
        const auto s = attention::naive_softmax(emscripten::convertJSArrayToNumberVector<float>(scores));
        val out = val::object();
        out.set("exps", floats(s.exps));
        out.set("sum", s.sum);
        out.set("probs", floats(s.probs));
        out.set("overflowed", s.overflowed);
        return out;
    });
}

val stage_names() {
    std::vector<std::string> names(attention::kStageNames.begin(), attention::kStageNames.end());
    return string_array(names);
}

val default_config() { return config_value(attention::Config{}); }

val limits() {
    val out = val::object();
    out.set("maxTokens", static_cast<double>(attention::kMaxTokens));
    out.set("maxDModel", static_cast<double>(attention::kMaxDModel));
    out.set("maxSeed", static_cast<double>(attention::kMaxSeed));
    out.set("maxTextBytes", static_cast<double>(attention::kMaxTextBytes));
    return out;
}

// Bytes of the wasm heap handed out by malloc and not yet freed.
double heap_bytes_in_use() { return static_cast<double>(mallinfo().uordblks); }

}  // namespace

EMSCRIPTEN_BINDINGS(attention_lab) {
    emscripten::value_object<JsConfig>("Config")
        .field("dModel", &JsConfig::d_model)
        .field("dK", &JsConfig::d_k)
        .field("seed", &JsConfig::seed)
        .field("scale", &JsConfig::scale)
        .field("causal", &JsConfig::causal)
        .field("positional", &JsConfig::positional);
    emscripten::class_<TraceHandle>("Trace")
        .function("tokens", &TraceHandle::tokens)
        .function("ids", &TraceHandle::ids)
        .function("config", &TraceHandle::config)
        .function("stage", &TraceHandle::stage)
        .function("rowSteps", &TraceHandle::row_steps)
        .function("dotTerms", &TraceHandle::dot_terms)
        .function("weightedRows", &TraceHandle::weighted_rows)
        .function("rowSums", &TraceHandle::row_sums)
        .function("cosine", &TraceHandle::cosine)
        .function("cosineWith", &TraceHandle::cosine_with);
    emscripten::function("run", &run);
    emscripten::function("softmaxSteps", &softmax_steps);
    emscripten::function("crossEntropyGradient", &cross_entropy_gradient);
    emscripten::function("sampleDotProducts", &sample_dot_products);
    emscripten::function("softmaxAtTemperature", &softmax_at_temperature);
    emscripten::function("naiveSoftmax", &naive_softmax);
    emscripten::function("stageNames", &stage_names);
    emscripten::function("limits", &limits);
    emscripten::function("defaultConfig", &default_config);
    emscripten::function("heapBytesInUse", &heap_bytes_in_use);
}

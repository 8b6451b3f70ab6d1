// The Embind binding (built only with Emscripten) translates and does nothing
// else: the registration table, over to_js.hpp's rules for numbers coming in
// (integer()) and core types going out (js(); guarded() turns a C++ exception
// into {error, code, params}). Checks, caches and rules live in the core.
#include <emscripten/bind.h>
#include <emscripten/val.h>
#include <malloc.h>

#include <cstdint>
#include <memory>

#include "attention/model_shelf.hpp"
#include "guarded.hpp"
#include "shelf.hpp"

using emscripten::val;
using namespace attention;          // NOLINT: this file only translates the core's names
using namespace attention_binding;  // NOLINT: integer(), small(), numbers(), js(), guarded() …

namespace {

// Bytes of the wasm heap handed out by malloc and not yet freed.
double heap_bytes_in_use() { return static_cast<double>(mallinfo().uordblks); }
}  // namespace

// A Trace is owned by its JS handle; web/lib/trace.js deletes it in dispose().
EMSCRIPTEN_BINDINGS(attention_lab) {
    using emscripten::optional_override;
    emscripten::class_<Trace>("Trace")
        .function("tokens", optional_override([](const Trace& t) { return js(t.tokens); }))
        .function("config", optional_override([](const Trace& t) { return js(t.config); }))
        .function("divisor", optional_override([](const Trace& t) { return t.divisor(); }))
        .function("stage", optional_override([](const Trace& t, const std::string& id) {
                      return guarded([&]() -> auto& { return t.stage(id); });
                  }))
        .function("softmaxRow", optional_override([](const Trace& t, double i, bool jacobian) {
                      return guarded([&] { return softmax_row(t, integer(i), jacobian); });
                  }))
        .function("expRows", optional_override([](const Trace& t) {
                      return guarded([&] {
                          const ExpRows e = exp_rows(t);
                          return object({{"exps", js(e.exps)}, {"sums", js(e.sums)}});
                      });
                  }))
        .function("dotTerms",
                  optional_override([](const Trace& t, const std::string& id, double i, double j) {
                      return guarded([&] { return dot_terms(t, id, integer(i), integer(j)); });
                  }))
        .function("weightedRows", optional_override([](const Trace& t, double i) {
                      return guarded([&] { return weighted_rows(t, integer(i)); });
                  }))
        .function("contributions", optional_override([](const Trace& t, double i) {
                      return guarded([&] { return contributions(t, integer(i)); });
                  }))
        .function("scalingReport", optional_override([](const Trace& t) {
                      return guarded([&] { return scaling_report(t); });
                  }))
        .function("headReport", optional_override([](const Trace& t) {
                      return guarded([&] { return head_report(t); });
                  }))
        .function("articleHead", optional_override([](const Trace& t, double row) {
                      return guarded([&] { return article_head(t, integer(row)); });
                  }))
        .function(
            "exercise",
            optional_override([](const Trace& t, const std::string& name, double i, double j) {
                return guarded([&] { return make_exercise(t, name, integer(i), integer(j)); });
            }))
        .function("pickCell", optional_override([](const Trace& t, const std::string& name,
                                                   double row, double seed) {
                      return guarded([&] {
                          return pick_cell(t, name, integer(row),
                                           static_cast<std::uint32_t>(integer(seed)));
                      });
                  }))
        .function("checkAnswer", optional_override([](const Trace& t, const std::string& name,
                                                      double i, double j, double answer) {
                      return guarded([&] {
                          return check_answer(make_exercise(t, name, integer(i), integer(j)),
                                              answer);
                      });
                  }))
        .function("rowSums", optional_override([](const Trace& t, const std::string& id) {
                      return guarded([&] { return row_sums(t.stage(id)); });
                  }))
        // Row a of stage id_a here against row b of stage id_b in other (or here).
        .function("cosine",
                  optional_override([](const Trace& t, const Trace& other, const std::string& id_a,
                                       double a, const std::string& id_b, double b) {
                      return guarded([&] {
                          return cosine_similarity(t, id_a, integer(a), other, id_b, integer(b));
                      });
                  }));
    // A trained model's run, owned by its JS handle like a Trace; head() hands
    // out a new Trace (one head's view) that its caller owns.
    emscripten::class_<EncoderTrace>("EncoderTrace")
        .function("tokens", optional_override([](const EncoderTrace& t) { return js(t.tokens); }))
        .function("config", optional_override([](const EncoderTrace& t) { return js(t); }))
        .function("divisor", optional_override([](const EncoderTrace& t) { return t.divisor(); }))
        .function("head", optional_override([](const EncoderTrace& t, double layer, double head) {
                      return guarded([&] { return val(t.head(small(layer), small(head))); });
                  }))
        .function("layerStage",
                  optional_override([](const EncoderTrace& t, const std::string& id, double layer) {
                      return guarded([&] { return t.layer_stage(id, small(layer)); });
                  }))
        .function("articleHead", optional_override([](const EncoderTrace& t, double row) {
                      return guarded([&] { return t.article_head(integer(row)); });
                  }))
        .function("tokenLink", optional_override([](const EncoderTrace& t, double from, double to) {
                      return guarded([&] { return t.token_link(integer(from), integer(to)); });
                  }));
    emscripten::function(
        "loadModel", optional_override([](const std::string& id, const val& bytes) {
            return guarded([&] {
                // Uninitialised, then one typed-array copy: a vector would be zero-filled first,
                // byte by byte, in the browser's baseline code (a function called once).
                const auto size = bytes["length"].as<std::size_t>();
                const std::unique_ptr<std::uint8_t[]> data(new std::uint8_t[size]);
                val(emscripten::typed_memory_view(size, data.get())).call<void>("set", bytes);
                return shelf().add(id, data.get(), size);
            });
        }));
    emscripten::function("models", optional_override([] {
                             val out = val::array();
                             for (const ModelInfo& m : shelf().list())
                                 out.call<void>("push", js(m));
                             return out;
                         }));
    emscripten::function(
        "runEncoder", optional_override([](const std::string& model, const std::string& sentence,
                                           const val& knock_out, const val& override) {
            return guarded([&] {
                const std::optional<RowOverride> row = row_override(override);
                return val(run_encoder(shelf().trained(model), model, sentence, head_ids(knock_out),
                                       row ? &*row : nullptr));
            });
        }));
    // The guesses for each [MASK]; with answers (one text a [MASK]), where each stands among them.
    emscripten::function(
        "predictMasked",
        optional_override([](const std::string& model, const std::string& sentence, double top_k,
                             const val& knock_out, bool words_only, bool traditional,
                             const val& depth, const val& override, const val& answers) {
            return guarded([&] {
                const auto trained = shelf().trained(model);
                const GuessAmong among = words_only ? GuessAmong::words : GuessAmong::word_starts;
                const std::optional<int> at = depth.isUndefined()
                                                  ? std::nullopt
                                                  : std::optional<int>(small(depth.as<double>()));
                if (!answers.isUndefined()) {
                    return js(rank_answers(trained->params, trained->vocabulary, sentence,
                                           texts(answers), small(top_k), head_ids(knock_out),
                                           trained->packed.get(), among, at));
                }
                const std::optional<RowOverride> row = row_override(override);
                return js(
                    predict_masked(trained->params, trained->vocabulary, sentence, small(top_k),
                                   head_ids(knock_out), trained->packed.get(), among,
                                   traditional ? GuessForms::traditional : GuessForms::as_typed, at,
                                   row ? &*row : nullptr));
            });
        }));
    emscripten::function(
        "run", optional_override([](const std::string& sentence, const val& options) {
            static ModelCache cache;  // kept while the config stays
            return guarded([&] { return val(cache.model(to_config(options)).run(sentence)); });
        }));
    emscripten::function(
        "softmaxRow",
        optional_override([](const val& scores, double d_k, double temperature, bool jacobian) {
            return guarded([&] {
                return softmax_row(numbers(scores), {integer(d_k), temperature, jacobian});
            });
        }));
    emscripten::function(
        "scalingEffect", optional_override([](const val& scores, double d_k, double target) {
            return guarded(
                [&] { return scaling_effect(numbers(scores), integer(d_k), integer(target)); });
        }));
    emscripten::function("divideByMax", optional_override([](const val& scores) {
                             return guarded([&] { return divide_by_max(numbers(scores)); });
                         }));
    emscripten::function(
        "compareRows", optional_override([](const val& a, const val& b, double self) {
            return guarded([&] { return compare_rows(numbers(a), numbers(b), integer(self)); });
        }));
    emscripten::function(
        "varianceGrowth", optional_override([](double from, double to, double count, double seed) {
            return guarded([&] {
                return variance_growth(integer(from), integer(to), integer(count), integer(seed));
            });
        }));
    emscripten::function(
        "crossEntropyGradient", optional_override([](const val& probs, double target) {
            return guarded([&] { return cross_entropy_gradient(numbers(probs), integer(target)); });
        }));
    emscripten::function("sampleDotProducts",
                         optional_override([](double d_k, double count, double bins, double seed) {
                             return guarded([&] {
                                 return sample_dot_products(integer(d_k), integer(count),
                                                            integer(bins), integer(seed));
                             });
                         }));
    emscripten::function("constants", &constants);
    emscripten::function("heapBytesInUse", &heap_bytes_in_use);
}

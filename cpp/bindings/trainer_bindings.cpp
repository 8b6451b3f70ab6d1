// The trainer's wasm (web/generated/attention-lab-trainer.*), which only the
// training lab loads: one TrainingSession (cpp/train/session.hpp) driven a
// step at a time from JS (web/lib/training-loop.js), the heads of its model on
// a sentence, and its model file. Every method hands back a value or
// {error, code, params}, as the core's bindings do.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <map>
#include <memory>

#include "attention/heads.hpp"
#include "attention/symmetry.hpp"
#include "guarded.hpp"
#include "train/session.hpp"

using emscripten::val;
using namespace attention;          // NOLINT: this file only translates the trainer's names
using namespace attention_binding;  // NOLINT
using attention::train::SessionSettings;
using attention::train::StepReport;
using attention::train::TrainingSession;

namespace {

// The settings a JS object gives; an absent key keeps the default, a key of
// the wrong type is refused by name (ranges are the session's to check).
SessionSettings settings_of(const val& o) {
    SessionSettings s;
    if (o.isUndefined() || o.isNull()) return s;
    const auto number = [&](const char* key, auto& field) {
        const val v = o[key];
        if (v.isUndefined()) return;
        if (v.typeOf().as<std::string>() != "number") {
            throw Error("invalid_option", std::string(key) + " must be a number",
                        {{"name", key}, {"value", v.typeOf().as<std::string>()}});
        }
        const double x = v.as<double>();
        using Field = std::remove_reference_t<decltype(field)>;
        if constexpr (std::is_integral_v<Field>) {
            if (!std::isfinite(x) || x != std::floor(x) || (std::is_unsigned_v<Field> && x < 0)) {
                throw Error("invalid_option",
                            std::string(key) + " must be a whole number" +
                                (std::is_unsigned_v<Field> ? " from 0" : ""),
                            {{"name", key}, {"value", std::to_string(x)}});
            }
            // Beyond any range: the session's check names it.
            field = static_cast<Field>(std::fmax(
                -1.0, std::fmin(x, std::is_unsigned_v<Field> ? 4294967296.0 : 2147483647.0)));
        } else {
            field = x;
        }
    };
    number("layers", s.layers);
    number("heads", s.heads);
    number("dModel", s.d_model);
    number("length", s.length);
    number("batch", s.batch);
    number("steps", s.steps);
    number("vocab", s.vocab);
    number("lr", s.lr);
    number("initScale", s.init_scale);
    number("seed", s.seed);
    const auto flag = [&](const char* key, bool& field) {
        const val x = o[key];
        if (x.isUndefined()) return;
        if (x.typeOf().as<std::string>() != "boolean") {
            throw Error("invalid_option", std::string(key) + " must be true or false",
                        {{"name", key}, {"value", x.typeOf().as<std::string>()}});
        }
        field = x.as<bool>();
    };
    flag("scaled", s.scaled);
    flag("sharedQk", s.shared_qk);
    return s;
}

val js(const StepReport& r) {
    return object({{"step", val(r.step)},
                   {"loss", val(r.loss)},
                   {"lr", val(r.lr)},
                   {"oneHotShare", val(r.softmax.one_hot_share)},
                   {"entropy", val(r.softmax.entropy)},
                   {"maxEntropy", val(r.softmax.max_entropy)},
                   {"gradWq", val(r.grad_wq)},
                   {"gradWk", val(r.grad_wk)},
                   {"symmetricShare", val(r.scores.symmetric_share)},
                   {"selfShare", val(r.scores.self_share)},
                   {"tokens", val(static_cast<double>(r.tokens))}});
}

// Every head of the model on one sentence: its weights and its report card.
val heads_on(const TrainingSession& session, const std::string& sentence) {
    const std::vector<Token> tokens = session.vocabulary().tokenize(sentence);
    std::vector<std::int32_t> ids;
    for (const Token& t : tokens) ids.push_back(t.id);
    const auto n = static_cast<int>(ids.size());
    if (n > 128)
        throw Error("too_many_tokens",
                    "the sentence has " + std::to_string(n) +
                        " tokens; the heads are shown for at most 128",
                    {{"tokens", std::to_string(n)}, {"max", "128"}});
    EncoderCache<float> cache;
    encode(session.params(), ids, 1, n, cache);
    val layers = val::array();
    const int h = session.params().shape.heads;
    for (std::size_t l = 0; l < cache.layers.size(); ++l) {
        val heads = val::array();
        for (int j = 0; j < h; ++j) {
            const Mat<float>& w = cache.layers[l].weights[static_cast<std::size_t>(j)];
            const HeadReport report = head_report(w, ids);
            const auto dk = cache.layers[l].q.cols() / h;
            const auto cols = Eigen::seqN(static_cast<Eigen::Index>(j) * dk, dk);
            const QkSymmetry qk =
                qk_symmetry(Matrix(cache.layers[l].q(Eigen::all, cols) *
                                   cache.layers[l].k(Eigen::all, cols).transpose()),
                            w, ids);
            // Each row's largest weight and where it is: what a query attends to most.
            std::vector<std::int32_t> argmax(static_cast<std::size_t>(n));
            std::vector<float> max_prob(static_cast<std::size_t>(n));
            for (int i = 0; i < n; ++i) {
                Eigen::Index at = 0;
                max_prob[static_cast<std::size_t>(i)] = w.row(i).maxCoeff(&at);
                argmax[static_cast<std::size_t>(i)] = static_cast<std::int32_t>(at);
            }
            heads.call<void>(
                "push",
                object({{"weights", typed_copy(w.data(), static_cast<std::size_t>(w.size()))},
                        {"argmax", typed_copy(argmax.data(), argmax.size())},
                        {"maxProb", typed_copy(max_prob.data(), max_prob.size())},
                        {"report", attention_binding::js(report)},
                        {"symmetricShare", val(qk.symmetric_share)},
                        {"selfShare", val(qk.self_share)}}));
        }
        layers.call<void>("push", heads);
    }
    return object({{"tokens", attention_binding::js(tokens)}, {"layers", layers}});
}

// The sessions JS has started and not finished, by id: JS holds only the number.
std::map<int, std::unique_ptr<TrainingSession>>& sessions() {
    static std::map<int, std::unique_ptr<TrainingSession>> all;
    return all;
}

TrainingSession& session(int id) {
    const auto at = sessions().find(id);
    if (at == sessions().end())
        throw Error("invalid_argument",
                    "no training run " + std::to_string(id) + " (finished, or never started)");
    return *at->second;
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_trainer) {
    using emscripten::optional_override;
    emscripten::function(
        "start", optional_override([](const std::string& text, const val& settings) {
            return guarded([&] {
                static int next = 1;
                auto made = std::make_unique<TrainingSession>(text, settings_of(settings));
                const TrainingSession& s = *made;
                const int id = next++;
                val info =
                    object({{"id", val(id)},
                            {"vocab", val(static_cast<double>(s.vocabulary().size()))},
                            {"trainTokens", val(static_cast<double>(s.train_tokens()))},
                            {"heldoutSentences", val(static_cast<double>(s.heldout_sentences()))}});
                sessions()[id] = std::move(made);
                return info;
            });
        }));
    emscripten::function("step", optional_override([](int id) {
                             return guarded([&] { return js(session(id).step()); });
                         }));
    emscripten::function("heldoutLoss", optional_override([](int id) {
                             return guarded([&] { return session(id).heldout_loss(); });
                         }));
    emscripten::function("heads", optional_override([](int id, const std::string& sentence) {
                             return guarded([&] { return heads_on(session(id), sentence); });
                         }));
    emscripten::function("modelFile", optional_override([](int id) {
                             return guarded([&] {
                                 const std::vector<std::uint8_t> bytes = session(id).model_file();
                                 return typed_copy(bytes.data(), bytes.size());
                             });
                         }));
    // Frees a run's memory (its params, moments and text); later calls with its id are refused.
    emscripten::function("finish", optional_override([](int id) { sessions().erase(id); }));
    emscripten::function("defaultSettings", optional_override([]() {
                             const SessionSettings s;
                             return object({{"layers", val(s.layers)},
                                            {"heads", val(s.heads)},
                                            {"dModel", val(s.d_model)},
                                            {"length", val(s.length)},
                                            {"batch", val(s.batch)},
                                            {"steps", val(s.steps)},
                                            {"vocab", val(s.vocab)},
                                            {"lr", val(s.lr)},
                                            {"scaled", val(s.scaled)},
                                            {"sharedQk", val(s.shared_qk)},
                                            {"initScale", val(s.init_scale)},
                                            {"seed", val(static_cast<double>(s.seed))}});
                         }));
    emscripten::function(
        "settingRanges", optional_override([]() {
            val out = val::object();
            for (const auto& r : attention::train::setting_ranges())
                out.set(r.name, object({{"min", val(r.min)}, {"max", val(r.max)}}));
            return out;
        }));
    // The training lab's presets, its d_k for the knobs and the verdict on its two-run
    // experiments (training_settings.hpp).
    emscripten::function("presets", optional_override([]() {
                             val out = val::object();
                             for (const auto& p : attention::train::kTrainingPresets) {
                                 out.set(p.name, object({{"layers", val(p.layers)},
                                                         {"heads", val(p.heads)},
                                                         {"dModel", val(p.d_model)},
                                                         {"steps", val(p.steps)},
                                                         {"lr", val(p.lr)},
                                                         {"initScale", val(p.init_scale)}}));
                             }
                             return out;
                         }));
    emscripten::function(
        "headSize", optional_override([](double d_model, double heads) {
            return guarded([&] {
                const bool whole = d_model == std::floor(d_model) && heads == std::floor(heads);
                return val(
                    whole ? attention::train::training_head_size(small(d_model), small(heads)) : 0);
            });
        }));
    emscripten::function("lossVerdict", optional_override([](double reference, double variant) {
                             return std::string(attention::train::loss_verdict(reference, variant));
                         }));
}

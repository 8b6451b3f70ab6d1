// The Embind binding of what the lab shows after the article (docs/after-the-article.md):
// softmax·V tile by tile, attention rollout, how symmetric a head's scores are, attention
// between words. A module
// of its own (web/generated/attention-lab-after.*) that the page loads when one of those
// experiments opens, so its first load does not carry them; the one-file builds link it
// into their core. It holds no run: web/lib/trace.js hands it a run's stages (copies),
// and it hands back the core's numbers, by the same rules as bindings.cpp (to_js.hpp).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include "attention/geometry.hpp"
#include "attention/heads.hpp"
#include "attention/rollout.hpp"
#include "attention/symmetry.hpp"
#include "attention/tiled.hpp"
#include "attention/what_if.hpp"
#include "attention/words.hpp"
#include "guarded.hpp"

using emscripten::val;
using namespace attention;          // NOLINT: this file only translates the core's names
using namespace attention_binding;  // NOLINT: integer(), numbers(), js(), guarded() …

namespace {

// A rows × cols row-major matrix from a JS typed array of exactly that many numbers.
Matrix matrix(const val& data, double rows, double cols) {
    const std::vector<float> values = numbers(data);
    const std::int64_t r = integer(rows), c = integer(cols);
    if (r < 0 || c < 0 || static_cast<std::int64_t>(values.size()) != r * c) {
        throw Error("invalid_argument", "a matrix of " + std::to_string(r) + " × " +
                                            std::to_string(c) + " needs as many numbers");
    }
    return Eigen::Map<const Matrix>(values.data(), static_cast<Eigen::Index>(r),
                                    static_cast<Eigen::Index>(c));
}

// Every head's weights of a run, [layer][head], each n × n; and which heads are knocked out.
struct Heads {
    std::vector<std::vector<Matrix>> weights;
    std::vector<std::vector<bool>> silenced;
    std::vector<std::vector<const Matrix*>> pointers() const {
        std::vector<std::vector<const Matrix*>> out;
        for (const auto& layer : weights) {
            out.emplace_back();
            for (const Matrix& w : layer) out.back().push_back(&w);
        }
        return out;
    }
};

Heads heads_of(const val& layers, const val& silenced, double n) {
    Heads h;
    const auto count = layers["length"].as<unsigned>();
    for (unsigned l = 0; l < count; ++l) {
        h.weights.emplace_back();
        h.silenced.emplace_back();
        const auto heads = layers[l]["length"].as<unsigned>();
        for (unsigned k = 0; k < heads; ++k) {
            h.weights.back().push_back(matrix(layers[l][k], n, n));
            h.silenced.back().push_back(silenced[l][k].as<bool>());
        }
    }
    return h;
}

// A list of guesses from JS ([{ token, probability }], as predictMasked gives them).
std::vector<Guess> guesses(const val& list) {
    std::vector<Guess> out;
    const auto count = list["length"].as<unsigned>();
    for (unsigned k = 0; k < count; ++k) {
        out.push_back({list[k]["token"].as<std::string>(),
                       static_cast<float>(list[k]["probability"].as<double>())});
    }
    return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_lab_after) {
    using emscripten::optional_override;
    emscripten::function("tiledRow",
                         optional_override([](const val& masked, const val& v, const val& output,
                                              double n, double d, double i, double block) {
                             return guarded([&] {
                                 return tiled_row(matrix(masked, n, n), matrix(v, n, d),
                                                  matrix(output, n, d), integer(i), integer(block));
                             });
                         }));
    emscripten::function("tiledAttention",
                         optional_override([](const val& masked, const val& v, const val& output,
                                              double n, double d, double block) {
                             return guarded([&] {
                                 return tiled_attention(matrix(masked, n, n), matrix(v, n, d),
                                                        matrix(output, n, d), integer(block));
                             });
                         }));
    emscripten::function(
        "rollout",
        optional_override([](const val& layers, const val& silenced, double n, const val& words) {
            return guarded([&] {
                const Heads h = heads_of(layers, silenced, n);
                return rollout_by_words(attention_rollout(h.pointers(), h.silenced),
                                        word_groups(integer(n), word_spans(words)));
            });
        }));
    // Row i of one layer's heads together (heads.hpp's layer_row()): that layer's weights and
    // which of its heads are knocked out, as rollout takes every layer's.
    emscripten::function("layerRow", optional_override([](const val& heads, const val& silenced,
                                                          double n, double i) {
                             return guarded([&] {
                                 val layers = val::array(), flags = val::array();
                                 layers.call<void>("push", heads);
                                 flags.call<void>("push", silenced);
                                 const Heads h = heads_of(layers, flags, n);
                                 return layer_row(h.pointers()[0], h.silenced[0], integer(i));
                             });
                         }));
    emscripten::function(
        "rolloutRow",
        optional_override([](const val& layers, const val& silenced, double n, double i) {
            return guarded([&] {
                const Heads h = heads_of(layers, silenced, n);
                return rollout_row(attention_rollout(h.pointers(), h.silenced), integer(i));
            });
        }));
    emscripten::function(
        "wordAttention", optional_override([](const val& weights, double n, const val& words) {
            return guarded([&] {
                const auto groups = word_groups(integer(n), word_spans(words));
                return object({{"groups", js(groups)},
                               {"weights", js(word_attention(matrix(weights, n, n), groups))}});
            });
        }));
    emscripten::function("editRow", optional_override([](const val& row, const val& keys,
                                                         const val& weights, bool renormalise) {
                             return guarded([&] {
                                 const std::vector<float> w = numbers(weights);
                                 std::vector<RowEdit> edits;
                                 for (std::size_t k = 0; k < w.size(); ++k)
                                     edits.push_back({integer(keys[k].as<double>()), w[k]});
                                 return edit_row(numbers(row), edits, renormalise);
                             });
                         }));
    emscripten::function("keyPlane", optional_override([](const val& q, const val& k, double n,
                                                          double m, double d, double row) {
                             return guarded([&] {
                                 return key_plane(matrix(q, n, d), matrix(k, m, d), integer(row));
                             });
                         }));
    emscripten::function("randomKeys", optional_override([](double d_k, double count, double seed) {
                             return guarded([&] {
                                 return random_keys(integer(d_k), integer(count), integer(seed));
                             });
                         }));
    emscripten::function("moved", optional_override([](const val& before, const val& after) {
                             return guarded([&] { return moved(numbers(before), numbers(after)); });
                         }));
    emscripten::function(
        "guessShift", optional_override([](const val& before, const val& after) {
            return guarded([&] { return guess_shift(guesses(before), guesses(after)); });
        }));
    emscripten::function(
        "qkSymmetry",
        optional_override([](const val& scores, const val& weights, const val& ids, double n) {
            return guarded([&] {
                return qk_symmetry(matrix(scores, n, n), matrix(weights, n, n),
                                   emscripten::convertJSArrayToNumberVector<std::int32_t>(ids));
            });
        }));
}

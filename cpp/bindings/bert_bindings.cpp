// The Embind binding of an imported checkpoint's reading (bert.hpp), linked with bindings.cpp
// into a module of its own (web/generated/attention-lab-models.*): the page's first load does
// not carry it, and the JS API loads it when a checkpoint is opened (web/lib/import-model.js).
// The JS side streams model.safetensors in, a chunk of a tensor at a time (put()).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

#include "attention/bert.hpp"
#include "guarded.hpp"
#include "shelf.hpp"

using emscripten::val;
using namespace attention;          // NOLINT: this file only translates the core's names
using namespace attention_binding;  // NOLINT: integer(), js(), guarded() …

namespace {

// A Uint8Array's bytes.
std::string bytes_of(const val& bytes) {
    const auto size = bytes["length"].as<std::size_t>();
    std::string out(size, '\0');
    val(emscripten::typed_memory_view(size, reinterpret_cast<std::uint8_t*>(out.data())))
        .call<void>("set", bytes);
    return out;
}

// The model just put on the shelf under id: its ModelInfo, with architecture "bert", its name
// (config.json's _name_or_path, else the id), dFf and maxTokens (the most it reads).
val bert_info(const ModelInfo& shelved, const std::string& id, const std::string& name,
              const EncoderShape& s) {
    val info = js(shelved);
    info.set("architecture", val(std::string("bert")));
    info.set("name", val(name.empty() ? id : name));
    info.set("dFf", js(s.d_ff));
    info.set("maxTokens", js(std::min(s.positions, static_cast<int>(kMaxTokens))));
    return info;
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_lab_models) {
    using emscripten::optional_override;
    emscripten::class_<BertImport>("BertImport")
        .function("reads", optional_override([](const BertImport& b) {
                      val out = val::array();
                      for (const BertRead& r : b.reads()) {
                          out.call<void>("push",
                                         object({{"name", val(r.name)},
                                                 {"begin", val(static_cast<double>(r.begin))},
                                                 {"end", val(static_cast<double>(r.end))}}));
                      }
                      return out;
                  }))
        // A chunk (a Uint8Array) of read r's tensor, from byte offset on: copied into the
        // import's staging buffer, then put.
        .function("put", optional_override(
                             [](BertImport& b, double read, double offset, const val& chunk) {
                                 return guarded([&] {
                                     const auto size = chunk["length"].as<std::size_t>();
                                     val(emscripten::typed_memory_view(size, b.staging(size)))
                                         .call<void>("set", chunk);
                                     b.put(static_cast<std::size_t>(integer(read)),
                                           static_cast<std::uint64_t>(integer(offset)), size);
                                     return val::undefined();
                                 });
                             }))
        // The model on the shelf under id: its ModelInfo (bert_info()).
        .function("finish", optional_override([](BertImport& b, const std::string& id) {
                      return guarded([&] {
                          const std::string name = b.name();
                          const EncoderShape s = b.shape();
                          return bert_info(shelf().add(id, b.finish()), id, name, s);
                      });
                  }));
    // A model file of version 4 (bert.hpp's save_bert_model) on the shelf under id: its ModelInfo.
    emscripten::function(
        "openBertModelFile", optional_override([](const std::string& id, const val& bytes) {
            return guarded([&] {
                check_model_id(id);
                std::string name;
                std::optional<TrainedModel> model;
                {  // the file's bytes freed before the model is shelved
                    const std::string data = bytes_of(bytes);
                    model.emplace(load_bert_model(
                        reinterpret_cast<const std::uint8_t*>(data.data()), data.size(), name));
                }
                const EncoderShape s = model->params.shape;
                return bert_info(shelf().add(id, std::move(*model)), id, name, s);
            });
        }));
    // The model under id (an imported checkpoint) as a version 4 model file (a Uint8Array), given
    // the files it was imported from; int8: its matrices as int8 rows.
    emscripten::function(
        "saveBertModel", optional_override([](const std::string& id, const val& config,
                                              const val& vocab, const val& tokenizer, bool int8) {
            return guarded([&] {
                const auto model = shelf().trained(id);
                if (!model) throw Error("invalid_argument", "no imported model is called " + id);
                const std::vector<std::uint8_t> out = save_bert_model(
                    {bytes_of(config), bytes_of(vocab), bytes_of(tokenizer)}, *model, int8);
                return val(emscripten::typed_memory_view(out.size(), out.data()))
                    .call<val>("slice");
            });
        }));
    emscripten::function("bertHeaderEnd", optional_override([](const val& first, double size) {
                             return guarded([&] {
                                 const std::string head = bytes_of(first);
                                 return val(static_cast<double>(BertImport::header_end(
                                     reinterpret_cast<const std::uint8_t*>(head.data()),
                                     head.size(), static_cast<std::uint64_t>(integer(size)))));
                             });
                         }));
    // The id it will have, config, vocab, tokenizer_config (or an empty array), the file's
    // header bytes, its size.
    emscripten::function(
        "bertImport",
        optional_override([](const std::string& id, const val& config, const val& vocab,
                             const val& tokenizer, const val& head, double size) {
            return guarded([&] {
                check_model_id(id);  // before any weight is read
                const std::string first = bytes_of(head);
                return val(BertImport({bytes_of(config), bytes_of(vocab), bytes_of(tokenizer)},
                                      reinterpret_cast<const std::uint8_t*>(first.data()),
                                      first.size(), static_cast<std::uint64_t>(integer(size))));
            });
        }));
    emscripten::function("unloadModel", optional_override([](const std::string& id) {
                             return guarded([&] {
                                 shelf().remove(id);
                                 return val::undefined();
                             });
                         }));
}

#include "attention/model_shelf.hpp"

#include <algorithm>

#include "attention/config.hpp"
#include "attention/error.hpp"
#include "attention/tokenizer.hpp"

namespace attention {

ModelInfo random_model_info() {
    const Config c;
    return {std::string(kRandomModel), false,     1, 1, static_cast<int>(c.d_model),
            static_cast<int>(c.d_k),   kVocabSize};
}

void check_model_id(const std::string& id) {
    const bool valid_id =
        !id.empty() && id.size() <= 32 && id != kRandomModel &&
        std::all_of(id.begin(), id.end(), [](char c) {
            return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
        });
    if (!valid_id) {
        throw Error("invalid_argument",
                    "a model id is 1 to 32 of a–z, 0–9, '-' and '_', and not \"random\"; got \"" +
                        id.substr(0, 40) + "\"",
                    {{"id", id.substr(0, 40)}});
    }
}

ModelInfo ModelShelf::add(std::string id, const std::uint8_t* data, std::size_t size) {
    check_model_id(id);
    return put(std::move(id),
               std::make_shared<const TrainedModel>(load_model(data, size, Embeddings::int8_rows)));
}

ModelInfo ModelShelf::add(std::string id, TrainedModel model) {
    check_model_id(id);
    return put(std::move(id), std::make_shared<const TrainedModel>(std::move(model)));
}

ModelInfo ModelShelf::put(std::string id, std::shared_ptr<const TrainedModel> model) {
    const EncoderShape& s = model->params.shape;
    ModelInfo info{id, true, s.layers, s.heads, s.d_model, s.d_k(), s.vocab, s.embedding};
    const auto same = std::find_if(models_.begin(), models_.end(),
                                   [&](const auto& m) { return m.first.id == id; });
    if (same != models_.end()) {
        *same = {info, std::move(model)};
    } else {
        models_.emplace_back(info, std::move(model));
    }
    return info;
}

void ModelShelf::remove(std::string_view id) {
    trained(id);  // throws for an id not here
    models_.erase(std::find_if(models_.begin(), models_.end(),
                               [&](const auto& m) { return m.first.id == id; }));
}

std::shared_ptr<const TrainedModel> ModelShelf::trained(std::string_view id) const {
    std::string ids;
    for (const auto& [info, model] : models_) {
        if (info.id == id) return model;
        ids += (ids.empty() ? "\"" : ", \"") + info.id + "\"";
    }
    throw Error("unknown_model",
                "there is no trained model \"" + std::string(id) + "\"; " +
                    (ids.empty() ? std::string("none is loaded") : "the trained models are " + ids),
                {{"id", std::string(id)}, {"ids", ids}});
}

std::vector<ModelInfo> ModelShelf::list() const {
    std::vector<ModelInfo> out;
    for (const auto& m : models_) out.push_back(m.first);
    out.push_back(random_model_info());
    return out;
}

}  // namespace attention

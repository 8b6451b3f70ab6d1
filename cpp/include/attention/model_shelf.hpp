// The models a lab can run, by id: the trained models loaded from model files
// (model_file.hpp), and "random", the seeded single head at the article's
// BERT-base sizes (model.hpp), which needs no file and is always there.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "attention/model_file.hpp"

namespace attention {

inline constexpr std::string_view kRandomModel = "random";

// What a caller needs to know of a model before running it.
struct ModelInfo {
    std::string id;
    bool trained = false;
    int layers = 1, heads = 1, d_model = 0, d_k = 0, vocab_size = 0;
    int embedding = 0;  // a factorised embedding's width (EncoderShape::embedding); 0: none
};

// The seeded model at the default Config (d_model 768, d_k 64, hash ids).
ModelInfo random_model_info();

// Throws attention::Error ("invalid_argument") unless id can name a loaded model: 1 to 32 of
// a–z, 0–9, '-', '_', and not "random".
void check_model_id(const std::string& id);

class ModelShelf {
public:
    // Loads a model file under id (1 to 32 of a–z, 0–9, '-', '_', not
    // "random"), replacing a model of that id. Throws attention::Error:
    // "invalid_model" for a damaged file (load_model()), "invalid_argument"
    // for a bad id. A failed load leaves the shelf as it was.
    ModelInfo add(std::string id, const std::uint8_t* data, std::size_t size);
    // A model already read (an imported checkpoint's), under id as above.
    ModelInfo add(std::string id, TrainedModel model);
    // Frees the trained model of this id (a run that holds it keeps it until it goes); throws
    // attention::Error ("unknown_model") as trained() does.
    void remove(std::string_view id);

    // The trained model of this id; throws attention::Error ("unknown_model")
    // naming the trained models there are.
    std::shared_ptr<const TrainedModel> trained(std::string_view id) const;

    // The trained models in the order they were added, then "random".
    std::vector<ModelInfo> list() const;

private:
    ModelInfo put(std::string id, std::shared_ptr<const TrainedModel> model);
    std::vector<std::pair<ModelInfo, std::shared_ptr<const TrainedModel>>> models_;
};

}  // namespace attention

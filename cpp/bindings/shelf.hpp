// The models an instance of the core can run (bindings.cpp's, and an imported checkpoint's
// module adds to it: bert_bindings.cpp): one shelf for every binding file linked together.
#pragma once

#include "attention/model_shelf.hpp"

namespace attention_binding {

inline attention::ModelShelf& shelf() {
    static attention::ModelShelf models;
    return models;
}

}  // namespace attention_binding

// Every intermediate of one attention run, under the stage ids used everywhere
// (C++ fields, binding, JavaScript, CSS, tests). n = number of tokens.
#pragma once

#include <array>
#include <memory>
#include <string_view>
#include <vector>

#include "attention/config.hpp"
#include "attention/matrix.hpp"
#include "attention/params.hpp"
#include "attention/tokenizer.hpp"

namespace attention {

struct Trace {
    Config config;              // the validated configuration that produced it
    std::vector<Token> tokens;  // n tokens, [CLS] … [SEP]

    Matrix embeddings;  // n × d_model   token embedding rows
    Matrix positional;  // n × d_model   sinusoidal positions (zeros when off)
    Matrix x;           // n × d_model   embeddings + positional
    // The head's parameters (stages wq, wk, wv: d_model × d_k; bq, bk, bv:
    // 1 × d_k), shared with the model that ran, not copied into every trace.
    std::shared_ptr<const HeadParams> head;
    Matrix q, k, v;  // n × d_k       x·W + b
    Matrix scores;   // n × n         Q·Kᵀ
    Matrix scaled;   // n × n         scores / √d_k (= scores when scale is off)
    Matrix masked;   // n × n         scaled, −∞ above the diagonal when causal
    Matrix weights;  // n × n         row-wise softmax of masked
    Matrix output;   // n × d_k       weights · V

    // What every score is divided by: √d_k when scaling is on, else 1.
    float divisor() const;

    // The stage with this id; throws attention::Error ("unknown_stage")
    // listing the valid ids otherwise.
    const Matrix& stage(std::string_view id) const;
};

// Every stage id, in pipeline order.
inline constexpr std::array<std::string_view, 17> kStageNames = {
    "embeddings", "positional", "x", "wq",     "wk",     "wv",     "bq",      "bk",     "bv",
    "q",          "k",          "v", "scores", "scaled", "masked", "weights", "output",
};

}  // namespace attention

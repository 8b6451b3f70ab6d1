// What reading a BERT checkpoint (bert.cpp) and its model file (bert_file.cpp) share: the
// config, the tokenizer's settings and the vocabulary as Hugging Face writes them, the weights'
// size check and their allocation (bert_common.cpp). Internal to the core.
#pragma once

#include <string>
#include <vector>

#include "attention/bert_tokenizer.hpp"
#include "attention/encoder.hpp"
#include "attention/error.hpp"
#include "json.hpp"

namespace attention::bert_detail {

[[noreturn]] ATTENTION_COLD void fail(const std::string& code, const std::string& message,
                                      Error::Params params = {});
// A JSON object, or model_bad_json naming `what`.
json::Value object_of(const std::string& text, const std::string& what);
// config.json's shape; model_not_bert, model_heads, model_shape for what it cannot be.
EncoderShape shape_of(const json::Value& config);
// tokenizer_config.json's settings (BertTokenizer's defaults for an empty text).
BertTextRules rules_of(const std::string& text);
// vocab.txt's lines as Hugging Face's load_vocab reads them: each without its "\n".
std::vector<std::string> vocab_lines(const std::string& text);

// The most bytes of weights an import asks for: the checkpoints' module's memory is at most 2 GiB
// (CMakeLists.txt), with room left for a run's activations.
constexpr double kMostBytes = 1.75 * 1024 * 1024 * 1024;
// The model's float32 weights.
double floats_of(const EncoderShape& s);
[[noreturn]] ATTENTION_COLD void too_large(double bytes);
// The params an imported checkpoint fills (every block but the layers' matrices, which
// packed's panels hold; with_panels: those allocated too, their last panel's padding zero).
// Throws model_too_large when memory runs out.
void allocate(const EncoderShape& s, EncoderParams<float>& p, PackedEncoder& packed,
              bool with_panels);

}  // namespace attention::bert_detail

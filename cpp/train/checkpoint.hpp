// The trainer's own checkpoint: the encoder's shape and every parameter block
// by name, float32, little-endian, after a header:
//   "ALTRAIN1"  8 bytes
//   u32 vocab, d_model, heads, d_ff, layers, blocks
//   per block: u32 name length, name bytes, u32 rows, u32 cols, rows·cols f32 (row-major)
// The vocabulary goes beside it as vocab.txt, one token a line.
#pragma once

#include <string>

#include "encoder.hpp"

namespace attention::train {

void save_checkpoint(const EncoderParams<float>& params, const std::string& path);

// Throws std::runtime_error naming what is wrong with a damaged or foreign file.
EncoderParams<float> load_checkpoint(const std::string& path);

}  // namespace attention::train

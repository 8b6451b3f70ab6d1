// The trained model as one file the page can carry: its vocabulary and its
// params, the weight matrices quantised to int8 with one float scale a row.
// Little-endian throughout:
//   "ALMODEL3" or "ALMODEL2"                     8 bytes (3: a factorised embedding; "ALMODEL1": no
//                                                aliases block, still read)
//   u32 vocab, d_model, heads, d_ff, layers      the encoder's shape
//   u32 embedding                                version 3 only: its width E (> 0)
//   u32 bytes, then that many bytes of UTF-8      the vocabulary, one token a line
//   u32 bytes, then that many bytes of UTF-8      the aliases, "typed\ttoken" a line (Vocabulary)
//   per block, in EncoderParams::for_each order:
//     u32 rows, u32 cols, u8 kind
//     kind 0: rows·cols f32                       (one-row blocks: biases, LayerNorm)
//     kind 1: rows × (f32 scale, cols i8)         value = scale · q, |q| ≤ levels ≤ 127 (the
//                                                 weight matrices, and the decoder's bias at 127)
//   u32 FNV-1a of every byte before it            a damaged file is refused
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "attention/bytes.hpp"
#include "attention/encoder.hpp"
#include "attention/vocabulary.hpp"

namespace attention {

struct TrainedModel {
    Vocabulary vocabulary;
    EncoderParams<float> params;
    // params packed for the kernels (load_model() packs them; null
    // for a model built in memory, whose runs pack per product).
    std::shared_ptr<const PackedEncoder> packed;
};

// The file's bytes for params and their vocabulary (whose size must be the
// params' vocab). Each row of a weight matrix is quantised to the integers
// −levels … levels (1 … 127): error at most half a step, |row max| / (2·levels);
// the token embeddings (the largest block) to ±embedding_levels (0: levels).
// Fewer levels leave the bytes less varied, so the file gzips smaller.
std::vector<std::uint8_t> save_model(const EncoderParams<float>& params,
                                     const Vocabulary& vocabulary, int levels = 127,
                                     int embedding_levels = 0);

// A matrix as the file's kind-1 block body: each row one f32 scale, then its entries as int8
// levels −levels … levels (1 … 127). read_block_rows() reads m's rows back from either kind
// (int8: kind 1, else kind 0's f32s) and says whether every entry is a finite number.
void write_int8_rows(ByteWriter& w, const Mat<float>& m, int levels);
bool read_block_rows(ByteReader& r, const std::string& name, bool int8, Mat<float>& m);

// The FNV-1a hash a model file ends with, of its bytes before it.
std::uint32_t model_checksum(const std::uint8_t* data, std::size_t size);

// The encoder's shape as the model file and the trainer's checkpoints store
// it: five u32 (vocab, d_model, heads, d_ff, layers), then the embedding's width
// when with_embedding. read_shape() calls fail (which throws) for a shape
// shape_problem() rejects.
void write_shape(ByteWriter& w, const EncoderShape& shape, bool with_embedding);
EncoderShape read_shape(ByteReader& r, const ByteReader::Fail& fail, bool with_embedding);

// Throws attention::Error ("invalid_model") naming what is wrong: not a model
// file, another version, a shape out of range, a block or the vocabulary cut
// short, a checksum that does not match, bytes left over.
// With Embeddings::int8_rows the token embeddings stay as the file's int8 rows in `packed`
// (PackedEncoder::tok_rows) and params.tok stays empty: for a model that is only run (the API's),
// whose load then writes no float of the largest block. Embeddings::floats (a trainer's, a test's)
// writes every block into params.
enum class Embeddings { floats, int8_rows };
TrainedModel load_model(const std::uint8_t* data, std::size_t size,
                        Embeddings embeddings = Embeddings::floats);

}  // namespace attention

// A Hugging Face BERT checkpoint (bert-base-chinese, bert-base-uncased, any BertForMaskedLM) as
// a model the lab runs: config.json, vocab.txt, tokenizer_config.json when there is one, and
// model.safetensors, read as Hugging Face writes them (docs/models.md).
//
// The safetensors file is read in two steps, so that its bytes need not be in memory at once: the
// constructor reads its header (the u64 length, the JSON), checks every tensor the model needs
// against the config and the file's size and allocates the model; then the caller streams each
// read()'s bytes in, chunk by chunk, through staging() and put(); finish() hands the model over.
// Each weight is kept once, in float32: the layers' matrices only as the kernels' panels
// (PackedEncoder::only_copy), packed straight from the file's [out, in] rows.
//
// Errors (attention::Error), each with its code:
//   model_empty           a 0-byte file
//   model_truncated       a file shorter than its header or its tensors say
//   model_bad_json        config.json, tokenizer_config.json or the header is not JSON of the
//                         expected form
//   model_not_bert        a model_type other than "bert", relative positions, an activation
//                         other than GELU's
//   model_heads           heads that do not divide the hidden size
//   model_shape           a shape out of range, or a tensor whose shape disagrees with the config
//   model_missing_tensor  a tensor the model needs is not in the file
//   model_dtype           a tensor the model needs is not F32, F16 or BF16
//   model_vocab           a vocabulary with fewer or more tokens than the embeddings have rows,
//                         or without one of the five special tokens
//   model_values          a weight that is not a finite number
//   model_too_large       more than memory allows
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "attention/model_file.hpp"

namespace attention {

struct BertFiles {
    std::string config;            // config.json
    std::string vocab;             // vocab.txt
    std::string tokenizer_config;  // tokenizer_config.json, or empty when there is none
};

// One tensor's bytes the model needs: [begin, end) of model.safetensors.
struct BertRead {
    std::string name;  // as the file names it
    std::uint64_t begin = 0, end = 0;
};

class BertImport {
public:
    // How many of the file's first bytes hold its header (8 + the u64 length), from its first
    // `size` bytes (at least 8 unless the file is shorter). Throws model_empty, model_truncated.
    static std::uint64_t header_end(const std::uint8_t* first, std::size_t size,
                                    std::uint64_t file_size);

    // first: the file's first bytes, header_end() of them or more; file_size: its whole size.
    BertImport(const BertFiles& files, const std::uint8_t* first, std::size_t size,
               std::uint64_t file_size);
    BertImport(BertImport&&) noexcept;
    BertImport& operator=(BertImport&&) noexcept;
    ~BertImport();

    // The tensors to read, in the file's order.
    const std::vector<BertRead>& reads() const;
    const EncoderShape& shape() const;
    // config.json's _name_or_path (at most 100 bytes), or "" when it names none.
    const std::string& name() const;
    // A buffer of at least `bytes` (valid until the next call) for the next chunk.
    std::uint8_t* staging(std::size_t bytes);
    // The staged chunk: bytes [offset, offset + bytes) of read r's tensor (offset from its
    // begin), a whole number of its elements. Throws invalid_argument for a chunk outside it,
    // model_values for a weight that is not finite.
    void put(std::size_t r, std::uint64_t offset, std::size_t bytes);
    // The model, once every read's bytes are in; throws invalid_argument naming a tensor whose
    // bytes are not all in. The import is empty afterwards.
    TrainedModel finish();

private:
    struct State;
    std::unique_ptr<State> state_;
};

// The whole safetensors file in memory: every read put at once (tests).
TrainedModel import_bert(const BertFiles& files, const std::uint8_t* data, std::size_t size);

// An imported checkpoint as the project's model file, version 4 (npm run import-model writes it,
// so a course can host one file; core.loadModel opens it). Little-endian:
//   "ALMODEL4"                                     8 bytes
//   u32 bytes + config.json, u32 bytes + vocab.txt, u32 bytes + tokenizer_config.json (0: none)
//   per block, in EncoderParams::for_each order:   as model_file.hpp's: u32 rows, u32 cols,
//     u8 kind (0: rows·cols f32; 1: rows × (f32 scale, cols i8)); a layer's matrices as x·W
//     reads them (in × out)
//   u32 FNV-1a of every byte before it
// The weights are float32 (kind 0) unless int8, which keeps the matrices as int8 rows (about a
// quarter of the bytes; each entry within half a step, |row max| / 254, of the float).
// files must be those the model was imported from.
std::vector<std::uint8_t> save_bert_model(const BertFiles& files, const TrainedModel& model,
                                          bool int8);
// Such a file back; model_name is config.json's _name_or_path ("" when none). Throws
// invalid_model for a file that is damaged or not one, and the import's codes for what its
// config and vocabulary say (model_shape, model_too_large …).
TrainedModel load_bert_model(const std::uint8_t* data, std::size_t size, std::string& model_name);
// Whether these bytes start as a version 4 model file.
bool is_bert_model_file(const std::uint8_t* data, std::size_t size);

}  // namespace attention

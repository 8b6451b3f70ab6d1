// An imported checkpoint as the project's model file, version 4 (bert.hpp's save_bert_model,
// load_bert_model): npm run import-model writes it, core.loadModel opens it.
#include <cstring>
#include <memory>
#include <optional>

#include "attention/bert.hpp"
#include "attention/bytes.hpp"
#include "attention/kernels.hpp"
#include "bert_common.hpp"

namespace attention {

using namespace bert_detail;  // NOLINT: the shared reading of configs and vocabularies
using json::Value;
using Kind = Value::Kind;

namespace {

constexpr char kFileMagic[8] = {'A', 'L', 'M', 'O', 'D', 'E', 'L', '4'};

[[noreturn]] ATTENTION_COLD void damaged(const std::string& what) {
    fail("invalid_model", "the model file is damaged or not a BERT model file: " + what);
}

// A layer's weight matrix by its params name ("layer3.w1"): its panels, else null.
template <class Packed>  // PackedEncoder, const or not
auto layer_panels(Packed& packed, const std::string& name) -> decltype(&packed.layers[0].wq) {
    if (name.rfind("layer", 0) != 0) return nullptr;
    const std::size_t dot = name.find('.');
    const std::size_t l = std::stoul(name.substr(5, dot - 5));
    const std::string w = name.substr(dot + 1);
    auto& P = packed.layers[l];
    for (const auto& [which, panels] : {std::pair{"wq", &P.wq},
                                        {"wk", &P.wk},
                                        {"wv", &P.wv},
                                        {"wo", &P.wo},
                                        {"w1", &P.w1},
                                        {"w2", &P.w2}}) {
        if (w == which) return panels;
    }
    return nullptr;
}

void write_text(ByteWriter& w, const std::string& text) {
    w.u32(static_cast<std::uint32_t>(text.size()));
    w.bytes(text.data(), text.size());
}

}  // namespace

bool is_bert_model_file(const std::uint8_t* data, std::size_t size) {
    return size >= 8 && std::memcmp(data, kFileMagic, 8) == 0;
}

std::vector<std::uint8_t> save_bert_model(const BertFiles& files, const TrainedModel& model,
                                          bool int8) {
    if (!model.packed || !model.packed->only_copy)
        fail("invalid_argument", "only an imported checkpoint is written as a BERT model file");
    ByteWriter w;
    w.bytes(kFileMagic, 8);
    for (const std::string* text : {&files.config, &files.vocab, &files.tokenizer_config})
        write_text(w, *text);
    model.params.for_each([&](const std::string& name, const Mat<float>& m) {
        const kernels::Panels* panels = layer_panels(*model.packed, name);
        const Mat<float> unpacked =
            panels ? kernels::unpack_columns(*panels, 0, panels->n) : Mat<float>();
        const Mat<float>& block = panels ? unpacked : m;
        const bool quantised = int8 && block.rows() > 1;
        w.u32(static_cast<std::uint32_t>(block.rows()));
        w.u32(static_cast<std::uint32_t>(block.cols()));
        w.u8(quantised ? 1 : 0);
        if (quantised) {
            write_int8_rows(w, block, 127);
        } else {
            w.f32s(block);
        }
    });
    w.u32(model_checksum(w.out.data(), w.out.size()));
    return w.out;
}

TrainedModel load_bert_model(const std::uint8_t* data, std::size_t size, std::string& model_name) {
    if (!is_bert_model_file(data, size)) damaged("it does not start as a version 4 model file");
    if (size < 12) damaged("it is too short");
    const ByteReader::Fail fail_at = [](const std::string& what) {
        damaged(what + " is cut short");
    };
    if (model_checksum(data, size - 4) !=
        ByteReader(data + size - 4, 4, fail_at).u32("the checksum"))
        damaged("its checksum does not match");
    ByteReader r(data + 8, size - 12, fail_at);
    BertFiles files;
    for (std::string* text : {&files.config, &files.vocab, &files.tokenizer_config}) {
        const std::uint32_t n = r.u32("a text");
        text->assign(reinterpret_cast<const char*>(r.take(n, "a text")), n);
    }
    const Value config = object_of(files.config, "config.json");
    const EncoderShape s = shape_of(config);
    model_name.clear();
    if (const Value* name = config.find("_name_or_path"); name && name->is(Kind::string))
        model_name = name->string.substr(0, 100);
    std::vector<std::string> tokens = vocab_lines(files.vocab);
    if (tokens.size() != static_cast<std::size_t>(s.vocab))
        damaged("its vocabulary does not have the config's size");
    if (floats_of(s) * 4 > kMostBytes) too_large(floats_of(s) * 4);
    TrainedModel model{
        Vocabulary(std::move(tokens), bert_splitter(rules_of(files.tokenizer_config))),
        EncoderParams<float>(), nullptr};
    EncoderParams<float>& p = model.params;
    PackedEncoder packed;
    allocate(s, p, packed, false);
    try {
        p.for_each([&](const std::string& name, Mat<float>& m) {
            kernels::Panels* panels = layer_panels(packed, name);
            Mat<float> weights;  // a layer's matrix (in × out), read, then packed
            if (panels) weights.resize(panels->k, panels->n);
            Mat<float>& block = panels ? weights : m;
            const std::uint32_t rows = r.u32(name), cols = r.u32(name);
            if (rows != static_cast<std::uint32_t>(block.rows()) ||
                cols != static_cast<std::uint32_t>(block.cols()))
                damaged("block " + name + " has the wrong shape");
            const std::uint8_t kind = r.u8(name);
            if (kind > 1) damaged("block " + name + " is stored the wrong way");
            if (!read_block_rows(r, name, kind == 1, block))
                damaged("block " + name + " holds a value that is not a finite number");
            if (panels) *panels = kernels::pack(weights);
        });
    } catch (const std::bad_alloc&) {
        too_large(floats_of(s) * 4);
    }
    if (r.left() != 0) damaged("bytes are left over after the last block");
    packed.only_copy = true;
    model.packed = std::make_shared<const PackedEncoder>(std::move(packed));
    return model;
}

}  // namespace attention

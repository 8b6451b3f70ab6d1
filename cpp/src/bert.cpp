#include "attention/bert.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <new>
#include <optional>
#include <tuple>

#include "attention/bert_tokenizer.hpp"
#include "attention/error.hpp"
#include "attention/kernels.hpp"
#include "bert_common.hpp"
#include "json.hpp"

namespace attention {

using namespace bert_detail;  // NOLINT: the shared reading of configs and vocabularies

namespace {

using json::Value;
using Kind = Value::Kind;

// A tensor's name as the model's own: without the "bert." prefix, LayerNorm's gamma and beta as
// weight and bias.
std::string canonical(std::string name) {
    if (name.rfind("bert.", 0) == 0) name.erase(0, 5);
    for (const auto& [old_name, new_name] :
         {std::pair<const char*, const char*>{".gamma", ".weight"}, {".beta", ".bias"}}) {
        const std::size_t n = std::strlen(old_name);
        if (name.size() > n && name.compare(name.size() - n, n, old_name) == 0 &&
            name.find("LayerNorm") != std::string::npos)
            name.replace(name.size() - n, n, new_name);
    }
    return name;
}

enum class DType { f32, f16, bf16 };

float half_to_float(std::uint16_t h) {
    const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000) << 16;
    std::uint32_t exponent = (h >> 10) & 0x1F, mantissa = h & 0x3FF, bits;
    if (exponent == 0x1F) {
        bits = sign | 0x7F800000u | (mantissa << 13);
    } else if (exponent != 0) {
        bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
    } else if (mantissa == 0) {
        bits = sign;
    } else {  // subnormal: normalise
        exponent = 113;
        while ((mantissa & 0x400) == 0) {
            mantissa <<= 1;
            --exponent;
        }
        bits = sign | (exponent << 23) | ((mantissa & 0x3FF) << 13);
    }
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

}  // namespace

struct BertImport::State {
    // Where a tensor's elements go.
    struct Target {
        enum class How { rows, transposed, panels } how = How::rows;
        float* rows = nullptr;         // rows: the elements in order
        Mat<float>* matrix = nullptr;  // transposed: [out, in] into in × out
        kernels::Panels* panels = nullptr;
        Eigen::Index out = 0, in = 0;  // the tensor's [out, in]
        DType dtype = DType::f32;
        std::uint64_t bytes_in = 0;  // put so far
    };
    EncoderShape shape;
    std::string name;
    std::uint64_t data_start = 0;
    std::vector<BertRead> reads;
    std::vector<Target> targets;  // one per read
    std::vector<std::uint8_t> staging;
    std::optional<Vocabulary> vocabulary;
    EncoderParams<float> params;
    PackedEncoder packed;

    std::size_t element_size(std::size_t r) const { return targets[r].dtype == DType::f32 ? 4 : 2; }
};

std::uint64_t BertImport::header_end(const std::uint8_t* first, std::size_t size,
                                     std::uint64_t file_size) {
    if (file_size == 0)
        fail("model_empty", "model.safetensors is empty (0 bytes)",
             {{"file", "model.safetensors"}});
    if (file_size < 8 || size < 8)
        fail("model_truncated", "model.safetensors is cut short: it has no header length");
    std::uint64_t n = 0;
    for (int k = 7; k >= 0; --k) n = (n << 8) | first[k];
    if (n > file_size - 8) {
        fail("model_truncated",
             "model.safetensors is cut short: its header says " + std::to_string(n) +
                 " bytes, past the end of the file (" + std::to_string(file_size) + " bytes)",
             {{"header", std::to_string(n)}, {"size", std::to_string(file_size)}});
    }
    return 8 + n;
}

BertImport::BertImport(const BertFiles& files, const std::uint8_t* first, std::size_t size,
                       std::uint64_t file_size)
    : state_(std::make_unique<State>()) {
    State& st = *state_;
    const std::uint64_t end = header_end(first, size, file_size);
    if (size < end) fail("invalid_argument", "the file's header was not given whole");
    if (files.config.empty())
        fail("model_empty", "config.json is empty (0 bytes)", {{"file", "config.json"}});
    if (files.vocab.empty())
        fail("model_empty", "vocab.txt is empty (0 bytes)", {{"file", "vocab.txt"}});
    const Value config = object_of(files.config, "config.json");
    st.shape = shape_of(config);
    if (const Value* name = config.find("_name_or_path"); name && name->is(Kind::string))
        st.name = name->string.substr(0, 100);
    const EncoderShape& s = st.shape;
    const BertTextRules rules = rules_of(files.tokenizer_config);
    std::vector<std::string> tokens = vocab_lines(files.vocab);
    if (tokens.size() != static_cast<std::size_t>(s.vocab)) {
        fail("model_vocab",
             "vocab.txt has " + std::to_string(tokens.size()) + " tokens, the embeddings " +
                 std::to_string(s.vocab) + " rows: they must be as many",
             {{"tokens", std::to_string(tokens.size())}, {"rows", std::to_string(s.vocab)}});
    }
    st.vocabulary.emplace(std::move(tokens), bert_splitter(rules));

    // The header: {"name": {"dtype", "shape", "data_offsets"}, "__metadata__": {...}}
    const Value header = object_of(
        std::string(reinterpret_cast<const char*>(first) + 8, static_cast<std::size_t>(end - 8)),
        "model.safetensors");
    st.data_start = end;
    struct Entry {
        std::string name, dtype;
        std::vector<std::int64_t> shape;
        std::uint64_t begin = 0, end = 0;
    };
    std::map<std::string, Entry> entries;  // by canonical name
    for (const auto& [name, v] : header.object) {
        if (name == "__metadata__") continue;
        const Value* dtype = v.find("dtype");
        const Value* shape = v.find("shape");
        const Value* offsets = v.find("data_offsets");
        const auto whole_number = [](const Value& x) {
            return x.is(Kind::number) && x.number >= 0 && x.number == std::floor(x.number) &&
                   x.number < 9.007199254740992e15;
        };
        bool ok = v.is(Kind::object) && dtype && dtype->is(Kind::string) && shape &&
                  shape->is(Kind::array) && offsets && offsets->is(Kind::array) &&
                  offsets->array.size() == 2;
        for (const Value* list : {shape, offsets}) {
            if (!ok) break;
            for (const Value& x : list->array) ok = ok && whole_number(x);
        }
        if (!ok) {
            fail("model_bad_json",
                 "model.safetensors's header: tensor \"" + name.substr(0, 80) +
                     "\" lacks its dtype, shape or data_offsets",
                 {{"file", "model.safetensors"}});
        }
        Entry e{name,
                dtype->string,
                {},
                static_cast<std::uint64_t>(offsets->array[0].number),
                static_cast<std::uint64_t>(offsets->array[1].number)};
        for (const Value& x : shape->array) e.shape.push_back(static_cast<std::int64_t>(x.number));
        if (e.end < e.begin || e.end > file_size - end) {
            fail("model_truncated",
                 "model.safetensors is cut short: tensor " + name.substr(0, 80) +
                     " lies past the end of the file",
                 {{"tensor", name.substr(0, 80)}});
        }
        entries[canonical(name)] = std::move(e);
    }

    // What the model needs, where each goes: checked first (bind false: nothing is allocated
    // yet), then, once its memory is there, bound to it.
    EncoderParams<float>& p = st.params;
    p.shape = s;
    const auto d = static_cast<Eigen::Index>(s.d_model), ff = static_cast<Eigen::Index>(s.d_ff);
    bool bind = false;
    const auto need = [&](const std::string& name, std::vector<std::int64_t> shape,
                          State::Target target, const char* alternative = nullptr) {
        auto it = entries.find(name);
        if (it == entries.end() && alternative) it = entries.find(alternative);
        if (it == entries.end()) {
            fail("model_missing_tensor", "model.safetensors has no tensor " + name,
                 {{"tensor", name}});
        }
        const Entry& e = it->second;
        std::size_t element = 4;
        if (e.dtype == "F32") {
            target.dtype = DType::f32;
        } else if (e.dtype == "F16" || e.dtype == "BF16") {
            target.dtype = e.dtype == "F16" ? DType::f16 : DType::bf16;
            element = 2;
        } else {
            fail("model_dtype",
                 "tensor " + e.name.substr(0, 80) + " is " + e.dtype.substr(0, 20) +
                     ": the lab reads F32, F16 and BF16",
                 {{"tensor", e.name.substr(0, 80)}, {"dtype", e.dtype.substr(0, 20)}});
        }
        // token_type_embeddings: only type 0's row is read
        const bool first_row_only = name == "embeddings.token_type_embeddings.weight";
        std::string expected, got;
        for (const std::int64_t x : shape)
            expected += (expected.empty() ? "" : " × ") + std::to_string(x);
        for (const std::int64_t x : e.shape) got += (got.empty() ? "" : " × ") + std::to_string(x);
        const bool fits = first_row_only
                              ? e.shape.size() == 2 && e.shape[0] >= 1 && e.shape[1] == shape[1]
                              : e.shape == shape;
        if (!fits) {
            fail("model_shape",
                 "tensor " + e.name.substr(0, 80) + " is " + (got.empty() ? "a scalar" : got) +
                     ", the config says " +
                     (first_row_only ? "types × " + std::to_string(d) : expected),
                 {{"tensor", e.name.substr(0, 80)}, {"shape", got}, {"expected", expected}});
        }
        std::uint64_t count = 1;
        for (const std::int64_t x : e.shape) count *= static_cast<std::uint64_t>(x);
        if (e.end - e.begin != count * element) {
            fail("model_shape",
                 "tensor " + e.name.substr(0, 80) + "'s bytes do not match its shape and dtype",
                 {{"tensor", e.name.substr(0, 80)}, {"shape", got}, {"expected", expected}});
        }
        if (!bind) return;
        const std::uint64_t begin = st.data_start + e.begin;
        const std::uint64_t bytes =
            first_row_only ? static_cast<std::uint64_t>(d) * element : e.end - e.begin;
        st.reads.push_back({e.name, begin, begin + bytes});
        st.targets.push_back(target);
    };
    const auto rows = [](Mat<float>& m) {
        State::Target t;
        t.rows = m.data();
        return t;
    };
    using How = State::Target::How;
    const auto panels = [](kernels::Panels& out, Eigen::Index n_out, Eigen::Index n_in) {
        State::Target t;
        t.how = How::panels;
        t.panels = &out;
        t.out = n_out;
        t.in = n_in;
        return t;
    };
    const auto plan = [&] {
        need("embeddings.word_embeddings.weight", {s.vocab, d}, rows(p.tok));
        need("embeddings.position_embeddings.weight", {s.positions, d}, rows(p.pos));
        need("embeddings.token_type_embeddings.weight", {1, d}, rows(p.type0));
        need("embeddings.LayerNorm.weight", {d}, rows(p.ln0_gain));
        need("embeddings.LayerNorm.bias", {d}, rows(p.ln0_bias));
        for (int l = 0; l < s.layers; ++l) {
            const std::string at = "encoder.layer." + std::to_string(l) + ".";
            LayerParams<float>& L = p.layers[static_cast<std::size_t>(l)];
            PackedEncoder::Layer& P = st.packed.layers[static_cast<std::size_t>(l)];
            need(at + "attention.self.query.weight", {d, d}, panels(P.wq, d, d));
            need(at + "attention.self.query.bias", {d}, rows(L.bq));
            need(at + "attention.self.key.weight", {d, d}, panels(P.wk, d, d));
            need(at + "attention.self.key.bias", {d}, rows(L.bk));
            need(at + "attention.self.value.weight", {d, d}, panels(P.wv, d, d));
            need(at + "attention.self.value.bias", {d}, rows(L.bv));
            need(at + "attention.output.dense.weight", {d, d}, panels(P.wo, d, d));
            need(at + "attention.output.dense.bias", {d}, rows(L.bo));
            need(at + "attention.output.LayerNorm.weight", {d}, rows(L.ln1_gain));
            need(at + "attention.output.LayerNorm.bias", {d}, rows(L.ln1_bias));
            need(at + "intermediate.dense.weight", {ff, d}, panels(P.w1, ff, d));
            need(at + "intermediate.dense.bias", {ff}, rows(L.b1));
            need(at + "output.dense.weight", {d, ff}, panels(P.w2, d, ff));
            need(at + "output.dense.bias", {d}, rows(L.b2));
            need(at + "output.LayerNorm.weight", {d}, rows(L.ln2_gain));
            need(at + "output.LayerNorm.bias", {d}, rows(L.ln2_bias));
        }
        State::Target transposed;
        transposed.how = How::transposed;
        transposed.matrix = &p.head_w;
        transposed.out = d;
        transposed.in = d;
        need("cls.predictions.transform.dense.weight", {d, d}, transposed);
        need("cls.predictions.transform.dense.bias", {d}, rows(p.head_b));
        need("cls.predictions.transform.LayerNorm.weight", {d}, rows(p.head_ln_gain));
        need("cls.predictions.transform.LayerNorm.bias", {d}, rows(p.head_ln_bias));
        need("cls.predictions.bias", {s.vocab}, rows(p.out_bias), "cls.predictions.decoder.bias");
    };
    p.layers.resize(static_cast<std::size_t>(s.layers));
    st.packed.layers.resize(static_cast<std::size_t>(s.layers));
    // float32 bytes, weighed before any is asked for (a wasm memory never shrinks)
    const double floats = floats_of(s);
    if (floats * 4 > kMostBytes) too_large(floats * 4);
    plan();  // every tensor there, of the config's shape, before any memory is taken
    allocate(s, p, st.packed, true);
    bind = true;
    plan();
    // In the file's order, so a stream reads it front to back.
    std::vector<std::size_t> order(st.reads.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return st.reads[a].begin < st.reads[b].begin; });
    std::vector<BertRead> reads;
    std::vector<State::Target> targets;
    for (const std::size_t k : order) {
        reads.push_back(st.reads[k]);
        targets.push_back(st.targets[k]);
    }
    st.reads = std::move(reads);
    st.targets = std::move(targets);
}

BertImport::BertImport(BertImport&&) noexcept = default;
BertImport& BertImport::operator=(BertImport&&) noexcept = default;
BertImport::~BertImport() = default;

const std::vector<BertRead>& BertImport::reads() const { return state_->reads; }
const EncoderShape& BertImport::shape() const { return state_->shape; }
const std::string& BertImport::name() const { return state_->name; }

std::uint8_t* BertImport::staging(std::size_t bytes) {
    try {
        if (state_->staging.size() < bytes) state_->staging.resize(bytes);
    } catch (const std::bad_alloc&) {
        fail("model_too_large", "the model is larger than this page's memory allows");
    }
    return state_->staging.data();
}

void BertImport::put(std::size_t r, std::uint64_t offset, std::size_t bytes) {
    State& st = *state_;
    if (r >= st.reads.size()) fail("invalid_argument", "there is no read " + std::to_string(r));
    State::Target& t = st.targets[r];
    const std::size_t size = st.element_size(r);
    const std::uint64_t length = st.reads[r].end - st.reads[r].begin;
    if (offset % size != 0 || bytes % size != 0 || offset > length || bytes > length - offset ||
        bytes > st.staging.size()) {
        fail("invalid_argument",
             "a chunk of tensor " + st.reads[r].name + " outside it, or not whole elements");
    }
    const std::uint8_t* from = st.staging.data();
    const auto first = static_cast<Eigen::Index>(offset / size);
    const auto count = static_cast<Eigen::Index>(bytes / size);
    bool finite = true;
    const auto value = [&](Eigen::Index k) {
        float v;
        if (t.dtype == DType::f32) {
            std::memcpy(&v, from + k * 4, 4);
        } else {
            std::uint16_t h;
            std::memcpy(&h, from + k * 2, 2);
            if (t.dtype == DType::f16) {
                v = half_to_float(h);
            } else {
                const std::uint32_t bits = static_cast<std::uint32_t>(h) << 16;
                std::memcpy(&v, &bits, 4);
            }
        }
        finite = finite && std::isfinite(v);
        return v;
    };
    switch (t.how) {
        case State::Target::How::rows:
            for (Eigen::Index k = 0; k < count; ++k) t.rows[first + k] = value(k);
            break;
        case State::Target::How::transposed:
            for (Eigen::Index k = 0; k < count; ++k) {
                const Eigen::Index e = first + k;
                (*t.matrix)(e % t.in, e / t.in) = value(k);
            }
            break;
        case State::Target::How::panels: {
            Eigen::Index o = first / t.in, i = first % t.in;
            float* data = t.panels->data.data();
            for (Eigen::Index k = 0; k < count; ++k) {
                data[((o / 8) * t.in + i) * 8 + o % 8] = value(k);
                if (++i == t.in) i = 0, ++o;
            }
            break;
        }
    }
    if (!finite) {
        fail("model_values",
             "tensor " + st.reads[r].name + " holds a value that is not a finite number",
             {{"tensor", st.reads[r].name}});
    }
    t.bytes_in += bytes;
}

TrainedModel BertImport::finish() {
    State& st = *state_;
    for (std::size_t r = 0; r < st.reads.size(); ++r) {
        if (st.targets[r].bytes_in != st.reads[r].end - st.reads[r].begin)
            fail("invalid_argument", "tensor " + st.reads[r].name + " was not read whole");
    }
    st.packed.only_copy = true;
    TrainedModel model{std::move(*st.vocabulary), std::move(st.params),
                       std::make_shared<const PackedEncoder>(std::move(st.packed))};
    state_ = std::make_unique<State>();
    return model;
}

TrainedModel import_bert(const BertFiles& files, const std::uint8_t* data, std::size_t size) {
    BertImport import(files, data, size, size);
    for (std::size_t r = 0; r < import.reads().size(); ++r) {
        const BertRead& read = import.reads()[r];
        const auto bytes = static_cast<std::size_t>(read.end - read.begin);
        std::copy_n(data + read.begin, bytes, import.staging(bytes));
        import.put(r, 0, bytes);
    }
    return import.finish();
}

}  // namespace attention

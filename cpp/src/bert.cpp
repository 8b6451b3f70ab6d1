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
#include "json.hpp"

namespace attention {

namespace {

using json::Value;
using Kind = Value::Kind;

[[noreturn]] ATTENTION_COLD void fail(const std::string& code, const std::string& message,
                                      Error::Params params = {}) {
    throw Error(code, message, std::move(params));
}

// A config field: a whole number (from 1 to most), or `fallback` when absent and given.
int whole(const Value& config, const char* name, int most, int fallback = -1) {
    const Value* v = config.find(name);
    if (!v && fallback >= 0) return fallback;
    if (!v || !v->is(Kind::number) || v->number != std::floor(v->number) || v->number < 1 ||
        v->number > most) {
        fail(v ? "model_shape" : "model_not_bert",
             std::string("config.json's ") + name +
                 (v ? " must be a whole number from 1 to " + std::to_string(most)
                    : " is missing: a BERT config names it"),
             {{"field", name}, {"value", ""}});
    }
    return static_cast<int>(v->number);
}

Value object_of(const std::string& text, const std::string& what) {
    Value v = json::parse(text, "model_bad_json", what);
    if (!v.is(Kind::object))
        fail("model_bad_json", what + " is not a JSON object", {{"file", what}});
    return v;
}

EncoderShape shape_of(const Value& config) {
    if (const Value* type = config.find("model_type");
        type && !(type->is(Kind::string) && type->string == "bert")) {
        fail(
            "model_not_bert",
            "config.json's model_type is " +
                (type->is(Kind::string) ? "\"" + type->string.substr(0, 40) + "\"" : "not a name") +
                ": only BERT's architecture (\"bert\") can be opened",
            {{"field", "model_type"},
             {"value", type->is(Kind::string) ? type->string.substr(0, 40) : ""}});
    }
    if (const Value* p = config.find("position_embedding_type");
        p && !(p->is(Kind::string) && p->string == "absolute")) {
        fail("model_not_bert",
             "config.json's position_embedding_type is not \"absolute\": relative positions are "
             "not BERT-base's",
             {{"field", "position_embedding_type"},
              {"value", p->is(Kind::string) ? p->string.substr(0, 40) : ""}});
    }
    EncoderShape s;
    s.vocab = whole(config, "vocab_size", 1000000);
    s.d_model = whole(config, "hidden_size", 100000);
    s.layers = whole(config, "num_hidden_layers", 1000);
    s.heads = whole(config, "num_attention_heads", 100000);
    s.d_ff = whole(config, "intermediate_size", 1000000);
    s.positions = whole(config, "max_position_embeddings", 100000);
    whole(config, "type_vocab_size", 1000, 2);
    if (s.d_model % s.heads != 0) {
        fail("model_heads",
             "config.json's " + std::to_string(s.heads) + " heads do not divide its hidden size " +
                 std::to_string(s.d_model),
             {{"heads", std::to_string(s.heads)}, {"hidden", std::to_string(s.d_model)}});
    }
    s.layer_norm_eps = 1e-12;
    if (const Value* eps = config.find("layer_norm_eps")) {
        if (!eps->is(Kind::number))
            fail("model_shape", "config.json's layer_norm_eps is not a number");
        s.layer_norm_eps = eps->number;
    }
    s.gelu = Gelu::erf;
    if (const Value* act = config.find("hidden_act")) {
        const std::string name = act->is(Kind::string) ? act->string : "";
        if (name == "gelu_new" || name == "gelu_pytorch_tanh") {
            s.gelu = Gelu::tanh;
        } else if (name != "gelu") {
            fail("model_not_bert",
                 "config.json's hidden_act is \"" + name.substr(0, 40) +
                     "\": the lab computes \"gelu\", \"gelu_new\" and \"gelu_pytorch_tanh\"",
                 {{"field", "hidden_act"}, {"value", name.substr(0, 40)}});
        }
    }
    s.head_transform = true;
    if (const std::string problem = shape_problem(s); !problem.empty())
        fail("model_shape", "the model's shape is out of range: " + problem,
             {{"problem", problem}});
    return s;
}

BertTextRules rules_of(const std::string& text) {
    BertTextRules rules;
    if (text.empty()) return rules;
    const Value config = object_of(text, "tokenizer_config.json");
    const auto flag = [&](const char* name) -> const Value* {
        const Value* v = config.find(name);
        if (v && !v->is(Kind::boolean) && !v->is(Kind::null))
            fail(
                "model_bad_json",
                std::string("tokenizer_config.json's ") + name + " is neither true, false nor null",
                {{"file", "tokenizer_config.json"}});
        return v && v->is(Kind::boolean) ? v : nullptr;
    };
    if (const Value* v = flag("do_lower_case")) rules.lower_case = v->boolean;
    if (const Value* v = flag("strip_accents")) rules.strip_accents = v->boolean;
    if (const Value* v = flag("tokenize_chinese_chars")) rules.chinese_chars = v->boolean;
    return rules;
}

// vocab.txt's lines as Hugging Face's load_vocab reads them: each without its "\n".
std::vector<std::string> vocab_lines(const std::string& text) {
    std::vector<std::string> lines;
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        lines.push_back(text.substr(at, end - at));
        at = end + 1;
    }
    return lines;
}

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

// The most bytes of weights an import asks for: the checkpoints' module's memory is at most 2 GiB
// (CMakeLists.txt), with room left for a run's activations.
constexpr double kMostBytes = 1.75 * 1024 * 1024 * 1024;

// The model's float32 weights.
double floats_of(const EncoderShape& s) {
    const auto d = static_cast<double>(s.d_model), ff = static_cast<double>(s.d_ff);
    return (s.vocab + s.positions + 4) * d + s.layers * (4 * d * d + 2 * d * ff + ff + 9 * d) +
           d * d + s.vocab;
}

[[noreturn]] ATTENTION_COLD void too_large(double bytes) {
    fail("model_too_large",
         "the model is larger than this page's memory allows: its weights take " +
             std::to_string(static_cast<long long>(bytes / (1024 * 1024))) + " MiB",
         {{"mib", std::to_string(static_cast<long long>(bytes / (1024 * 1024)))}});
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

namespace {

// The params an imported checkpoint fills (every block but the layers' matrices, which
// packed's panels hold; with_panels: those allocated too, their last panel's padding zero).
// Throws model_too_large when memory runs out.
void allocate(const EncoderShape& s, EncoderParams<float>& p, PackedEncoder& packed,
              bool with_panels) {
    const Eigen::Index d = s.d_model, ff = s.d_ff;
    p.shape = s;
    p.layers.resize(static_cast<std::size_t>(s.layers));
    packed.layers.resize(static_cast<std::size_t>(s.layers));
    try {
        p.tok.resize(s.vocab, d);
        p.pos.resize(s.positions, d);
        p.type0.resize(1, d);
        p.ln0_gain.resize(1, d), p.ln0_bias.resize(1, d);
        for (int l = 0; l < s.layers; ++l) {
            LayerParams<float>& L = p.layers[static_cast<std::size_t>(l)];
            for (Mat<float>* m : {&L.bq, &L.bk, &L.bv, &L.bo, &L.ln1_gain, &L.ln1_bias, &L.b2,
                                  &L.ln2_gain, &L.ln2_bias})
                m->resize(1, d);
            L.b1.resize(1, ff);
            PackedEncoder::Layer& P = packed.layers[static_cast<std::size_t>(l)];
            for (auto [panel, n_out, n_in] : {std::tuple{&P.wq, d, d},
                                              {&P.wk, d, d},
                                              {&P.wv, d, d},
                                              {&P.wo, d, d},
                                              {&P.w1, ff, d},
                                              {&P.w2, d, ff}}) {
                panel->k = n_in;
                panel->n = n_out;
                if (!with_panels) continue;
                panel->data.resize(static_cast<std::size_t>(((n_out + 7) / 8) * n_in * 8));
                if (n_out % 8 != 0)  // the last panel's padding
                    std::fill(panel->data.end() - n_in * 8, panel->data.end(), 0.0f);
            }
        }
        p.head_w.resize(d, d), p.head_b.resize(1, d);
        p.head_ln_gain.resize(1, d), p.head_ln_bias.resize(1, d);
        p.out_bias.resize(1, s.vocab);
    } catch (const std::bad_alloc&) {
        too_large(floats_of(s) * 4);
    }
}

}  // namespace

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

// What reading a checkpoint and its model file share (bert_common.hpp).
#include "bert_common.hpp"

#include <algorithm>
#include <cmath>
#include <new>
#include <tuple>

namespace attention::bert_detail {

using json::Value;
using Kind = Value::Kind;

void fail(const std::string& code, const std::string& message, Error::Params params) {
    throw Error(code, message, std::move(params));
}

namespace {

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

}  // namespace

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

double floats_of(const EncoderShape& s) {
    const auto d = static_cast<double>(s.d_model), ff = static_cast<double>(s.d_ff);
    return (s.vocab + s.positions + 4) * d + s.layers * (4 * d * d + 2 * d * ff + ff + 9 * d) +
           d * d + s.vocab;
}

void too_large(double bytes) {
    fail("model_too_large",
         "the model is larger than this page's memory allows: its weights take " +
             std::to_string(static_cast<long long>(bytes / (1024 * 1024))) + " MiB",
         {{"mib", std::to_string(static_cast<long long>(bytes / (1024 * 1024)))}});
}

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

}  // namespace attention::bert_detail

// An encoder's params: their blocks in the one fixed order, their shape's
// checks, their allocation, and the float kernels' packed copies of them. The
// forward that reads them is encoder.cpp.
#include <mutex>
#include <string>

#include "attention/encoder.hpp"
#include "attention/error.hpp"
#include "attention/kernels.hpp"
#include "checkpoints.hpp"

namespace attention {

namespace {

// Every block of params (const or not) with its name, in the one fixed order.
template <class Params, class F>
void visit_blocks(Params& p, F&& f) {
    f("tok", p.tok);
    if (p.shape.factorised()) f("tok_proj", p.tok_proj);
    if (kCheckpoints && p.shape.learned_positions()) f("pos", p.pos), f("type0", p.type0);
    f("ln0_gain", p.ln0_gain);
    f("ln0_bias", p.ln0_bias);
    for (std::size_t l = 0; l < p.layers.size(); ++l) {
        const std::string at = "layer" + std::to_string(l) + ".";
        auto& L = p.layers[l];
        f(at + "wq", L.wq), f(at + "bq", L.bq), f(at + "wk", L.wk), f(at + "bk", L.bk);
        f(at + "wv", L.wv), f(at + "bv", L.bv), f(at + "wo", L.wo), f(at + "bo", L.bo);
        f(at + "ln1_gain", L.ln1_gain), f(at + "ln1_bias", L.ln1_bias);
        f(at + "w1", L.w1), f(at + "b1", L.b1), f(at + "w2", L.w2), f(at + "b2", L.b2);
        f(at + "ln2_gain", L.ln2_gain), f(at + "ln2_bias", L.ln2_bias);
    }
    if (kCheckpoints && p.shape.head_transform) {
        f("head_w", p.head_w), f("head_b", p.head_b);
        f("head_ln_gain", p.head_ln_gain), f("head_ln_bias", p.head_ln_bias);
    }
    f("out_bias", p.out_bias);
}

[[noreturn]] ATTENTION_COLD void no_such_head(const EncoderShape& shape, int layer, int head) {
    throw Error("invalid_argument",
                "there is no head " + std::to_string(head) + " in layer " + std::to_string(layer) +
                    ": the model has " + std::to_string(shape.layers) +
                    (shape.layers == 1 ? " layer" : " layers") + " of " +
                    std::to_string(shape.heads) + " heads, counted from 0",
                {{"layer", std::to_string(layer)},
                 {"head", std::to_string(head)},
                 {"layers", std::to_string(shape.layers)},
                 {"heads", std::to_string(shape.heads)}});
}

}  // namespace

void check_head(const EncoderShape& shape, int layer, int head) {
    if (layer < 0 || layer >= shape.layers || head < 0 || head >= shape.heads)
        no_such_head(shape, layer, head);
}

template <class T>
void EncoderParams<T>::for_each(const std::function<void(const std::string&, Mat<T>&)>& f) {
    visit_blocks(*this, f);
}

template <class T>
void EncoderParams<T>::for_each(
    const std::function<void(const std::string&, const Mat<T>&)>& f) const {
    visit_blocks(*this, f);
}

std::string shape_problem(const EncoderShape& s) {
    if (s.vocab < 6 || s.vocab > 250000) return "the vocabulary must hold 6 to 250000 tokens";
    if (s.d_model < 1 || s.d_model > 1024) return "d_model must be from 1 to 1024";
    if (s.heads < 1 || s.d_model % s.heads != 0) return "the number of heads must divide d_model";
    if (s.d_ff < 1 || s.d_ff > 4096) return "d_ff must be from 1 to 4096";
    if (s.layers < 1 || s.layers > 24) return "an encoder has 1 to 24 layers";
    if (s.embedding < 0 || s.embedding > 1024)
        return "a factorised embedding has 1 to 1024 numbers a token (0: none)";
    if (!kCheckpoints) return "";  // the rest is only an imported checkpoint's (checkpoints.hpp)
    if (s.positions < 0 || s.positions > 4096)
        return "learned positions number 1 to 4096 (0: the sinusoidal table)";
    if (!(s.layer_norm_eps > 0 && s.layer_norm_eps <= 0.1))
        return "LayerNorm's epsilon must be above 0 and at most 0.1";
    if (s.head_transform && s.factorised())
        return "the head transform needs an unfactorised embedding";
    return "";
}

// One matrix, zeros or its entries not yet written: called for every parameter rather than
// inlined at each (the wasm carries the allocation and the fill once).
template <class T>
[[gnu::noinline]] Mat<T> matrix_of(Eigen::Index rows, Eigen::Index cols, bool zero) {
    return zero ? Mat<T>::Zero(rows, cols) : Mat<T>(rows, cols);
}

template <class T>
EncoderParams<T> params_of_shape(const EncoderShape& s, bool zero) {
    if (const std::string problem = shape_problem(s); !problem.empty())
        throw Error("invalid_argument", "encoder shape: " + problem);
    EncoderParams<T> p;
    p.shape = s;
    p.tok = matrix_of<T>(s.vocab, s.token_width(), zero);
    if (s.factorised()) p.tok_proj = matrix_of<T>(s.embedding, s.d_model, zero);
    if (kCheckpoints && s.learned_positions()) {
        p.pos = matrix_of<T>(s.positions, s.d_model, zero);
        p.type0 = matrix_of<T>(1, s.d_model, zero);
    }
    p.ln0_gain = matrix_of<T>(1, s.d_model, zero);
    p.ln0_bias = matrix_of<T>(1, s.d_model, zero);
    for (int l = 0; l < s.layers; ++l) {
        LayerParams<T> L;
        for (Mat<T>* w : {&L.wq, &L.wk, &L.wv, &L.wo})
            *w = matrix_of<T>(s.d_model, s.d_model, zero);
        for (Mat<T>* b : {&L.bq, &L.bk, &L.bv, &L.bo, &L.ln1_gain, &L.ln1_bias, &L.ln2_gain,
                          &L.ln2_bias, &L.b2})
            *b = matrix_of<T>(1, s.d_model, zero);
        L.w1 = matrix_of<T>(s.d_model, s.d_ff, zero);
        L.b1 = matrix_of<T>(1, s.d_ff, zero);
        L.w2 = matrix_of<T>(s.d_ff, s.d_model, zero);
        p.layers.push_back(std::move(L));
    }
    if (kCheckpoints && s.head_transform) {
        p.head_w = matrix_of<T>(s.d_model, s.d_model, zero);
        for (Mat<T>* b : {&p.head_b, &p.head_ln_gain, &p.head_ln_bias})
            *b = matrix_of<T>(1, s.d_model, zero);
    }
    p.out_bias = matrix_of<T>(1, s.vocab, zero);
    return p;
}

template <class T>
EncoderParams<T> zero_params(const EncoderShape& s) {
    return params_of_shape<T>(s, true);
}

template <class T>
EncoderParams<T> unwritten_params(const EncoderShape& s) {
    return params_of_shape<T>(s, false);
}

PackedEncoder pack_encoder(const EncoderParams<float>& p) {
    PackedEncoder out;
    for (const LayerParams<float>& L : p.layers) {
        out.layers.push_back({kernels::pack(L.wq), kernels::pack(L.wk), kernels::pack(L.wv),
                              kernels::pack(L.wo), kernels::pack(L.w1), kernels::pack(L.w2)});
    }
    return out;
}

const kernels::Panels& PackedEncoder::tok_t(const Mat<float>& tok) const {
    Once& once = *tok_t_;
    const std::lock_guard<SpinLock> hold(once.lock);
    if (!once.packed) {  // a throw leaves it unpacked for the next call
        if (tok_rows.rows() > 0) {
            kernels::pack_transposed(tok_rows.floats(), once.panels);
        } else {
            kernels::pack_transposed(tok, once.panels);
        }
        once.packed = true;
    }
    return once.panels;
}

#define ATTENTION_PARAMS_INSTANTIATE(T)                            \
    template struct EncoderParams<T>;                              \
    template EncoderParams<T> zero_params<T>(const EncoderShape&); \
    template EncoderParams<T> unwritten_params<T>(const EncoderShape&);
ATTENTION_PARAMS_INSTANTIATE(float)
ATTENTION_PARAMS_INSTANTIATE(double)
#undef ATTENTION_PARAMS_INSTANTIATE

}  // namespace attention

// The encoder's forward (encode) and its tied decoder; the params it reads are
// made and packed in encoder_params.cpp.
#include "attention/encoder.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "attention/error.hpp"
#include "attention/kernels.hpp"
#include "attention/ops.hpp"
#include "attention/stages.hpp"
#include "checkpoints.hpp"

namespace attention {

namespace {

// The products: in float on the packed SIMD kernels (kernels.hpp), the right
// factor packed for the call; in double (the gradient checks) with Eigen, and
// in the trainer's native build (ATTENTION_EIGEN_PRODUCTS), where Eigen uses
// the machine's widest vectors. `transposed`: a·bᵀ. bias: added to every row.
template <class T>
Mat<T> product(const Mat<T>& a, const Mat<T>& b, bool transposed = false,
               const Mat<T>* bias = nullptr) {
#if defined(ATTENTION_EIGEN_PRODUCTS)
    constexpr bool kKernels = false;
#else
    constexpr bool kKernels = std::is_same_v<T, float>;
#endif
    if constexpr (kKernels) {
        return kernels::times(a, b, transposed, bias);
    } else {
        Mat<T> c = transposed ? Mat<T>(a * b.transpose()) : Mat<T>(a * b);
        if (bias) c.rowwise() += bias->row(0);
        return c;
    }
}

template <class T>
Mat<T> affine(const Mat<T>& x, const Mat<T>& w, const Mat<T>& b) {
    return product(x, w, false, &b);
}

// RowOverride's conditions for sequences of n tokens (one message for all).
ATTENTION_COLD void check_override(const EncoderShape& s, const RowOverride& o, int n) {
    check_head(s, o.head.layer, o.head.head);
    bool fits = o.row >= 0 && o.row < n && o.weights.size() == static_cast<std::size_t>(n);
    for (const float w : o.weights) fits = fits && w >= 0 && std::isfinite(w);
    if (!fits) {
        throw Error("invalid_argument", "an overridden row must be a token's index, from 0 to " +
                                            std::to_string(n - 1) +
                                            ", with one finite weight ≥ 0 per token");
    }
}

// GELU in the shape's form: on the kernels' vectors (float, vectorised) or exact. The erf form
// only where checkpoints run; in float always on the vectors (no model here trains with it).
template <class T>
Mat<T> gelu(const EncoderShape& s, const Mat<T>& x, Elementwise elementwise) {
    constexpr bool kFloat = std::is_same_v<T, float>;
    if constexpr (kCheckpoints) {
        if (s.gelu == Gelu::erf) {
            if constexpr (kFloat) {
                Mat<T> y = x;
                kernels::gelu_erf_in_place(y);
                return y;
            } else {
                return ops::gelu_erf(x);
            }
        }
    }
    if constexpr (kFloat) {
        if (elementwise == Elementwise::vectorised) {
            Mat<T> y = x;
            kernels::gelu_in_place(y);
            return y;
        }
    }
    return ops::gelu(x);
}

[[noreturn]] ATTENTION_COLD void too_many_tokens(int n, int most) {
    throw Error("too_many_tokens",
                "the text has " + std::to_string(n) + " tokens; this model reads at most " +
                    std::to_string(most),
                {{"tokens", std::to_string(n)}, {"max", std::to_string(most)}});
}

}  // namespace

template <class T>
void encode(const EncoderParams<T>& p, const std::vector<std::int32_t>& ids, int sequences,
            int length, EncoderCache<T>& cache, const std::vector<HeadId>& knock_out,
            Elementwise elementwise, const PackedEncoder* packed, const RowOverride* override) {
    constexpr bool kFloat = std::is_same_v<T, float>;
    const bool vectorised = kFloat && elementwise == Elementwise::vectorised;
    const EncoderShape& s = p.shape;
    const int n = length, B = sequences, h = s.heads, dk = s.d_k();
    const Eigen::Index N = static_cast<Eigen::Index>(B) * n;
    const T scale = s.scaled ? T(1) / std::sqrt(static_cast<T>(dk)) : T(1);
    if (sequences < 1 || length < 1 || ids.size() != static_cast<std::size_t>(N)) {
        throw Error("invalid_argument", "encode: ids must hold sequences × length ids");
    }
    for (const std::int32_t id : ids) {
        if (id < 0 || id >= s.vocab)
            throw Error("invalid_argument", "encode: an id outside the vocabulary");
    }
    std::vector<char> silenced(
        static_cast<std::size_t>(s.layers) * static_cast<std::size_t>(s.heads), 0);
    for (const HeadId& k : knock_out) {
        check_head(s, k.layer, k.head);
        silenced[static_cast<std::size_t>(k.layer * s.heads + k.head)] = 1;
    }
    if (override) check_override(s, *override, n);

    const T eps = static_cast<T>(s.layer_norm_eps);

    // x = LN0(tok[ids] + PE), or LN0(tok[ids]·P + PE) factorised; BERT's PE is its learned rows
    // of the positions plus token type 0's row
    if (kCheckpoints && s.learned_positions()) {
        if (n > s.positions) too_many_tokens(n, s.positions);
        cache.positional = p.pos.topRows(n);
        cache.positional.rowwise() += p.type0.row(0);
    } else {
        cache.positional =
            positional_encoding(n, s.d_model).template cast<T>();  // the core's table (stages.hpp)
    }
    Mat<T> x0;
    if constexpr (kFloat) {  // the rows from the packed model, which may keep tok as int8 rows
        x0 = token_rows(p.tok, packed, ids);
    } else {
        x0 = ops::gather_rows(p.tok, ids);
    }
    if (s.factorised()) {
        cache.tok_rows = std::move(x0);
        x0 = product(cache.tok_rows, p.tok_proj);
    }
    for (Eigen::Index r = 0; r < x0.rows(); ++r) x0.row(r) += cache.positional.row(r % n);
    Mat<T> x = ops::layer_norm(x0, p.ln0_gain, p.ln0_bias, cache.xhat0, cache.inv_std0, eps);

    cache.layers.resize(p.layers.size());
    for (std::size_t l = 0; l < p.layers.size(); ++l) {
        const LayerParams<T>& L = p.layers[l];
        LayerCache<T>& c = cache.layers[l];
        // x·W + b with W's panels packed once (packed) or for the call.
        const auto linear = [&](const Mat<T>& in, const Mat<T>& w, const Mat<T>& b,
                                kernels::Panels PackedEncoder::Layer::*panels) {
            if constexpr (kFloat) {
                if (packed) {
                    Mat<T> out;
                    kernels::multiply(in, {{&(packed->layers[l].*panels), &b, &out}});
                    return out;
                }
            }
            return affine(in, w, b);
        };
        c.x = x;
        if constexpr (kFloat) {
            if (packed) {  // Q, K and V in one pass over x's rows
                const PackedEncoder::Layer& P = packed->layers[l];
                kernels::multiply(
                    x, {{&P.wq, &L.bq, &c.q}, {&P.wk, &L.bk, &c.k}, {&P.wv, &L.bv, &c.v}});
            }
        }
        if (!kFloat || !packed) {
            c.q = affine(x, L.wq, L.bq);
            c.k = affine(x, L.wk, L.bk);
            c.v = affine(x, L.wv, L.bv);
        }
        c.concat.resize(N, s.d_model);
        c.weights.resize(static_cast<std::size_t>(B) * static_cast<std::size_t>(h));
        if constexpr (kCheckpoints) c.scores.resize(vectorised ? c.weights.size() : 0);
        for (int b = 0; b < B; ++b) {
            for (int j = 0; j < h; ++j) {
                const auto rows = Eigen::seqN(static_cast<Eigen::Index>(b) * n, n);
                const auto cols = Eigen::seqN(static_cast<Eigen::Index>(j) * dk, dk);
                Mat<T> P;
                if constexpr (kFloat) {
                    if (vectorised) {  // softmax(Q_j·K_jᵀ / √d_k) in the kernels' fused pass
                        Matrix scaled, masked;
                        Matrix scores =
                            product(Mat<T>(c.q(rows, cols)), Mat<T>(c.k(rows, cols)), true);
                        kernels::scale_mask_softmax(scores, dk, s.scaled, false, scaled, masked, P);
                        if constexpr (kCheckpoints)
                            c.scores[static_cast<std::size_t>(b * h + j)] = std::move(scores);
                    }
                }
                const bool silent =
                    silenced[l * static_cast<std::size_t>(h) + static_cast<std::size_t>(j)];
                if (!vectorised) {
                    c.concat(rows, cols) = ops::attention_head<T>(c.q(rows, cols), c.k(rows, cols),
                                                                  c.v(rows, cols), scale, P);
                }
                const bool replaced = override && override->head.layer == static_cast<int>(l) &&
                                      override->head.head == j;
                if (replaced) {
                    for (Eigen::Index key = 0; key < n; ++key)
                        P(static_cast<Eigen::Index>(override->row), key) =
                            static_cast<T>(override->weights[static_cast<std::size_t>(key)]);
                }
                if (silent) {
                    c.concat(rows, cols).setZero();
                } else if (vectorised || replaced) {
                    c.concat(rows, cols) = product(P, Mat<T>(c.v(rows, cols)));
                }
                c.weights[static_cast<std::size_t>(b * h + j)] = std::move(P);
            }
        }
        c.norm =
            ops::layer_norm(Mat<T>(x + linear(c.concat, L.wo, L.bo, &PackedEncoder::Layer::wo)),
                            L.ln1_gain, L.ln1_bias, c.xhat1, c.inv_std1, eps);
        c.ff_pre = linear(c.norm, L.w1, L.b1, &PackedEncoder::Layer::w1);
        c.ff_hidden = gelu(s, c.ff_pre, elementwise);
        c.output = ops::layer_norm(
            Mat<T>(c.norm + linear(c.ff_hidden, L.w2, L.b2, &PackedEncoder::Layer::w2)), L.ln2_gain,
            L.ln2_bias, c.xhat2, c.inv_std2, eps);
        x = c.output;
    }

    cache.hidden = std::move(x);
}

template <class T>
Mat<T> decoder_rows(const EncoderParams<T>& p, const Mat<T>& rows) {
    // On the kernels in float, as every product of the page's wasm: no Eigen product there.
    if (kCheckpoints && p.shape.head_transform) {  // BERT's: LN(GELU(rows·W_t + b_t))
        Mat<T> xhat, inv_std;
        return ops::layer_norm(
            gelu(p.shape, affine(rows, p.head_w, p.head_b), Elementwise::vectorised),
            p.head_ln_gain, p.head_ln_bias, xhat, inv_std, static_cast<T>(p.shape.layer_norm_eps));
    }
    if (!p.shape.factorised()) return rows;
    return product(rows, p.tok_proj, true);
}

Mat<float> embedding_rows(const EncoderParams<float>& p, const PackedEncoder* packed,
                          const std::vector<std::int32_t>& ids) {
    Mat<float> rows = token_rows(p.tok, packed, ids);
    if (!p.shape.factorised()) return rows;
    return product(rows, p.tok_proj);
}

template <class T>
Mat<T> decode(const EncoderParams<T>& p, const Mat<T>& rows) {
    // The tied decoder: no copy of tokᵀ.
    Mat<T> logits = decoder_rows(p, rows) * p.tok.transpose();
    logits.rowwise() += p.out_bias.row(0);
    return logits;
}

#define ATTENTION_ENCODER_INSTANTIATE(T)                                                      \
    template void encode(const EncoderParams<T>&, const std::vector<std::int32_t>&, int, int, \
                         EncoderCache<T>&, const std::vector<HeadId>&, Elementwise,           \
                         const PackedEncoder*, const RowOverride*);                           \
    template Mat<T> decoder_rows(const EncoderParams<T>&, const Mat<T>&);                     \
    template Mat<T> decode(const EncoderParams<T>&, const Mat<T>&);
ATTENTION_ENCODER_INSTANTIATE(float)
ATTENTION_ENCODER_INSTANTIATE(double)
#undef ATTENTION_ENCODER_INSTANTIATE

}  // namespace attention

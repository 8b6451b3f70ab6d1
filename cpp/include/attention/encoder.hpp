// A BERT-style encoder's forward pass, every activation kept: the inference
// the page and the API run on a trained model, and the forward the trainer
// (cpp/train/) differentiates by hand. Templated on the scalar so the trainer's
// gradient checks run in double; inference runs in float.
//
// Shapes (B sequences of n tokens, N = B·n rows; d = d_model, h heads of
// d_k = d / h columns each, head j = columns j·d_k … (j + 1)·d_k − 1):
// Each operation's forward and backward are in ops.hpp.
//   x0 = tok[ids] + PE            N × d     token rows plus positional_encoding() (stages.hpp)
//                                           factorised (shape.embedding = E, ALBERT's): tok is
//                                           vocab × E and x0 = tok[ids]·P + PE, P = tok_proj E × d
//                                           BERT's (shape.positions > 0): PE = pos[0 … n) + type0,
//                                           learned rows for the positions and token type 0
//   x  = LN0(x0)                  N × d
//   per layer (post-LayerNorm, as BERT):
//     Q, K, V = x·W + b           N × d
//     P = softmax(Q_j·K_jᵀ/√d_k)  n × n     per sequence and head
//     A = [P·V_j]_j               N × d     the heads side by side (concat)
//     norm = LN1(x + A·W_o + b_o)   N × d
//     output = LN2(norm + GELU(norm·W_1 + b_1)·W_2 + b_2)   N × d   (the next layer's x)
//   logits = rows·tokᵀ + b_out    M × vocab   for any M rows (decoder tied to tok;
//                                             factorised: (rows·Pᵀ)·tokᵀ + b_out; with BERT's
//                                             head transform: LN(GELU(rows·W_t + b_t))·tokᵀ +
//                                             b_out)
// LayerNorm's ε and GELU's form are the shape's (BERT's: 1e-12 and erf; the built-in model's: 1e-5
// and tanh).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "attention/kernels.hpp"
#include "attention/matrix.hpp"
#include "attention/spin_lock.hpp"

namespace attention {

// GELU's two forms: Hugging Face's "gelu" (x·Φ(x), with erf) and "gelu_new" / "gelu_pytorch_tanh"
// (the tanh approximation, the built-in model's).
enum class Gelu { tanh, erf };

struct EncoderShape {
    int vocab = 0;
    int d_model = 0;
    int heads = 1;
    int d_ff = 0;
    int layers = 1;
    // Scores ÷ √d_k in every head, as the article's formula. Only the
    // trainer's experiment switches it off (a model file always has it on).
    bool scaled = true;
    // Queries and keys from one matrix in every head: W_k = W_q and b_k = b_q, kept equal by
    // the trainer (the backward adds both gradients into each). Only the trainer's experiment
    // switches it on; the forward needs nothing of it, and a model file keeps W_k, equal to W_q.
    bool shared_qk = false;
    // A factorised embedding (ALBERT's): token rows of `embedding` numbers, then one
    // embedding × d_model matrix to d_model; 0: rows of d_model numbers and no matrix.
    int embedding = 0;
    // BERT's embeddings: learned rows for positions 0 … positions − 1 (params pos) and the row of
    // token type 0 (type0), both added to the token rows; a text holds at most `positions` tokens.
    // 0: the sinusoidal table (stages.hpp) and no type row, as the built-in model.
    int positions = 0;
    double layer_norm_eps = 1e-5;  // LayerNorm's ε (Hugging Face's layer_norm_eps)
    Gelu gelu = Gelu::tanh;
    // BERT's masked-LM head transform before the tied decoder (cls.predictions.transform: dense
    // d × d, GELU, LayerNorm: params head_w … head_ln_bias); false: the decoder reads the rows.
    bool head_transform = false;
    int d_k() const { return d_model / heads; }
    bool factorised() const { return embedding > 0; }
    bool learned_positions() const { return positions > 0; }
    int token_width() const { return factorised() ? embedding : d_model; }  // tok's columns
};

template <class T>
struct LayerParams {
    Mat<T> wq, wk, wv, wo;      // d × d
    Mat<T> bq, bk, bv, bo;      // 1 × d
    Mat<T> ln1_gain, ln1_bias;  // 1 × d
    Mat<T> w1, b1;              // d × d_ff, 1 × d_ff
    Mat<T> w2, b2;              // d_ff × d, 1 × d
    Mat<T> ln2_gain, ln2_bias;  // 1 × d
};

template <class T>
struct EncoderParams {
    EncoderShape shape;
    Mat<T> tok;       // vocab × E   token embeddings (and the tied decoder); E =
                      //             shape.token_width()
    Mat<T> tok_proj;  // E × d       factorised only (else empty): tok's rows to d_model
    Mat<T> pos;       // positions × d   learned positions (shape.positions > 0, else empty)
    Mat<T> type0;     // 1 × d       token type 0's row (with pos, else empty)
    Mat<T> ln0_gain, ln0_bias;  // 1 × d       LayerNorm of the embeddings
    std::vector<LayerParams<T>> layers;
    Mat<T> head_w, head_b;  // d × d, 1 × d   the head transform (shape.head_transform)
    Mat<T> head_ln_gain, head_ln_bias;  // 1 × d
    Mat<T> out_bias;                    // 1 × vocab   decoder bias

    // Every block once, by a stable name ("tok", "layer0.wq", …), in a fixed
    // order: the optimiser, the gradient checks and the model files walk them alike.
    void for_each(const std::function<void(const std::string&, Mat<T>&)>& f);
    void for_each(const std::function<void(const std::string&, const Mat<T>&)>& f) const;
};

// Zeros of the given shape (for gradients, moments and a checkpoint's values).
template <class T>
EncoderParams<T> zero_params(const EncoderShape& shape);

// Every matrix of the given shape with its entries not yet written, for a reader that writes each
// one (the model file's): no pass over them first.
template <class T>
EncoderParams<T> unwritten_params(const EncoderShape& shape);

template <class T>
EncoderParams<T> zeros_like(const EncoderParams<T>& p) {
    return zero_params<T>(p.shape);
}

// Why a shape cannot be an encoder's, or "" when it can: vocab 6 … 250 000
// (the five special tokens and one more), d_model 1 … 1024 with heads
// dividing it, d_ff 1 … 4096, layers 1 … 24, embedding 0 or 1 … 1024, positions 0 … 4096,
// layer_norm_eps in (0, 0.1], a head transform only on an unfactorised embedding. The one check of
// zero_params(), the trainer's initialisation, its checkpoints, the model file and an imported
// checkpoint (bert.hpp).
std::string shape_problem(const EncoderShape& shape);

// One layer's activations.
template <class T>
struct LayerCache {
    Mat<T> x;        // N × d     the layer's input
    Mat<T> q, k, v;  // N × d
    std::vector<Mat<T>>
        weights;  // B·h of n × n: sequence s, head j at s·h + j (the stage `weights`)
    // B·h of n × n: each head's Q_j·K_jᵀ before ÷√d_k, kept by the vectorised forward (the API's
    // runs) where checkpoints run, so a head drawn later is not computed again; empty after an
    // exact forward, and in the page's first wasm (cpp/src/checkpoints.hpp).
    std::vector<Mat<T>> scores;
    Mat<T> concat;             // N × d     A
    Mat<T> xhat1, inv_std1;    // N × d, N × 1  LN1's normalised rows and 1/σ
    Mat<T> norm;               // N × d     LN1(x + A·W_o + b_o) (the stage `norm`)
    Mat<T> ff_pre, ff_hidden;  // N × d_ff  norm·W_1 + b_1 and its GELU (the stage `ffHidden`)
    Mat<T> xhat2, inv_std2;    // N × d, N × 1
    Mat<T> output;             // N × d     the layer's output (the stage `output`)
};

template <class T>
struct EncoderCache {
    Mat<T> positional;       // n × d     the positions added to every sequence (with BERT's
                             //           type 0 row)
    Mat<T> tok_rows;         // N × E     tok[ids] before tok_proj (factorised only)
    Mat<T> xhat0, inv_std0;  // the embedding LayerNorm's
    std::vector<LayerCache<T>> layers;
    Mat<T> hidden;  // N × d     the last layer's output
};

// One head of one layer, both counted from 0.
struct HeadId {
    int layer = 0;
    int head = 0;
};

// Throws attention::Error ("invalid_argument") naming the model's layers and
// heads unless the head exists.
void check_head(const EncoderShape& shape, int layer, int head);

// One head's row of attention weights replaced before it weighs V (the lab's
// "what if"): in every sequence, row `row` of the head's weights becomes
// `weights` (one per key, each finite and ≥ 0; they need not sum to 1), and the
// head's output row is their weighted sum of V's rows. The cache keeps the row
// as replaced; every later stage follows from it.
struct RowOverride {
    HeadId head;
    std::int64_t row = 0;
    std::vector<float> weights;
};

// A float model's weight matrices as the kernels' right-factor panels
// (kernels.hpp), packed once for a model the API runs many times: each
// layer's W_q, W_k, W_v, W_O, W_1, W_2 at load, and tokᵀ for the prediction
// head at the first guess: it is the largest block (vocab × d_model floats),
// and a run needs none of it, so loading a model (before the page's first
// view) does not write it. Copies share the packed tokᵀ.
struct PackedEncoder {
    struct Layer {
        kernels::Panels wq, wk, wv, wo, w1, w2;
    };
    std::vector<Layer> layers;

    // The token embeddings as a model file keeps them, one scale a row and the row's int8 levels
    // (row i = scales[i] · levels[i·cols …]), for a model loaded to be run (load_model's
    // Embeddings::int8_rows): a run reads only its tokens' rows, so the load writes no float of the
    // table and the params' tok stays empty. Empty for a model whose tok holds the floats.
    struct Int8Rows {
        Eigen::Index cols = 0;
        std::vector<std::int8_t> levels;
        std::vector<float> scales;  // one a row
        Eigen::Index rows() const { return static_cast<Eigen::Index>(scales.size()); }
        void row(Eigen::Index i, float* out) const;  // row i as floats (model_file.cpp)
        Mat<float> floats() const;                   // every row
    };
    Int8Rows tok_rows;

    // An imported checkpoint's (bert.hpp): its plain layer matrices are freed once packed (these
    // panels are the only copy) and its decoder streams tok's rows (kernels::times_rows) instead
    // of packing tokᵀ, which would copy the largest block.
    bool only_copy = false;

    // tokᵀ as panels, packed from tok_rows or tok by the first call; safe
    // to call from several threads at once.
    const kernels::Panels& tok_t(const Mat<float>& tok) const;

private:
    struct Once {
        SpinLock lock;  // held while tokᵀ is packed
        bool packed = false;
        kernels::Panels panels;
    };
    std::shared_ptr<Once> tok_t_ = std::make_shared<Once>();
};
PackedEncoder pack_encoder(const EncoderParams<float>& p);

// The token embeddings' rows for these ids (ids.size() × tok's width): from packed's tok_rows when
// it holds them (packed may be null), else from tok, the params' own (model_file.cpp).
Mat<float> token_rows(const Mat<float>& tok, const PackedEncoder* packed,
                      const std::vector<std::int32_t>& ids);

// The ids' embeddings as the first layer adds its positions to them (ids.size() × d_model):
// token_rows(), times tok_proj when the embedding is factorised.
Mat<float> embedding_rows(const EncoderParams<float>& p, const PackedEncoder* packed,
                          const std::vector<std::int32_t>& ids);

// The tied decoder's input for rows of d_model numbers: the rows themselves, rows·tok_projᵀ
// (M × E) when the embedding is factorised, or BERT's head transform of them.
template <class T>
Mat<T> decoder_rows(const EncoderParams<T>& p, const Mat<T>& rows);

// How the forward computes GELU and softmax in float: `exact` with std::tanh
// and Eigen's exp (what the trainer differentiates, and what made the shipped
// model), `vectorised` on the kernels' 4-lane e^x (the API's runs: several
// times faster in wasm; equal up to float rounding, tested). Double is exact.
enum class Elementwise { exact, vectorised };

// The forward pass of B sequences of n ids (row-major, B·n): fills cache.
// packed: p's panels (float only), or null to pack each product's for the call.
// Heads in knock_out are silenced: their weights are still computed and kept,
// their output (their columns of A) is zero. override: a row of weights put in
// place of softmax's (above). Throws attention::Error("invalid_argument") for
// ids outside the vocabulary or a wrong count, an override's row out of range
// or weights not one finite number ≥ 0 per key, check_head()'s error for a head
// that does not exist.
// (Training never knocks heads out nor overrides a row: the trainer's backward assumes neither.)
template <class T>
void encode(const EncoderParams<T>& p, const std::vector<std::int32_t>& ids, int sequences,
            int length, EncoderCache<T>& cache, const std::vector<HeadId>& knock_out = {},
            Elementwise elementwise = Elementwise::exact, const PackedEncoder* packed = nullptr,
            const RowOverride* override = nullptr);

// The tied decoder: logits = decoder_rows(rows)·tokᵀ + b_out, M × vocab.
template <class T>
Mat<T> decode(const EncoderParams<T>& p, const Mat<T>& rows);

}  // namespace attention

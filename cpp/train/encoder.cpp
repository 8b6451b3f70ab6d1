#include "encoder.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <system_error>
#include <thread>

#include "attention/error.hpp"
#include "attention/ops.hpp"
#include "mlm.hpp"

namespace attention::train {

namespace {

// A standard normal from two 53-bit uniforms (Box–Muller), deterministic per state.
double normal(Rng& rng) {
    const double u1 = (static_cast<double>(rng.next() >> 11) + 1.0) * 0x1.0p-53;  // (0, 1]
    const double u2 = static_cast<double>(rng.next() >> 11) * 0x1.0p-53;          // [0, 1)
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

template <class T>
Mat<T> random_matrix(Eigen::Index rows, Eigen::Index cols, double stddev, Rng& state) {
    Mat<T> m(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i)
        m.data()[i] = static_cast<T>(stddev * normal(state));
    return m;
}

// The tied decoder's input: the masked rows, or (factorised) their decoder_rows() kept in the
// cache.
template <class T>
const Mat<T>& decoder_input(const EncoderParams<T>& p, const ForwardCache<T>& cache) {
    return p.shape.factorised() ? cache.decoder_rows : cache.masked_rows;
}

}  // namespace

template <class T>
EncoderParams<T> init_params(const EncoderShape& s, std::uint64_t seed, double token_sd,
                             double sd) {
    if (const std::string problem = shape_problem(s); !problem.empty())
        throw Error("invalid_argument", "encoder shape: " + problem);
    Rng state(seed);
    EncoderParams<T> p;
    p.shape = s;
    p.tok = random_matrix<T>(s.vocab, s.token_width(), token_sd, state);
    p.ln0_gain = Mat<T>::Ones(1, s.d_model);
    p.ln0_bias = Mat<T>::Zero(1, s.d_model);
    for (int l = 0; l < s.layers; ++l) {
        LayerParams<T> L;
        L.wq = random_matrix<T>(s.d_model, s.d_model, sd, state);
        L.wk = random_matrix<T>(s.d_model, s.d_model, sd, state);
        L.wv = random_matrix<T>(s.d_model, s.d_model, sd, state);
        if (s.shared_qk)
            L.wk = L.wq;  // drawn all the same: the other blocks get the draws they would get apart
        L.wo = random_matrix<T>(s.d_model, s.d_model, sd, state);
        L.bq = L.bk = L.bv = L.bo = Mat<T>::Zero(1, s.d_model);
        L.ln1_gain = L.ln2_gain = Mat<T>::Ones(1, s.d_model);
        L.ln1_bias = L.ln2_bias = Mat<T>::Zero(1, s.d_model);
        L.w1 = random_matrix<T>(s.d_model, s.d_ff, sd, state);
        L.b1 = Mat<T>::Zero(1, s.d_ff);
        L.w2 = random_matrix<T>(s.d_ff, s.d_model, sd, state);
        L.b2 = Mat<T>::Zero(1, s.d_model);
        p.layers.push_back(std::move(L));
    }
    p.out_bias = Mat<T>::Zero(1, s.vocab);
    // Drawn last, so an unfactorised shape draws what it drew before. N(0, 1/E): a token's
    // d_model numbers then spread as its E numbers do (token_sd), as an unfactorised row's.
    if (s.factorised())
        p.tok_proj = random_matrix<T>(s.embedding, s.d_model, 1.0 / std::sqrt(s.embedding), state);
    return p;
}

template <class T>
T forward(const EncoderParams<T>& p, const MlmBatch& batch, ForwardCache<T>& cache) {
    encode(p, batch.ids, batch.sequences, batch.length, cache.encoder);
    // The masked rows through the tied decoder, and the mean cross-entropy.
    const auto M = static_cast<Eigen::Index>(batch.rows.size());
    if (M == 0) throw Error("invalid_argument", "an MLM batch needs at least one masked row");
    cache.masked_rows.resize(M, p.shape.d_model);
    for (Eigen::Index m = 0; m < M; ++m)
        cache.masked_rows.row(m) =
            cache.encoder.hidden.row(batch.rows[static_cast<std::size_t>(m)]);
    if (p.shape.factorised()) cache.decoder_rows = decoder_rows(p, cache.masked_rows);
    cache.loss =
        ops::cross_entropy(decoder_input(p, cache), p.tok, p.out_bias, batch.targets, cache.probs);
    return cache.loss;
}

// The forward (encoder.cpp's encode()) backwards, op by op (ops.hpp).
template <class T>
void backward(const EncoderParams<T>& p, const MlmBatch& batch, const ForwardCache<T>& cache,
              EncoderParams<T>& g) {
    const EncoderShape& s = p.shape;
    const int n = batch.length, B = batch.sequences, h = s.heads, dk = s.d_k();
    const Eigen::Index N = static_cast<Eigen::Index>(B) * n;
    const T scale = s.scaled ? T(1) / std::sqrt(static_cast<T>(dk)) : T(1);

    Mat<T> dmasked = ops::cross_entropy_backward(decoder_input(p, cache), p.tok, batch.targets,
                                                 cache.probs, g.tok, g.out_bias);
    if (s.factorised())  // decoder_rows = masked_rows·Pᵀ
        dmasked =
            ops::project_transposed_backward(dmasked, cache.masked_rows, p.tok_proj, g.tok_proj);
    Mat<T> dx = Mat<T>::Zero(N, s.d_model);
    for (Eigen::Index m = 0; m < dmasked.rows(); ++m)
        dx.row(batch.rows[static_cast<std::size_t>(m)]) += dmasked.row(m);

    for (std::size_t l = p.layers.size(); l-- > 0;) {
        const LayerParams<T>& L = p.layers[l];
        LayerParams<T>& G = g.layers[l];
        const LayerCache<T>& c = cache.encoder.layers[l];
        // output = LN2(norm + GELU(norm·W_1 + b_1)·W_2 + b_2)
        const Mat<T> dr2 =
            ops::layer_norm_backward(dx, c.xhat2, c.inv_std2, L.ln2_gain, G.ln2_gain, G.ln2_bias);
        const Mat<T> dpre = ops::gelu_backward<T>(
            ops::linear_backward(dr2, c.ff_hidden, L.w2, G.w2, G.b2), c.ff_pre);
        const Mat<T> dnorm = dr2 + ops::linear_backward(dpre, c.norm, L.w1, G.w1, G.b1);
        // norm = LN1(x + concat·W_o + b_o)
        const Mat<T> dr1 = ops::layer_norm_backward(dnorm, c.xhat1, c.inv_std1, L.ln1_gain,
                                                    G.ln1_gain, G.ln1_bias);
        const Mat<T> dconcat = ops::linear_backward(dr1, c.concat, L.wo, G.wo, G.bo);
        // Each head of each sequence: A_j = softmax(Q_j·K_jᵀ·scale)·V_j.
        Mat<T> dq(N, s.d_model), dk_(N, s.d_model), dv(N, s.d_model);
        Mat<T> dq_j, dk_j, dv_j;
        for (int b = 0; b < B; ++b) {
            for (int j = 0; j < h; ++j) {
                const auto rows = Eigen::seqN(static_cast<Eigen::Index>(b) * n, n);
                const auto cols = Eigen::seqN(static_cast<Eigen::Index>(j) * dk, dk);
                ops::attention_head_backward<T>(
                    dconcat(rows, cols), c.q(rows, cols), c.k(rows, cols), c.v(rows, cols),
                    c.weights[static_cast<std::size_t>(b * h + j)], scale, dq_j, dk_j, dv_j);
                dq(rows, cols) = dq_j;
                dk_(rows, cols) = dk_j;
                dv(rows, cols) = dv_j;
            }
        }
        // Q, K, V = x·W + b; the residual carries dr1 straight to x.
        if (s.shared_qk) {
            // Q = x·W + b and K = x·W + b with one W and b: both gradients go into it, and into
            // each copy.
            Mat<T> gw = Mat<T>::Zero(L.wq.rows(), L.wq.cols()), gb = Mat<T>::Zero(1, L.bq.cols());
            dx = dr1 + ops::linear_backward(dq, c.x, L.wq, gw, gb) +
                 ops::linear_backward(dk_, c.x, L.wk, gw, gb) +
                 ops::linear_backward(dv, c.x, L.wv, G.wv, G.bv);
            G.wq += gw, G.wk += gw, G.bq += gb, G.bk += gb;
        } else {
            dx = dr1 + ops::linear_backward(dq, c.x, L.wq, G.wq, G.bq) +
                 ops::linear_backward(dk_, c.x, L.wk, G.wk, G.bk) +
                 ops::linear_backward(dv, c.x, L.wv, G.wv, G.bv);
        }
    }

    // x = LN0(tok[ids] + PE), or LN0(tok[ids]·P + PE) factorised
    Mat<T> dx0 = ops::layer_norm_backward(dx, cache.encoder.xhat0, cache.encoder.inv_std0,
                                          p.ln0_gain, g.ln0_gain, g.ln0_bias);
    if (s.factorised())
        dx0 = ops::project_backward(dx0, cache.encoder.tok_rows, p.tok_proj, g.tok_proj);
    ops::embed_backward(dx0, batch.ids, g.tok);
}

template <class T>
T loss_and_gradients(const EncoderParams<T>& p, const MlmBatch& batch, EncoderParams<T>& grads,
                     int threads) {
    // Whole sequences to each part; a part's masked rows renumbered within it.
    const int parts = std::max(1, std::min(threads, batch.sequences));
    std::vector<MlmBatch> split(static_cast<std::size_t>(parts));
    const auto n = static_cast<std::size_t>(batch.length);
    for (int k = 0; k < parts; ++k) {
        MlmBatch& b = split[static_cast<std::size_t>(k)];
        const int first = batch.sequences * k / parts, last = batch.sequences * (k + 1) / parts;
        b.sequences = last - first;
        b.length = batch.length;
        b.ids.assign(
            batch.ids.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(first) * n),
            batch.ids.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(last) * n));
        for (std::size_t m = 0; m < batch.rows.size(); ++m) {
            const auto row = static_cast<std::size_t>(batch.rows[m]);
            if (row >= static_cast<std::size_t>(first) * n &&
                row < static_cast<std::size_t>(last) * n) {
                b.rows.push_back(
                    static_cast<std::int32_t>(row - static_cast<std::size_t>(first) * n));
                b.targets.push_back(batch.targets[m]);
            }
        }
    }
    // Each part's mean loss and gradient, weighted by its share of the masked rows.
    const auto total = static_cast<T>(batch.rows.size());
    std::vector<EncoderParams<T>> part_grads(static_cast<std::size_t>(parts));
    std::vector<T> part_loss(static_cast<std::size_t>(parts), 0);
    const auto work = [&](std::size_t k) {
        if (split[k].rows.empty()) return;
        ForwardCache<T> cache;
        part_loss[k] = forward(p, split[k], cache) * static_cast<T>(split[k].rows.size()) / total;
        part_grads[k] = zeros_like(p);
        backward(p, split[k], cache, part_grads[k]);
    };
    std::vector<std::thread> pool;
    for (std::size_t k = 1; k < split.size(); ++k) {
        try {
            pool.emplace_back(work, k);
        } catch (const std::system_error&) {
            work(k);  // no threads here (wasm without pthreads): in turn
        }
    }
    work(0);
    for (std::thread& t : pool) t.join();
    T loss = 0;
    for (std::size_t k = 0; k < split.size(); ++k) {
        if (split[k].rows.empty()) continue;
        loss += part_loss[k];
        const T weight = static_cast<T>(split[k].rows.size()) / total;
        std::vector<const Mat<T>*> g;
        part_grads[k].for_each([&](const std::string&, const Mat<T>& m) { g.push_back(&m); });
        std::size_t i = 0;
        grads.for_each([&](const std::string&, Mat<T>& m) { m += weight * *g[i++]; });
    }
    return loss;
}

#define ATTENTION_TRAIN_INSTANTIATE(T)                                                            \
    template EncoderParams<T> init_params<T>(const EncoderShape&, std::uint64_t, double, double); \
    template T forward(const EncoderParams<T>&, const MlmBatch&, ForwardCache<T>&);               \
    template void backward(const EncoderParams<T>&, const MlmBatch&, const ForwardCache<T>&,      \
                           EncoderParams<T>&);                                                    \
    template T loss_and_gradients(const EncoderParams<T>&, const MlmBatch&, EncoderParams<T>&, int);
ATTENTION_TRAIN_INSTANTIATE(float)
ATTENTION_TRAIN_INSTANTIATE(double)
#undef ATTENTION_TRAIN_INSTANTIATE

}  // namespace attention::train

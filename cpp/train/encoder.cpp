#include "encoder.hpp"
#include "mlm.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <system_error>
#include <thread>

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
    for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = static_cast<T>(stddev * normal(state));
    return m;
}

// The backward of layer_norm: adds into the gain and bias gradients, returns ∂/∂r.
template <class T>
Mat<T> layer_norm_backward(const Mat<T>& dy, const Mat<T>& xhat, const Mat<T>& inv_std, const Mat<T>& gain,
                           Mat<T>& dgain, Mat<T>& dbias) {
    dgain += (dy.array() * xhat.array()).colwise().sum().matrix();
    dbias += dy.colwise().sum();
    const Mat<T> dxhat = dy.array().rowwise() * gain.row(0).array();
    const auto d = static_cast<T>(dy.cols());
    Mat<T> dr(dy.rows(), dy.cols());
    for (Eigen::Index i = 0; i < dy.rows(); ++i) {
        const T sum = dxhat.row(i).sum();
        const T dot = dxhat.row(i).dot(xhat.row(i));
        dr.row(i) = (inv_std(i, 0) / d) * (d * dxhat.row(i).array() - sum - xhat.row(i).array() * dot);
    }
    return dr;
}

template <class T>
T gelu_derivative(T x) {
    const T c = T(0.7978845608028654);
    const T t = std::tanh(c * (x + T(0.044715) * x * x * x));
    return T(0.5) * (T(1) + t) + T(0.5) * x * (T(1) - t * t) * c * (T(1) + T(3) * T(0.044715) * x * x);
}

}  // namespace

template <class T>
EncoderParams<T> init_params(const EncoderShape& s, std::uint64_t seed) {
    if (s.vocab < 1 || s.d_model < 1 || s.heads < 1 || s.d_model % s.heads != 0 || s.d_ff < 1 || s.layers < 1) {
        throw std::invalid_argument("encoder shape: vocab, d_model, d_ff and layers ≥ 1, heads dividing d_model");
    }
    Rng state(seed);
    const double sd = 0.02;
    EncoderParams<T> p;
    p.shape = s;
    p.tok = random_matrix<T>(s.vocab, s.d_model, sd, state);
    p.ln0_gain = Mat<T>::Ones(1, s.d_model);
    p.ln0_bias = Mat<T>::Zero(1, s.d_model);
    for (int l = 0; l < s.layers; ++l) {
        LayerParams<T> L;
        L.wq = random_matrix<T>(s.d_model, s.d_model, sd, state);
        L.wk = random_matrix<T>(s.d_model, s.d_model, sd, state);
        L.wv = random_matrix<T>(s.d_model, s.d_model, sd, state);
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
    return p;
}

template <class T>
T forward(const EncoderParams<T>& p, const MlmBatch& batch, ForwardCache<T>& cache) {
    encode(p, batch.ids, batch.sequences, batch.length, cache.encoder);
    // The masked rows through the tied decoder, and the mean cross-entropy.
    const auto M = static_cast<Eigen::Index>(batch.rows.size());
    if (M == 0) throw std::invalid_argument("an MLM batch needs at least one masked row");
    cache.masked_rows.resize(M, p.shape.d_model);
    for (Eigen::Index m = 0; m < M; ++m) cache.masked_rows.row(m) = cache.encoder.hidden.row(batch.rows[static_cast<std::size_t>(m)]);
    cache.probs = decode(p, cache.masked_rows);
    softmax_in_place(cache.probs);
    T loss = 0;
    for (Eigen::Index m = 0; m < M; ++m) loss -= std::log(cache.probs(m, batch.targets[static_cast<std::size_t>(m)]));
    cache.loss = loss / static_cast<T>(M);
    return cache.loss;
}

template <class T>
void backward(const EncoderParams<T>& p, const MlmBatch& batch, const ForwardCache<T>& cache,
              EncoderParams<T>& g) {
    const EncoderShape& s = p.shape;
    const int n = batch.length, B = batch.sequences, h = s.heads, dk = s.d_k();
    const Eigen::Index N = static_cast<Eigen::Index>(B) * n;
    const T scale = T(1) / std::sqrt(static_cast<T>(dk));
    const auto M = static_cast<Eigen::Index>(batch.rows.size());

    // loss = mean −log p[target]: ∂/∂logits = (p − one_hot) / M.
    Mat<T> dlogits = cache.probs;
    for (Eigen::Index m = 0; m < M; ++m) dlogits(m, batch.targets[static_cast<std::size_t>(m)]) -= T(1);
    dlogits /= static_cast<T>(M);
    g.out_bias += dlogits.colwise().sum();
    g.tok += dlogits.transpose() * cache.masked_rows;  // the decoder's share of the tied weights
    const Mat<T> dmasked = dlogits * p.tok;
    Mat<T> dx = Mat<T>::Zero(N, s.d_model);
    for (Eigen::Index m = 0; m < M; ++m) dx.row(batch.rows[static_cast<std::size_t>(m)]) += dmasked.row(m);

    for (std::size_t l = p.layers.size(); l-- > 0;) {
        const LayerParams<T>& L = p.layers[l];
        LayerParams<T>& G = g.layers[l];
        const LayerCache<T>& c = cache.encoder.layers[l];
        // y2 = LN2(y1 + act·W_2 + b_2)
        const Mat<T> dr2 = layer_norm_backward(dx, c.xhat2, c.inv_std2, L.ln2_gain, G.ln2_gain, G.ln2_bias);
        G.w2 += c.act.transpose() * dr2;
        G.b2 += dr2.colwise().sum();
        const Mat<T> dact = dr2 * L.w2.transpose();
        const Mat<T> dpre = dact.array() * c.pre.unaryExpr([](T v) { return gelu_derivative(v); }).array();
        G.w1 += c.y1.transpose() * dpre;
        G.b1 += dpre.colwise().sum();
        const Mat<T> dy1 = dr2 + dpre * L.w1.transpose();
        // y1 = LN1(x + concat·W_o + b_o)
        const Mat<T> dr1 = layer_norm_backward(dy1, c.xhat1, c.inv_std1, L.ln1_gain, G.ln1_gain, G.ln1_bias);
        G.wo += c.concat.transpose() * dr1;
        G.bo += dr1.colwise().sum();
        const Mat<T> dconcat = dr1 * L.wo.transpose();
        // Each head: A_j = P·V_j with P = softmax(Q_j·K_jᵀ·scale).
        Mat<T> dq(N, s.d_model), dk_(N, s.d_model), dv(N, s.d_model);
        for (int b = 0; b < B; ++b) {
            for (int j = 0; j < h; ++j) {
                const auto rows = Eigen::seqN(static_cast<Eigen::Index>(b) * n, n);
                const auto cols = Eigen::seqN(static_cast<Eigen::Index>(j) * dk, dk);
                const Mat<T>& P = c.probs[static_cast<std::size_t>(b * h + j)];
                const Mat<T> dA = dconcat(rows, cols);
                dv(rows, cols) = P.transpose() * dA;
                const Mat<T> dP = dA * c.v(rows, cols).transpose();
                // The softmax Jacobian row by row: dS = P ∘ (dP − rowsum(dP ∘ P)).
                const Eigen::Matrix<T, Eigen::Dynamic, 1> inner = (dP.array() * P.array()).rowwise().sum();
                const Mat<T> dS = (P.array() * (dP.array().colwise() - inner.array())).matrix() * scale;
                dq(rows, cols) = dS * c.k(rows, cols);
                dk_(rows, cols) = dS.transpose() * c.q(rows, cols);
            }
        }
        G.wq += c.x.transpose() * dq;
        G.bq += dq.colwise().sum();
        G.wk += c.x.transpose() * dk_;
        G.bk += dk_.colwise().sum();
        G.wv += c.x.transpose() * dv;
        G.bv += dv.colwise().sum();
        // The residual carries dr1 straight to x.
        dx = dr1 + dq * L.wq.transpose() + dk_ * L.wk.transpose() + dv * L.wv.transpose();
    }

    // x = LN0(tok[ids] + PE): the embedding rows collect their tokens' gradients.
    const Mat<T> dx0 = layer_norm_backward(dx, cache.encoder.xhat0, cache.encoder.inv_std0, p.ln0_gain, g.ln0_gain, g.ln0_bias);
    for (Eigen::Index r = 0; r < N; ++r) g.tok.row(batch.ids[static_cast<std::size_t>(r)]) += dx0.row(r);
}

template <class T>
T loss_and_gradients(const EncoderParams<T>& p, const MlmBatch& batch, EncoderParams<T>& grads, int threads) {
    // Whole sequences to each part; a part's masked rows renumbered within it.
    const int parts = std::max(1, std::min(threads, batch.sequences));
    std::vector<MlmBatch> split(static_cast<std::size_t>(parts));
    const auto n = static_cast<std::size_t>(batch.length);
    for (int k = 0; k < parts; ++k) {
        MlmBatch& b = split[static_cast<std::size_t>(k)];
        const int first = batch.sequences * k / parts, last = batch.sequences * (k + 1) / parts;
        b.sequences = last - first;
        b.length = batch.length;
        b.ids.assign(batch.ids.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(first) * n),
                     batch.ids.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(last) * n));
        for (std::size_t m = 0; m < batch.rows.size(); ++m) {
            const auto row = static_cast<std::size_t>(batch.rows[m]);
            if (row >= static_cast<std::size_t>(first) * n && row < static_cast<std::size_t>(last) * n) {
                b.rows.push_back(static_cast<std::int32_t>(row - static_cast<std::size_t>(first) * n));
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

#define ATTENTION_TRAIN_INSTANTIATE(T)                                                                   \
    template EncoderParams<T> init_params<T>(const EncoderShape&, std::uint64_t);                        \
    template T forward(const EncoderParams<T>&, const MlmBatch&, ForwardCache<T>&);                      \
    template void backward(const EncoderParams<T>&, const MlmBatch&, const ForwardCache<T>&, EncoderParams<T>&); \
    template T loss_and_gradients(const EncoderParams<T>&, const MlmBatch&, EncoderParams<T>&, int);
ATTENTION_TRAIN_INSTANTIATE(float)
ATTENTION_TRAIN_INSTANTIATE(double)
#undef ATTENTION_TRAIN_INSTANTIATE

}  // namespace attention::train

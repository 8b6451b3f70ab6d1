#include "mlm.hpp"

#include <cmath>
#include <stdexcept>

#include "attention/error.hpp"

namespace attention::train {

std::uint64_t Rng::next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

double Rng::uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

std::int64_t Rng::below(std::int64_t n) {
    return static_cast<std::int64_t>(uniform() * static_cast<double>(n));
}

MlmBatch mask_batch(const std::vector<std::int32_t>& ids, int sequences, int length, int vocab,
                    const SpecialIds& special, Rng& rng) {
    if (sequences < 1 || length < 1 ||
        ids.size() != static_cast<std::size_t>(sequences) * static_cast<std::size_t>(length)) {
        throw Error("invalid_argument", "mask_batch: ids must hold sequences × length ids");
    }
    if (vocab <= special.first_normal)
        throw Error("invalid_argument", "mask_batch: no ordinary tokens in the vocabulary");
    MlmBatch batch;
    batch.sequences = sequences;
    batch.length = length;
    batch.ids = ids;
    std::vector<std::int32_t> candidates;
    const auto kept_before_sep = [&](std::size_t r) {
        const auto id = static_cast<std::size_t>(ids[r]);
        return r + 1 < ids.size() && ids[r + 1] == special.sep &&
               id < special.unmasked_before_sep.size() && special.unmasked_before_sep[id] != 0;
    };
    for (std::size_t r = 0; r < ids.size(); ++r) {
        if (ids[r] >= special.first_normal && !kept_before_sep(r))
            candidates.push_back(static_cast<std::int32_t>(r));
    }
    if (candidates.empty())
        throw Error("invalid_argument", "mask_batch: no ordinary token to mask");
    for (const std::int32_t r : candidates) {
        if (rng.uniform() < 0.15) batch.rows.push_back(r);
    }
    if (batch.rows.empty())
        batch.rows.push_back(candidates[static_cast<std::size_t>(
            rng.below(static_cast<std::int64_t>(candidates.size())))]);
    for (const std::int32_t r : batch.rows) {
        auto& id = batch.ids[static_cast<std::size_t>(r)];
        batch.targets.push_back(id);
        const double u = rng.uniform();
        if (u < 0.8) {
            id = special.mask;
        } else if (u < 0.9) {
            id = static_cast<std::int32_t>(special.first_normal +
                                           rng.below(vocab - special.first_normal));
        }  // else: unchanged
    }
    return batch;
}

template <class T>
AdamWState<T> adamw_state(const EncoderParams<T>& params) {
    return {zeros_like(params), zeros_like(params), 0};
}

template <class T>
void adamw_step(EncoderParams<T>& params, const EncoderParams<T>& grads, AdamWState<T>& state,
                const AdamWConfig& c, double lr) {
    state.step += 1;
    const double correct1 = 1.0 - std::pow(c.beta1, static_cast<double>(state.step));
    const double correct2 = 1.0 - std::pow(c.beta2, static_cast<double>(state.step));
    // The four structures list their blocks in the same order: walk them together.
    std::vector<const Mat<T>*> g;
    std::vector<Mat<T>*> m, v;
    grads.for_each([&](const std::string&, const Mat<T>& x) { g.push_back(&x); });
    state.m.for_each([&](const std::string&, Mat<T>& x) { m.push_back(&x); });
    state.v.for_each([&](const std::string&, Mat<T>& x) { v.push_back(&x); });
    std::size_t k = 0;
    params.for_each([&](const std::string&, Mat<T>& p) {
        const Mat<T>& gk = *g[k];
        Mat<T>& mk = *m[k];
        Mat<T>& vk = *v[k];
        ++k;
        // Decoupled weight decay on 2-D params only (0 · pi leaves a 1-D param as it is).
        const double decay = p.rows() > 1 ? lr * c.weight_decay : 0.0;
        // One pass without branches, in double: the fast build vectorises it (-fno-math-errno).
        T* __restrict pp = p.data();
        T* __restrict mp = mk.data();
        T* __restrict vp = vk.data();
        const T* __restrict gp = gk.data();
        for (Eigen::Index i = 0; i < p.size(); ++i) {
            const double gi = gp[i];
            const double mi = c.beta1 * mp[i] + (1 - c.beta1) * gi;
            const double vi = c.beta2 * vp[i] + (1 - c.beta2) * gi * gi;
            mp[i] = static_cast<T>(mi);
            vp[i] = static_cast<T>(vi);
            double pi = pp[i];
            pi -= decay * pi;
            pi -= lr * (mi / correct1) / (std::sqrt(vi / correct2) + c.eps);
            pp[i] = static_cast<T>(pi);
        }
    });
}

template AdamWState<float> adamw_state(const EncoderParams<float>&);
template AdamWState<double> adamw_state(const EncoderParams<double>&);
template void adamw_step(EncoderParams<float>&, const EncoderParams<float>&, AdamWState<float>&,
                         const AdamWConfig&, double);
template void adamw_step(EncoderParams<double>&, const EncoderParams<double>&, AdamWState<double>&,
                         const AdamWConfig&, double);

}  // namespace attention::train

// Masked-language-model batches, AdamW, and a few training steps whose loss falls.
#include <doctest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "train/encoder.hpp"
#include "train/mlm.hpp"

using namespace attention::train;

TEST_CASE("mask_batch: 15 % of ordinary tokens, split 80/10/10; special tokens never; seeded") {
    const SpecialIds special;
    const int sequences = 200, length = 50, vocab = 60;
    std::vector<std::int32_t> ids;
    for (int s = 0; s < sequences; ++s) {
        ids.push_back(special.cls);
        for (int i = 1; i < length - 1; ++i)
            ids.push_back(special.first_normal + (s * 7 + i) % (vocab - special.first_normal));
        ids.push_back(special.sep);
    }
    Rng rng(3);
    const MlmBatch b = mask_batch(ids, sequences, length, vocab, special, rng);
    const double ordinary = sequences * (length - 2);
    CHECK(static_cast<double>(b.rows.size()) / ordinary == doctest::Approx(0.15).epsilon(0.05));
    int masked = 0, same = 0, other = 0;
    for (std::size_t k = 0; k < b.rows.size(); ++k) {
        const auto r = static_cast<std::size_t>(b.rows[k]);
        CHECK(ids[r] >= special.first_normal);  // never [CLS] or [SEP]
        CHECK(b.targets[k] == ids[r]);
        if (b.ids[r] == special.mask)
            ++masked;
        else if (b.ids[r] == ids[r])
            ++same;
        else
            ++other;
    }
    const double m = static_cast<double>(b.rows.size());
    CHECK(masked / m == doctest::Approx(0.8).epsilon(0.05));
    CHECK(same / m == doctest::Approx(0.1).epsilon(0.3));
    CHECK(other / m == doctest::Approx(0.1).epsilon(0.3));
    // Rows not chosen are untouched; the same seed masks the same way.
    std::size_t changed = 0;
    for (std::size_t r = 0; r < ids.size(); ++r) changed += b.ids[r] != ids[r];
    CHECK(changed <= b.rows.size());
    Rng again(3);
    CHECK(mask_batch(ids, sequences, length, vocab, special, again).ids == b.ids);
    // A tiny batch still masks one token.
    Rng one(5);
    CHECK(mask_batch({special.cls, 9, special.sep}, 1, 3, vocab, special, one).rows ==
          std::vector<std::int32_t>{1});
}

TEST_CASE(
    "adamw_step: the first step moves each param by lr against its gradient's sign; decay on "
    "weights only") {
    const EncoderShape shape{6, 4, 1, 4, 1};  // vocab, d_model, heads, d_ff, layers
    EncoderParams<double> p = init_params<double>(shape, 1);
    const EncoderParams<double> before = p;
    EncoderParams<double> g = zeros_like(p);
    g.tok(0, 0) = 0.5;
    g.out_bias(0, 1) = -2.0;
    auto state = adamw_state(p);
    AdamWConfig config;
    config.eps = 1e-12;  // so the step is lr·g/|g| to within 1e-11
    adamw_step(p, g, state, config, 0.1);
    // m̂ = g, v̂ = g²: the step is lr·sign(g); decay lr·wd·p first on the 2-D tok.
    const double decayed = before.tok(0, 0) * (1 - 0.1 * 0.01);
    CHECK(p.tok(0, 0) == doctest::Approx(decayed - 0.1));
    CHECK(p.out_bias(0, 1) == doctest::Approx(before.out_bias(0, 1) + 0.1));  // a bias: no decay
    CHECK(p.tok(1, 1) ==
          doctest::Approx(before.tok(1, 1) * (1 - 0.1 * 0.01)));  // zero gradient: decay only
    CHECK(state.step == 1);
}

TEST_CASE("training: a few AdamW steps on a small fixture make the loss fall, deterministically") {
    // Sequences of 7 ids counting up from a random start: each token follows from its neighbours.
    const SpecialIds special;
    const EncoderShape shape{12, 16, 2, 32, 1};  // vocab, d_model, heads, d_ff, layers
    const int sequences = 8, length = 10;
    auto train = [&](int steps) {
        EncoderParams<float> p = init_params<float>(shape, 42);
        auto state = adamw_state(p);
        Rng rng(9);
        std::vector<float> losses;
        for (int step = 0; step < steps; ++step) {
            std::vector<std::int32_t> ids;
            for (int s = 0; s < sequences; ++s) {
                const auto start = rng.below(7);
                ids.push_back(special.cls);
                for (int i = 1; i < length - 1; ++i)
                    ids.push_back(
                        static_cast<std::int32_t>(special.first_normal + (start + i) % 7));
                ids.push_back(special.sep);
            }
            const MlmBatch batch = mask_batch(ids, sequences, length, shape.vocab, special, rng);
            ForwardCache<float> cache;
            losses.push_back(forward(p, batch, cache));
            EncoderParams<float> g = zeros_like(p);
            backward(p, batch, cache, g);
            adamw_step(p, g, state, AdamWConfig{}, 3e-3);
        }
        return losses;
    };
    const std::vector<float> losses = train(150);
    const auto mean = [&](std::size_t from, std::size_t to) {
        return std::accumulate(losses.begin() + static_cast<long>(from),
                               losses.begin() + static_cast<long>(to), 0.0) /
               static_cast<double>(to - from);
    };
    MESSAGE("loss: first 10 steps " << mean(0, 10) << ", last 10 " << mean(140, 150));
    // About uniform over the 12 ids at first; then the model learns which 7
    // ever occur (ln 7 ≈ 1.95). Using the neighbours to go below that takes a
    // thousand steps or more, past a plateau: the real training's business.
    CHECK(mean(0, 10) == doctest::Approx(std::log(12.0)).epsilon(0.1));
    CHECK(mean(140, 150) < mean(0, 10) - 0.3);
    CHECK(mean(140, 150) < std::log(7.0) + 0.1);
    CHECK(train(20) ==
          std::vector<float>(losses.begin(), losses.begin() + 20));  // the same seed, the same run
}

TEST_CASE(
    "mask_batch: ids flagged unmasked_before_sep are never masked right before [SEP], and may be "
    "elsewhere") {
    SpecialIds special;
    const int vocab = 12, stop = 9;  // id 9 plays a sentence's final 。
    special.unmasked_before_sep.assign(vocab, 0);
    special.unmasked_before_sep[stop] = 1;
    std::vector<std::int32_t> ids;
    const int sequences = 400, length = 6;
    for (int s = 0; s < sequences; ++s)
        for (const std::int32_t id : {special.cls, 5, stop, 6, stop, special.sep})
            ids.push_back(id);
    Rng rng(11);
    const MlmBatch b = mask_batch(ids, sequences, length, vocab, special, rng);
    std::size_t inner_stops = 0;
    for (const std::int32_t r : b.rows) {
        CHECK(r % length != 4);  // the 。 before [SEP]
        inner_stops += r % length == 2;
    }
    CHECK(inner_stops > 0);  // the 。 inside the sentence is still masked now and then
    // Without the flags the final one is masked too.
    Rng again(11);
    const MlmBatch plain = mask_batch(ids, sequences, length, vocab, SpecialIds{}, again);
    CHECK(std::any_of(plain.rows.begin(), plain.rows.end(),
                      [](std::int32_t r) { return r % 6 == 4; }));
}

// The trainer's encoder: every parameter block's hand-written gradient against
// central finite differences, in double (the way llm.c's test_gpt2 checks its
// backward pass against a reference, printing the largest difference).
#include <doctest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "attention/stages.hpp"
#include "train/encoder.hpp"
#include "train/mlm.hpp"

using namespace attention::train;

namespace {

// A small encoder with params far from their initial values (random gains,
// biases and larger weights), so that no block's gradient is trivially zero.
EncoderParams<double> test_params(const EncoderShape& shape) {
    EncoderParams<double> p = init_params<double>(shape, 7);
    Rng rng(11);
    p.for_each([&](const std::string& name, Mat<double>& m) {
        const bool gain = name.find("gain") != std::string::npos;
        for (Eigen::Index i = 0; i < m.size(); ++i) {
            const double u = rng.uniform() * 2 - 1;
            m.data()[i] = gain ? 1 + 0.3 * u : 0.4 * u;
        }
    });
    return p;
}

MlmBatch test_batch(const EncoderShape& shape) {
    // Two sequences of 5: [CLS] a b c [SEP], with rows 1, 3, 7 and 8 masked.
    MlmBatch b;
    b.sequences = 2;
    b.length = 5;
    b.ids = {2, 4, 7, 9, 3, 2, 6, 4, 4, 3};
    b.rows = {1, 3, 7, 8};
    b.targets = {5, 9, 11, shape.vocab - 1};
    return b;
}

}  // namespace

TEST_CASE(
    "encoder: every parameter block's gradient matches central differences (double, with and "
    "without ÷√d_k, with and without a factorised embedding)") {
    for (const int variant : {0, 1, 2, 3}) {
        const bool scaled = variant % 2 == 0;
        const int embedding = variant < 2 ? 0 : 5;  // 5 numbers a token, then 5 × 8 to d_model
        EncoderShape shape{13, 8, 2, 12, 2};        // vocab, d_model, heads, d_ff, layers
        shape.scaled = scaled;
        shape.embedding = embedding;
        CAPTURE(scaled);
        CAPTURE(embedding);
        EncoderParams<double> p = test_params(shape);
        const MlmBatch batch = test_batch(shape);
        ForwardCache<double> cache;
        const double loss = forward(p, batch, cache);
        CHECK(std::isfinite(loss));
        EncoderParams<double> grads = zeros_like(p);
        backward(p, batch, cache, grads);

        std::vector<const Mat<double>*> analytic;
        grads.for_each([&](const std::string&, const Mat<double>& g) { analytic.push_back(&g); });
        std::size_t block = 0;
        int blocks = 0;
        p.for_each([&](const std::string& name, Mat<double>& m) {
            const Mat<double>& g = *analytic[block++];
            double worst = 0, largest = 0;
            for (Eigen::Index i = 0; i < m.size(); ++i) {
                const double keep = m.data()[i];
                const double h = 1e-5;
                ForwardCache<double> scratch;
                m.data()[i] = keep + h;
                const double up = forward(p, batch, scratch);
                m.data()[i] = keep - h;
                const double down = forward(p, batch, scratch);
                m.data()[i] = keep;
                const double numeric = (up - down) / (2 * h);
                worst = std::fmax(worst, std::fabs(numeric - g.data()[i]));
                largest = std::fmax(largest, std::fabs(numeric));
            }
            MESSAGE(name << ": max |analytic − numeric| = " << worst << " (largest gradient "
                         << largest << ")");
            CAPTURE(name);
            if (name.size() > 3 && name.compare(name.size() - 3, 3, ".bk") == 0) {
                // b_k adds q·b_k to every score of a query's row, and softmax does
                // not change when a row is shifted: the key bias never matters.
                CHECK(largest < 1e-8);
            } else {
                CHECK(largest > 1e-6);  // the block does take part in the loss
            }
            CHECK(worst <= 1e-7 * std::fmax(1.0, largest));
            ++blocks;
        });
        CHECK(blocks == 3 + 2 * 16 + 1 + (embedding > 0 ? 1 : 0));  // tok_proj
        CHECK(p.tok.cols() == (embedding > 0 ? embedding : 8));
    }
}

TEST_CASE(
    "encoder with one matrix for queries and keys: W_k = W_q from the start, and its gradient is "
    "both together") {
    EncoderShape shape{13, 8, 2, 12, 2};  // vocab, d_model, heads, d_ff, layers
    shape.shared_qk = true;
    const EncoderParams<double> fresh = init_params<double>(shape, 7);
    EncoderShape apart = shape;
    apart.shared_qk = false;
    const EncoderParams<double> separate = init_params<double>(apart, 7);
    for (std::size_t l = 0; l < fresh.layers.size(); ++l) {
        CHECK(fresh.layers[l].wk == fresh.layers[l].wq);
        CHECK(fresh.layers[l].wv ==
              separate.layers[l].wv);  // the other blocks as they would be apart
        CHECK(fresh.layers[l].w2 == separate.layers[l].w2);
    }
    EncoderParams<double> p = test_params(shape);
    for (auto& L : p.layers) L.wk = L.wq, L.bk = L.bq;  // one matrix, one bias
    const MlmBatch batch = test_batch(shape);
    ForwardCache<double> cache;
    forward(p, batch, cache);
    EncoderParams<double> grads = zeros_like(p);
    backward(p, batch, cache, grads);
    for (std::size_t l = 0; l < p.layers.size(); ++l) {
        CAPTURE(l);
        CHECK(grads.layers[l].wk ==
              grads.layers[l].wq);  // each copy gets the same step: they stay one
        CHECK(grads.layers[l].bk == grads.layers[l].bq);
        // Moving the one matrix (both copies at once) moves the loss by its gradient.
        for (auto [param, grad] :
             {std::pair{std::pair{&p.layers[l].wq, &p.layers[l].wk}, &grads.layers[l].wq},
              std::pair{std::pair{&p.layers[l].bq, &p.layers[l].bk}, &grads.layers[l].bq}}) {
            double worst = 0, largest = 0;
            for (Eigen::Index i = 0; i < param.first->size(); ++i) {
                const double keep = param.first->data()[i];
                const double h = 1e-5;
                ForwardCache<double> scratch;
                param.first->data()[i] = param.second->data()[i] = keep + h;
                const double up = forward(p, batch, scratch);
                param.first->data()[i] = param.second->data()[i] = keep - h;
                const double down = forward(p, batch, scratch);
                param.first->data()[i] = param.second->data()[i] = keep;
                const double numeric = (up - down) / (2 * h);
                worst = std::fmax(worst, std::fabs(numeric - grad->data()[i]));
                largest = std::fmax(largest, std::fabs(numeric));
            }
            MESSAGE("shared W_q/b_q, layer " << l << ": max |analytic − numeric| = " << worst
                                             << " (largest gradient " << largest << ")");
            CHECK(largest > 1e-6);  // unlike b_k alone, the shared bias moves the scores
            CHECK(worst <= 1e-7 * std::fmax(1.0, largest));
        }
    }
}

TEST_CASE("encoder: the loss of uniform predictions is ln(vocab); masked rows only count") {
    const EncoderShape shape{17, 8, 2, 8, 1};  // vocab, d_model, heads, d_ff, layers
    EncoderParams<double> p = init_params<double>(shape, 1);
    p.tok.setZero();  // every logit 0: uniform over the vocabulary
    ForwardCache<double> cache;
    const MlmBatch batch = test_batch(shape);
    CHECK(forward(p, batch, cache) == doctest::Approx(std::log(17.0)));
    CHECK(cache.probs.rows() == 4);
}

TEST_CASE(
    "encoder: float and double agree, factorised or not; the positions are the core's "
    "positional_encoding") {
    for (const int embedding : {0, 5}) {
        CAPTURE(embedding);
        EncoderShape shape{13, 8, 2, 12, 2};  // vocab, d_model, heads, d_ff, layers
        shape.embedding = embedding;
        const EncoderParams<double> pd = test_params(shape);
        EncoderParams<float> pf = attention::zero_params<float>(shape);
        std::vector<const Mat<double>*> blocks;
        pd.for_each([&](const std::string&, const Mat<double>& m) { blocks.push_back(&m); });
        std::size_t k = 0;
        pf.for_each([&](const std::string&, Mat<float>& m) { m = blocks[k++]->cast<float>(); });
        ForwardCache<double> cd;
        ForwardCache<float> cf;
        const MlmBatch batch = test_batch(shape);
        CHECK(forward(pf, batch, cf) == doctest::Approx(forward(pd, batch, cd)).epsilon(1e-5));
        CHECK((attention::decode(pf, cf.encoder.hidden).cast<double>() -
               attention::decode(pd, cd.encoder.hidden))
                  .cwiseAbs()
                  .maxCoeff() < 1e-4);
    }
    const Mat<double> pe = attention::positional_encoding(3, 4).cast<double>();
    CHECK(pe(0, 0) == 0.0);
    CHECK(pe(0, 1) == 1.0);
    CHECK(pe(2, 2) == doctest::Approx(std::sin(2 / 100.0)));  // 2 / 10000^(2/4)
    CHECK(pe(2, 3) == doctest::Approx(std::cos(2 / 100.0)));
}

TEST_CASE(
    "encode: each head's weights are rows of a softmax; uniform when Q and K are 0; ids are "
    "checked") {
    const EncoderShape shape{9, 8, 2, 8, 1};
    EncoderParams<double> p = attention::zero_params<double>(shape);
    p.ln0_gain.setOnes();
    p.layers[0].ln1_gain.setOnes();
    p.layers[0].ln2_gain.setOnes();
    for (int j = 0; j < 8; ++j) p.layers[0].bv(0, j) = j + 1;  // V = b_v for every token
    EncoderCache<double> cache;
    attention::encode(p, {2, 5, 6, 3, 2, 7, 7, 3}, 2, 4, cache);
    REQUIRE(cache.layers[0].weights.size() == 4);  // 2 sequences × 2 heads
    for (const auto& P : cache.layers[0].weights) {
        CHECK(P.rows() == 4);
        CHECK((P.array() - 0.25).abs().maxCoeff() < 1e-12);  // Q·Kᵀ = 0: every key weighs 1/4
    }
    CHECK((cache.layers[0].concat.rowwise() - p.layers[0].bv.row(0)).cwiseAbs().maxCoeff() <
          1e-12);  // Σ 1/4 · b_v = b_v
    CHECK(cache.hidden.rows() == 8);
    const Mat<double> logits = attention::decode(p, cache.hidden);
    CHECK(logits.rows() == 8);
    CHECK(logits.cols() == 9);
    CHECK_THROWS_AS(attention::encode(p, {2, 9, 3}, 1, 3, cache),
                    std::invalid_argument);  // id 9 ≥ vocab
    CHECK_THROWS_AS(attention::encode(p, {2, 5, 3}, 1, 4, cache),
                    std::invalid_argument);  // 3 ids for 1 × 4
}

TEST_CASE("loss_and_gradients: split over threads, the same loss and gradient as one pass") {
    const EncoderShape shape{13, 8, 2, 12, 2};
    const EncoderParams<double> p = test_params(shape);
    const MlmBatch batch = test_batch(shape);
    ForwardCache<double> cache;
    const double loss = forward(p, batch, cache);
    EncoderParams<double> one = zeros_like(p), split = zeros_like(p);
    backward(p, batch, cache, one);
    CHECK(loss_and_gradients(p, batch, split, 2) == doctest::Approx(loss).epsilon(1e-12));
    std::vector<const Mat<double>*> g;
    split.for_each([&](const std::string&, const Mat<double>& m) { g.push_back(&m); });
    std::size_t k = 0;
    double worst = 0;
    one.for_each([&](const std::string&, const Mat<double>& m) {
        worst = std::fmax(worst, (m - *g[k++]).cwiseAbs().maxCoeff());
    });
    CHECK(worst < 1e-12);
    EncoderParams<double> three = zeros_like(p);
    CHECK(loss_and_gradients(p, batch, three, 3) ==
          doctest::Approx(loss).epsilon(1e-12));  // more threads than needed: fine
}

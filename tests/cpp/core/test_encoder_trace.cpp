// A trained model's run: each head's view as a Trace, the layer's stages, the
// report card, knock-out, and the shelf of models by id.
#include <doctest.h>

#include "attention/encoder_trace.hpp"
#include "attention/heads.hpp"
#include "attention/kernels.hpp"
#include "attention/model_shelf.hpp"
#include "attention/softmax_row.hpp"
#include "attention/stages.hpp"
#include "helpers.hpp"
#include "train/encoder.hpp"

using namespace attention;
using test_support::contains;
using test_support::error_from;

namespace {

std::shared_ptr<const TrainedModel> small_model() {
    static const auto model = [] {
        const EncoderShape shape{10, 8, 2, 16, 2};
        EncoderParams<float> params = train::init_params<float>(shape, 7);
        params.for_each([](const std::string& name, Mat<float>& m) {
            if (name.find("gain") == std::string::npos) m *= 10.0f;  // weights far from uniform
        });
        Vocabulary vocabulary(
            {"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "我", "喜", "欢", "你", "猫"});
        return std::make_shared<const TrainedModel>(
            TrainedModel{std::move(vocabulary), std::move(params), nullptr});
    }();
    return model;
}

}  // namespace

TEST_CASE("run_encoder: every head's view is a Trace whose stages follow from its own q, k, v") {
    const EncoderTrace t = run_encoder(small_model(), "test", "我喜欢猫");
    REQUIRE(t.tokens.size() == 6);
    CHECK(t.tokens[2].text == "喜");
    CHECK(t.tokens[2].id == 6);
    CHECK(t.layers() == 2);
    CHECK(t.heads() == 2);
    for (int layer = 0; layer < 2; ++layer) {
        for (int head = 0; head < 2; ++head) {
            const Trace h = t.head(layer, head);
            CHECK(h.config.d_k == 4);
            CHECK(h.divisor() == doctest::Approx(2.0));
            const LayerParams<float>& L =
                small_model()->params.layers[static_cast<std::size_t>(layer)];
            const Attention a = attention_reference(h.x, *h.head, true, false);
            // q, k, v are the head's columns of x·W + b, the rest as the paper writes it.
            CHECK((a.q - h.q).cwiseAbs().maxCoeff() < 1e-4f);
            CHECK((a.weights - h.weights).cwiseAbs().maxCoeff() < 1e-5f);
            CHECK((a.output - h.output).cwiseAbs().maxCoeff() < 1e-4f);
            CHECK(h.head->wq.cols() == 4);
            CHECK(h.head->wq(0, 0) == L.wq(0, head * 4));
            // The concat holds each head's output in its columns.
            const Matrix concat = t.layer_stage("concat", layer);
            CHECK((concat.middleCols(head * 4, 4) - h.output).cwiseAbs().maxCoeff() < 1e-5f);
            // The explainers take a head's view like the seeded head.
            const SoftmaxRow row = softmax_row(h, 2, false);
            CHECK(row.probs[1] == doctest::Approx(h.weights(2, 1)).epsilon(1e-5));
        }
        // Layer 1's input is layer 0's output.
        if (layer == 1) CHECK(t.layer_stage("x", 1) == t.layer_stage("layerOutput", 0));
    }
    // The layer's stages chain: residual = x + projected; ffResidual = norm + ffOutput.
    CHECK((t.layer_stage("residual", 0) - t.layer_stage("x", 0) - t.layer_stage("projected", 0))
              .cwiseAbs()
              .maxCoeff() < 1e-5f);
    CHECK((t.layer_stage("ffResidual", 0) - t.layer_stage("norm", 0) - t.layer_stage("ffOutput", 0))
              .cwiseAbs()
              .maxCoeff() < 1e-4f);
    CHECK(t.layer_stage("ffHidden", 0).cols() == 16);
    // LayerNorm's rows: mean 0 before gain and bias are applied (gain 1, bias 0 at init).
    CHECK(std::abs(t.layer_stage("norm", 0).row(1).mean()) < 1e-4f);
    CHECK(t.layer_stage("layerOutput", 1) == t.cache.hidden);
    CHECK(error_from([&] { t.layer_stage("logits", 0); }).code() == "unknown_stage");
    CHECK(contains(error_from([&] { t.layer_stage("concat", 2); }).what(), "no layer 2"));
    CHECK(contains(error_from([&] { t.head(0, 2); }).what(), "no head 2 in layer 0"));
    CHECK(error_from([&] { t.head(-1, 0); }).code() == "invalid_argument");
}

TEST_CASE(
    "run_encoder: knocking a head out zeroes its columns of the concat, keeps its weights, changes "
    "what follows") {
    const EncoderTrace plain = run_encoder(small_model(), "test", "我喜欢猫");
    const EncoderTrace silenced = run_encoder(small_model(), "test", "我喜欢猫", {{0, 1}});
    CHECK(silenced.knocked_out(0, 1));
    CHECK_FALSE(silenced.knocked_out(0, 0));
    CHECK(silenced.layer_stage("concat", 0).middleCols(4, 4).isZero());
    CHECK(silenced.layer_stage("concat", 0).middleCols(0, 4) ==
          plain.layer_stage("concat", 0).middleCols(0, 4));
    CHECK(silenced.head(0, 1).weights == plain.head(0, 1).weights);
    CHECK(silenced.head(0, 1).output ==
          plain.head(0, 1).output);  // what the head computes, before it is silenced
    CHECK((silenced.layer_stage("layerOutput", 0) - plain.layer_stage("layerOutput", 0))
              .cwiseAbs()
              .maxCoeff() > 1e-3f);
    CHECK(contains(error_from([&] {
                       run_encoder(small_model(), "test", "我", {{1, 5}});
                   }).what(),
                   "no head 5 in layer 1"));
    const HeadReport report = head_report(plain.head(1, 0));
    const auto& s = report.shares;
    CHECK(s.self + s.previous + s.next + s.special <= doctest::Approx(1.0f + 1e-5f));
    CHECK(s.self ==
          doctest::Approx(plain.head(1, 0).weights.diagonal().segment(1, 4).mean()).epsilon(1e-5));
}

TEST_CASE(
    "run_encoder: the model's vocabulary, [UNK] for what it lacks, [MASK] in any case; bad text is "
    "an error") {
    const EncoderTrace t = run_encoder(small_model(), "test", "我[mask]狗");
    REQUIRE(t.tokens.size() == 5);
    CHECK(t.tokens[2].id == Vocabulary::kMask);
    CHECK(t.tokens[3].text == "[UNK]");
    CHECK(t.tokens[3].id == Vocabulary::kUnk);
    CHECK(error_from([&] { run_encoder(small_model(), "test", ""); }).code() == "empty_text");
    CHECK(error_from([&] { run_encoder(small_model(), "test", "\xff"); }).code() == "invalid_utf8");
}

TEST_CASE(
    "ModelShelf: trained models by id, then random; damaged files and bad ids refused, the shelf "
    "unchanged") {
    const std::vector<std::uint8_t> bytes =
        save_model(small_model()->params, small_model()->vocabulary);
    ModelShelf shelf;
    REQUIRE(shelf.list().size() == 1);
    CHECK(shelf.list()[0].id == "random");
    CHECK(shelf.list()[0].d_model == 768);
    CHECK(shelf.list()[0].d_k == 64);
    CHECK_FALSE(shelf.list()[0].trained);
    const ModelInfo info = shelf.add("trained", bytes.data(), bytes.size());
    CHECK(info.trained);
    CHECK(info.layers == 2);
    CHECK(info.heads == 2);
    CHECK(info.d_k == 4);
    CHECK(info.vocab_size == 10);
    CHECK(shelf.list().size() == 2);
    CHECK(shelf.list()[0].id == "trained");
    CHECK(shelf.trained("trained")->params.shape.d_ff == 16);
    std::vector<std::uint8_t> damaged = bytes;
    damaged[damaged.size() / 2] ^= 0x40;
    CHECK(error_from([&] { shelf.add("other", damaged.data(), damaged.size()); }).code() ==
          "invalid_model");
    CHECK(error_from([&] { shelf.add("other", bytes.data(), bytes.size() - 1); }).code() ==
          "invalid_model");
    CHECK(error_from([&] { shelf.add("random", bytes.data(), bytes.size()); }).code() ==
          "invalid_argument");
    CHECK(error_from([&] { shelf.add("Big Model", bytes.data(), bytes.size()); }).code() ==
          "invalid_argument");
    CHECK(shelf.list().size() == 2);
    const Error unknown = error_from([&] { shelf.trained("other"); });
    CHECK(unknown.code() == "unknown_model");
    CHECK(contains(unknown.what(), "\"trained\""));
    shelf.add("trained", bytes.data(), bytes.size());  // the same id replaces
    CHECK(shelf.list().size() == 2);
}

TEST_CASE(
    "encode: the vectorised GELU and softmax the API runs agree with the exact ones the trainer "
    "runs") {
    const auto model = small_model();
    const std::vector<std::int32_t> ids = {2, 5, 6, 7, 9, 8, 4, 3};
    EncoderCache<float> exact, fast;
    encode(model->params, ids, 1, 8, exact, {}, Elementwise::exact);
    encode(model->params, ids, 1, 8, fast, {}, Elementwise::vectorised);
    for (std::size_t l = 0; l < exact.layers.size(); ++l) {
        for (std::size_t h = 0; h < exact.layers[l].weights.size(); ++h) {
            CHECK((exact.layers[l].weights[h] - fast.layers[l].weights[h]).cwiseAbs().maxCoeff() <
                  1e-5f);
        }
        const Mat<float>& a = exact.layers[l].ff_hidden;
        CHECK(
            ((a - fast.layers[l].ff_hidden).array().abs() / a.array().abs().max(1.0f)).maxCoeff() <
            1e-5f);
    }
    CHECK((exact.hidden - fast.hidden).cwiseAbs().maxCoeff() < 1e-3f);
    // GELU itself, over a range wider than any activation: within 2e-7 · max(1, |x|) of std::tanh's
    // form.
    Matrix x(1, 2001);
    for (Eigen::Index j = 0; j < x.cols(); ++j) x(0, j) = -20.0f + 0.02f * static_cast<float>(j);
    Matrix g = x;
    kernels::gelu_in_place(g);
    for (Eigen::Index j = 0; j < x.cols(); ++j) {
        const double v = x(0, j), c = 0.7978845608028654;
        const double want = 0.5 * v * (1 + std::tanh(c * (v + 0.044715 * v * v * v)));
        CHECK(std::abs(g(0, j) - want) <= 2e-7 * std::max(1.0, std::abs(v)) + 1e-7);
    }
}

TEST_CASE(
    "encode: with the weights packed once (as a loaded model runs) the same numbers as packed per "
    "product") {
    const auto model = small_model();
    const PackedEncoder packed = pack_encoder(model->params);
    const std::vector<std::int32_t> ids = {2, 5, 6, 7, 9, 8, 4, 3};
    EncoderCache<float> per_call, once;
    encode(model->params, ids, 1, 8, per_call, {{1, 0}}, Elementwise::vectorised);
    encode(model->params, ids, 1, 8, once, {{1, 0}}, Elementwise::vectorised, &packed);
    CHECK(per_call.hidden == once.hidden);
    CHECK(per_call.layers[1].q == once.layers[1].q);
    CHECK(per_call.layers[0].ff_hidden == once.layers[0].ff_hidden);
    const auto a = predict_masked(model->params, model->vocabulary, "我[MASK]欢", 3);
    const auto b = predict_masked(model->params, model->vocabulary, "我[MASK]欢", 3, {}, &packed);
    CHECK(a[0][0].token == b[0][0].token);
    CHECK(a[0][0].probability == b[0][0].probability);
    // A loaded model comes packed.
    const std::vector<std::uint8_t> bytes = save_model(model->params, model->vocabulary);
    CHECK(load_model(bytes.data(), bytes.size()).packed != nullptr);
}

TEST_CASE("PackedEncoder::tok_t: tokᵀ packed at the first call, once, shared by copies") {
    const auto model = small_model();
    const PackedEncoder packed = pack_encoder(model->params);
    const PackedEncoder copy = packed;  // NOLINT(performance-unnecessary-copy-initialization)
    const kernels::Panels& first = copy.tok_t(model->params.tok);
    kernels::Panels want;
    kernels::pack_transposed(model->params.tok, want);
    CHECK(first.k == want.k);
    CHECK(first.n == want.n);
    CHECK(first.data == want.data);  // the zero padding of the last panel included
    CHECK(&packed.tok_t(model->params.tok) == &first);  // the copy's packing is the original's
}

TEST_CASE("rank_answers: the hidden text's place in the guesses, as predict_masked orders them") {
    const auto model = small_model();
    const auto& p = model->params;
    const auto& v = model->vocabulary;
    const auto guesses = predict_masked(p, v, "我[MASK]欢", 5);  // all five characters, in order
    REQUIRE(guesses[0].size() == 5);
    for (std::size_t k = 0; k < 5; ++k) {
        const auto ranks = rank_answers(p, v, "我[MASK]欢", {guesses[0][k].token}, 5);
        REQUIRE(ranks.size() == 1);
        CAPTURE(guesses[0][k].token);
        CHECK(ranks[0].guessable);
        CHECK(ranks[0].rank == static_cast<std::int64_t>(k + 1));
        CHECK(ranks[0].probability == guesses[0][k].probability);
        CHECK(ranks[0].candidates == 5);
        CHECK(ranks[0].pieces == std::vector<std::string>{guesses[0][k].token});
        CHECK(ranks[0].shown);  // within the five listed
        // Listed to rank - 1 only, the answer is just below the list; listed to its rank, in it.
        if (k > 0)
            CHECK_FALSE(rank_answers(p, v, "我[MASK]欢", {guesses[0][k].token}, int(k))[0].shown);
        CHECK(rank_answers(p, v, "我[MASK]欢", {guesses[0][k].token}, int(k + 1))[0].shown);
    }
    // Two [MASK]s: each answer against its own row; knocked-out heads as predict_masked's.
    const auto two = predict_masked(p, v, "[MASK]喜[MASK]", 5, {{1, 0}});
    const auto ranked =
        rank_answers(p, v, "[MASK]喜[MASK]", {two[0][2].token, two[1][4].token}, 5, {{1, 0}});
    CHECK(ranked[0].rank == 3);
    CHECK(ranked[1].rank == 5);
    CHECK(ranked[1].probability == two[1][4].probability);
    // Not one token a [MASK] is guessed among: no rank.
    const auto word = rank_answers(p, v, "我[MASK]欢", {"猫猫"}, 5);
    CHECK_FALSE(word[0].guessable);
    CHECK(word[0].rank == 0);
    CHECK(word[0].pieces == std::vector<std::string>{"猫", "猫"});
    CHECK_FALSE(word[0].shown);
    CHECK_FALSE(rank_answers(p, v, "我[MASK]欢", {"[MASK]"}, 5)[0].guessable);
    CHECK(contains(error_from([&] {
                       rank_answers(p, v, "我[MASK]欢", {"我", "你"}, 5);
                   }).what(),
                   "one text for each [MASK]"));
    CHECK(contains(error_from([&] { rank_answers(p, v, "我[MASK]欢", {" "}, 5); }).what(),
                   "empty text"));
    CHECK(
        contains(error_from([&] { rank_answers(p, v, "我[MASK]欢", {"我"}, 0); }).what(), "topK"));
    CHECK(
        contains(error_from([&] { rank_answers(p, v, "我喜欢", {"我"}, 5); }).what(), "no [MASK]"));
}

// Attention rollout: each layer's heads averaged and mixed half and half with
// the identity, multiplied last layer first; knocked-out heads left out; the
// selected row beside the last layer's average; a trained run's rollout.
#include <doctest.h>

#include "attention/encoder_trace.hpp"
#include "attention/model.hpp"
#include "attention/rollout.hpp"
#include "helpers.hpp"
#include "train/encoder.hpp"

using namespace attention;
using test_support::contains;
using test_support::error_from;
using test_support::make;

namespace {

// Three 3 × 3 row-stochastic attention matrices (made inside the tests: make() checks with
// REQUIRE).
struct Heads {
    Matrix a = make(3, 3, {0.2f, 0.5f, 0.3f, 0.1f, 0.1f, 0.8f, 0.6f, 0.3f, 0.1f});
    Matrix b = make(3, 3, {0.0f, 1.0f, 0.0f, 0.5f, 0.0f, 0.5f, 0.25f, 0.25f, 0.5f});
    Matrix c = make(3, 3, {1.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 1.0f});
};

void require_close(const Matrix& a, const Matrix& b) {
    REQUIRE(a.rows() == b.rows());
    for (Eigen::Index i = 0; i < a.rows(); ++i)
        for (Eigen::Index j = 0; j < a.cols(); ++j)
            CHECK(a(i, j) == doctest::Approx(b(i, j)).epsilon(1e-6));
}

}  // namespace

TEST_CASE("attention_rollout: ½·mean + ½·I a layer, the last layer on the left; rows sum to 1") {
    const Heads m;
    const Matrix &kA = m.a, &kB = m.b, &kC = m.c;
    const Matrix I = Matrix::Identity(3, 3);
    const Rollout r = attention_rollout({{&kA, &kB}, {&kC, &kA}}, {});
    const Matrix first = 0.5f * (0.5f * (kA + kB)) + 0.5f * I;
    const Matrix second = 0.5f * (0.5f * (kC + kA)) + 0.5f * I;
    require_close(r.rollout, second * first);
    require_close(r.last, 0.5f * (kC + kA));
    for (Eigen::Index i = 0; i < 3; ++i) CHECK(r.rollout.row(i).sum() == doctest::Approx(1.0));
    CHECK(r.averaged == std::vector<int>{2, 2});
    // One layer of one head: ½·A + ½·I.
    require_close(attention_rollout({{&kA}}, {}).rollout, 0.5f * kA + 0.5f * I);
}

TEST_CASE(
    "attention_rollout leaves a knocked-out head out of its layer's average; a layer with none "
    "left passes tokens on") {
    const Heads m;
    const Matrix &kA = m.a, &kB = m.b, &kC = m.c;
    const Rollout r = attention_rollout({{&kA, &kB}}, {{true, false}});
    require_close(r.rollout, 0.5f * kB + 0.5f * Matrix(Matrix::Identity(3, 3)));
    CHECK(r.averaged == std::vector<int>{1});
    const Rollout none = attention_rollout({{&kA, &kB}, {&kC}}, {{true, true}, {false}});
    require_close(none.rollout, 0.5f * kC + 0.5f * Matrix(Matrix::Identity(3, 3)));
    CHECK(none.averaged == std::vector<int>{0, 1});
    CHECK(contains(error_from([] { attention_rollout({}, {}); }).what(), "at least one layer"));
    const Matrix small = Matrix::Identity(2, 2);
    CHECK(contains(error_from([&] { attention_rollout({{&kA, &small}}, {}); }).what(), "n × n"));
}

TEST_CASE(
    "rollout_row: the row in both, each one's largest share on another token, and on itself") {
    const Heads m;
    const Matrix &kA = m.a, &kB = m.b;
    const Rollout r = attention_rollout({{&kA}, {&kB}}, {});
    const RolloutRow row = rollout_row(r, 1);
    CHECK(row.rollout.size() == 3);
    CHECK(row.last == std::vector<float>{0.5f, 0.0f, 0.5f});
    CHECK(row.last_top == 0);  // 0.5 and 0.5: the first
    CHECK(row.rollout_self == r.rollout(1, 1));
    CHECK(row.last_self == 0.0f);
    const auto j = static_cast<Eigen::Index>(row.rollout_top);
    CHECK(j != 1);
    for (Eigen::Index k = 0; k < 3; ++k) {
        if (k != 1) CHECK(r.rollout(1, j) >= r.rollout(1, k));
    }
    CHECK(contains(error_from([&] { rollout_row(r, 3); }).what(), "row 3 is outside"));
}

TEST_CASE(
    "rollout_row: whether the token's own share is at least the top other token's, in the rollout "
    "and in the last layer; whether their tops differ") {
    // Row 1 of constructed matrices (rows need not come from attention here: the rule only
    // compares). Self first in the rollout (0.5 against 0.3), not in the last layer (0.1 against
    // 0.6).
    const Rollout one{make(3, 3, {1, 0, 0, 0.2f, 0.5f, 0.3f, 0, 0, 1}),
                      make(3, 3, {1, 0, 0, 0.6f, 0.1f, 0.3f, 0, 0, 1}),
                      {1, 1}};
    const RolloutRow a = rollout_row(one, 1);
    CHECK(a.rollout_top == 2);
    CHECK(a.rollout_self_first);
    CHECK(a.last_top == 0);
    CHECK_FALSE(a.last_self_first);
    // The other way round: the last layer keeps most on itself (0.7 against 0.2), the rollout does
    // not (0.3 against 0.4).
    const Rollout two{make(3, 3, {1, 0, 0, 0.4f, 0.3f, 0.3f, 0, 0, 1}),
                      make(3, 3, {1, 0, 0, 0.1f, 0.7f, 0.2f, 0, 0, 1}),
                      {1, 1}};
    const RolloutRow b = rollout_row(two, 1);
    CHECK_FALSE(b.rollout_self_first);
    CHECK(b.rollout_top == 0);
    CHECK(b.last_self_first);
    CHECK(b.last_top == 2);
    CHECK(a.tops_differ);  // 2 against 0
    CHECK(b.tops_differ);  // 0 against 2
    // The same other token on top of both (0): they agree.
    const Rollout same{make(3, 3, {1, 0, 0, 0.5f, 0.2f, 0.3f, 0, 0, 1}),
                       make(3, 3, {1, 0, 0, 0.6f, 0.1f, 0.3f, 0, 0, 1}),
                       {1, 1}};
    CHECK_FALSE(rollout_row(same, 1).tops_differ);
    // A tie with the top other token counts as first: "goes to another token" then says strictly
    // more.
    const Rollout tie{make(3, 3, {1, 0, 0, 0.4f, 0.4f, 0.2f, 0, 0, 1}),
                      make(3, 3, {1, 0, 0, 0.2f, 0.4f, 0.4f, 0, 0, 1}),
                      {1, 1}};
    CHECK(rollout_row(tie, 1).rollout_self_first);
    CHECK(rollout_row(tie, 1).last_self_first);
}

TEST_CASE(
    "a run's rollout: the seeded head's, and a trained model's over its layers' heads, knock-outs "
    "left out") {
    const Trace t = run_attention("我喜欢人工智能");
    require_close(attention_rollout(t).rollout,
                  0.5f * t.weights + 0.5f * Matrix(Matrix::Identity(9, 9)));

    const EncoderShape shape{10, 8, 2, 16, 2};
    EncoderParams<float> params = train::init_params<float>(shape, 7);
    Vocabulary vocabulary(
        {"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "我", "喜", "欢", "你", "猫"});
    const auto model = std::make_shared<const TrainedModel>(
        TrainedModel{std::move(vocabulary), std::move(params), nullptr});
    const EncoderTrace e = run_encoder(model, "test", "我喜欢猫", {{1, 0}});
    const Rollout r = e.rollout();
    const Matrix I = Matrix::Identity(6, 6);
    const Matrix first = 0.5f * (0.5f * (e.head(0, 0).weights + e.head(0, 1).weights)) + 0.5f * I;
    const Matrix second = 0.5f * e.head(1, 1).weights + 0.5f * I;  // head 0 of layer 1 knocked out
    require_close(r.rollout, second * first);
    CHECK(r.averaged == std::vector<int>{2, 1});
}

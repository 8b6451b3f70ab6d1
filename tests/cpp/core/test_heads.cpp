// A head's report card on hand-made weights, and the model's guesses for [MASK].
#include <doctest.h>

#include "attention/heads.hpp"
#include "helpers.hpp"
#include "train/encoder.hpp"

using namespace attention;
using test_support::contains;
using test_support::error_from;

namespace {

// n × n weights where every row puts `main` on column column_of(i), the rest spread evenly.
Mat<float> weights(Eigen::Index n, float main, Eigen::Index (*column_of)(Eigen::Index, Eigen::Index)) {
    Mat<float> w = Mat<float>::Constant(n, n, (1 - main) / static_cast<float>(n - 1));
    for (Eigen::Index i = 0; i < n; ++i) w(i, column_of(i, n)) = main;
    return w;
}

const Vocabulary& vocabulary() {
    static const Vocabulary v({"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "我", "喜", "欢", "你", "猫"});
    return v;
}

}  // namespace

TEST_CASE("head_report: the shares each kind of head gets, and the label of the one that dominates") {
    const std::vector<std::int32_t> ids = {2, 5, 6, 7, 8, 3};  // [CLS] 我 喜 欢 你 [SEP]
    const HeadReport previous = head_report(weights(6, 0.9f, [](Eigen::Index i, Eigen::Index) { return i > 0 ? i - 1 : 0; }), ids);
    CHECK(previous.shares.previous == doctest::Approx(0.9));
    CHECK(previous.label == "previous");
    CHECK(head_report(weights(6, 0.8f, [](Eigen::Index i, Eigen::Index) { return i; }), ids).label == "self");
    CHECK(head_report(weights(6, 0.7f, [](Eigen::Index i, Eigen::Index n) { return std::min(i + 1, n - 1); }), ids).label == "next");
    const HeadReport special = head_report(weights(6, 0.6f, [](Eigen::Index, Eigen::Index n) { return n - 1; }), ids);
    CHECK(special.shares.special == doctest::Approx(0.6 + 0.4 / 5));  // [SEP] 0.6, [CLS] an even share
    CHECK(special.label == "special");
    const HeadReport spread = head_report(Mat<float>::Constant(6, 6, 1.0f / 6), ids);
    CHECK(spread.label.empty());
    CHECK(spread.shares.self == doctest::Approx(1.0 / 6));
    // The same character twice: 你 我 你 — each 你 looks at the other.
    const std::vector<std::int32_t> twice = {2, 8, 5, 8, 3};
    Mat<float> w = Mat<float>::Constant(5, 5, 0.0f);
    w(1, 3) = w(3, 1) = 1.0f;
    w(2, 2) = 1.0f;
    w(0, 0) = w(4, 4) = 1.0f;
    const HeadReport same = head_report(w, twice);
    CHECK(same.shares.same == doctest::Approx(2.0 / 3));
    CHECK(same.label == "same");
    CHECK(contains(error_from([&] { head_report(Mat<float>::Zero(4, 4), ids); }).what(), "n × n"));
}

TEST_CASE("predict_masked: one sorted list of guesses per [MASK]; knock-out changes them; bad requests are errors") {
    const EncoderShape shape{10, 8, 2, 16, 1};
    EncoderParams<float> model = train::init_params<float>(shape, 4);
    model.for_each([](const std::string& name, Mat<float>& m) {
        if (name.find("gain") == std::string::npos) m *= 20.0f;  // larger weights: the heads matter
    });
    const auto guesses = predict_masked(model, vocabulary(), "我[MASK]欢[mask]", 3);
    REQUIRE(guesses.size() == 2);
    REQUIRE(guesses[0].size() == 3);
    CHECK(guesses[0][0].probability >= guesses[0][1].probability);
    CHECK(guesses[0][1].probability >= guesses[0][2].probability);
    // Only tokens that start a word are guessed: 我 喜 欢 你 猫, no special token, no ##piece.
    const auto everything = predict_masked(model, vocabulary(), "我[MASK]欢", 10);
    REQUIRE(everything[0].size() == 5);
    float total = 0;
    for (const auto& g : everything[0]) {
        total += g.probability;
        CHECK(g.token.front() != '[');
    }
    CHECK(total > 0.0f);
    CHECK(total <= 1.0f + 1e-5f);  // their share of the softmax over the whole vocabulary
    const Vocabulary pieces({"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "我", "喜", "欢", "你", "##猫"});
    const auto without_pieces = predict_masked(model, pieces, "我[MASK]欢", 10);
    REQUIRE(without_pieces[0].size() == 4);
    for (const auto& g : without_pieces[0]) CHECK(g.token != "##猫");
    const auto silenced = predict_masked(model, vocabulary(), "我[MASK]欢[mask]", 3, {{0, 1}});
    CHECK(silenced[0][0].probability != guesses[0][0].probability);
    CHECK(contains(error_from([&] { predict_masked(model, vocabulary(), "我喜欢", 3); }).what(), "no [MASK]"));
    CHECK(contains(error_from([&] { predict_masked(model, vocabulary(), "[MASK]", 0); }).what(), "topK must be"));
    CHECK(contains(error_from([&] { predict_masked(model, vocabulary(), "[MASK]", 3, {{0, 2}}); }).what(), "no head 2 in layer 0"));
    CHECK(error_from([&] { predict_masked(model, vocabulary(), "\xff", 3); }).code() == "invalid_utf8");
    CHECK(predict_masked(model, vocabulary(), "[MASK][MASK][MASK]", 1).size() == 3);  // a sentence of masks only
}

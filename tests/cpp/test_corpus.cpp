// Corpus lines into training sequences, batches drawn from them, and the
// held-out evaluation.
#include <doctest.h>

#include <stdexcept>

#include "train/corpus.hpp"
#include "train/evaluate.hpp"

using namespace attention;
using namespace attention::train;

namespace {

const Vocabulary& vocabulary() {
    static const Vocabulary v({"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "我", "喜", "欢", "你", "a", "##b"});
    return v;
}

}  // namespace

TEST_CASE("make_stream and make_sequences: each line closed by [SEP], run together, cut into [CLS] … [SEP] windows") {
    const TokenStream stream = make_stream({"我喜欢你", "\xff", "ab 猫", "   ", "喜欢"}, vocabulary());
    // 我 喜 欢 你 [SEP] | a ##b [UNK] [SEP] | 喜 欢 [SEP]: bad and blank lines skipped.
    CHECK(stream.ids == std::vector<std::int32_t>{5, 6, 7, 8, 3, 9, 10, 1, 3, 6, 7, 3});
    CHECK(stream.unknown == 1);
    const Sequences s = make_sequences(stream, 6);
    REQUIRE(s.count() == 3);
    CHECK(s.ids == std::vector<std::int32_t>{2, 5, 6, 7, 8, 3, /**/ 2, 3, 9, 10, 1, 3, /**/ 2, 3, 6, 7, 3, 3});
    CHECK(make_sequences(make_stream({"我"}, vocabulary()), 6).count() == 0);  // too short for one window
}

TEST_CASE("draw_batch: windows of the asked length at random places, masked; the same seed draws the same batch") {
    const TokenStream stream = make_stream({"我喜欢你我喜欢你我喜欢你"}, vocabulary());
    Rng a(1), b(1);
    const SpecialIds special;
    const MlmBatch x = draw_batch(stream, 3, 6, 11, special, a), y = draw_batch(stream, 3, 6, 11, special, b);
    CHECK(x.ids == y.ids);
    CHECK(x.ids.size() == 18);
    CHECK(x.ids[0] == Vocabulary::kCls);
    CHECK(x.ids[5] == Vocabulary::kSep);
    CHECK_FALSE(x.rows.empty());
    CHECK_THROWS_AS(draw_batch(stream, 1, 20, 11, special, a), std::invalid_argument);  // longer than the stream
}

TEST_CASE("evaluate: a model that always says 喜 is right exactly where 喜 was hidden") {
    const EncoderShape shape{11, 8, 2, 8, 1};
    EncoderParams<float> p = init_params<float>(shape, 3);
    p.out_bias(0, 6) = 100;  // every prediction: 喜
    const Sequences s = make_sequences(make_stream({"喜喜喜喜喜喜喜喜喜喜喜喜", "我欢你"}, vocabulary()), 14);
    REQUIRE(s.count() == 1);  // 17 ids: one window of 12 (the 喜 line), the rest too short
    const Evaluation e = evaluate(p, s, 8, 1);
    CHECK(e.masked > 0);
    CHECK(e.top1 == 1.0);
    CHECK(e.top5 == 1.0);
    CHECK(e.loss < 1e-6);
    const SentenceAttention a = attention_of(p, vocabulary(), "我喜欢");
    CHECK(a.tokens.size() == 5);
    REQUIRE(a.weights.size() == 1);
    REQUIRE(a.weights[0].size() == 2);
    CHECK(a.weights[0][1].rows() == 5);
    CHECK(a.weights[0][1].row(2).sum() == doctest::Approx(1.0));
}

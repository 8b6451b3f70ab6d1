// Corpus lines into training sequences, batches drawn from them, and the
// held-out evaluation.
#include <doctest.h>

#include <algorithm>
#include <stdexcept>

#include "train/corpus.hpp"
#include "train/evaluate.hpp"
#include "train/schedule.hpp"

using namespace attention;
using namespace attention::train;

namespace {

const Vocabulary& vocabulary() {
    static const Vocabulary v(
        {"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "我", "喜", "欢", "你", "a", "##b"});
    return v;
}

}  // namespace

TEST_CASE(
    "make_stream and make_sequences: each line closed by [SEP], run together, cut into [CLS] … "
    "[SEP] windows") {
    const TokenStream stream =
        make_stream({"我喜欢你", "\xff", "ab 猫", "   ", "喜欢"}, vocabulary());
    // 我 喜 欢 你 [SEP] | a ##b [UNK] [SEP] | 喜 欢 [SEP]: bad and blank lines skipped.
    CHECK(stream.ids == std::vector<std::int32_t>{5, 6, 7, 8, 3, 9, 10, 1, 3, 6, 7, 3});
    CHECK(stream.unknown == 1);
    const Sequences s = make_sequences(stream, 6);
    REQUIRE(s.count() == 3);
    CHECK(s.ids == std::vector<std::int32_t>{2, 5, 6, 7, 8, 3, /**/ 2, 3, 9, 10, 1, 3, /**/ 2, 3, 6,
                                             7, 3, 3});
    CHECK(make_sequences(make_stream({"我"}, vocabulary()), 6).count() ==
          0);  // too short for one window
}

TEST_CASE(
    "draw_batch: windows of the asked length at random places, masked; the same seed draws the "
    "same batch") {
    const TokenStream stream = make_stream({"我喜欢你我喜欢你我喜欢你"}, vocabulary());
    Rng a(1), b(1);
    const SpecialIds special;
    const MlmBatch x = draw_batch(stream, 3, 6, 11, special, a),
                   y = draw_batch(stream, 3, 6, 11, special, b);
    CHECK(x.ids == y.ids);
    CHECK(x.ids.size() == 18);
    CHECK(x.ids[0] == Vocabulary::kCls);
    CHECK(x.ids[5] == Vocabulary::kSep);
    CHECK_FALSE(x.rows.empty());
    CHECK_THROWS_AS(draw_batch(stream, 1, 20, 11, special, a),
                    std::invalid_argument);  // longer than the stream
}

TEST_CASE("evaluate: a model that always says 喜 is right exactly where 喜 was hidden") {
    const EncoderShape shape{11, 8, 2, 8, 1};
    EncoderParams<float> p = init_params<float>(shape, 3);
    p.out_bias(0, 6) = 100;  // every prediction: 喜
    const Sequences s =
        make_sequences(make_stream({"喜喜喜喜喜喜喜喜喜喜喜喜", "我欢你"}, vocabulary()), 14);
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

namespace {

const Vocabulary& sentences_vocabulary() {
    static const Vocabulary v({"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "我", "喜", "欢", "你",
                               "猫", "。", "！", "”", "hi", "there", "##s"});
    return v;
}

}  // namespace

TEST_CASE("is_punctuation: one symbol that is not a letter, a digit or a CJK character") {
    for (const char* p : {"。", "，", "!", ".", "”", "…", "！", "?"})
        CHECK_MESSAGE(is_punctuation(p), p);
    for (const char* w : {"a", "hi", "##s", "[SEP]", "[MASK]", "喜", "é", "7", ""})
        CHECK_FALSE_MESSAGE(is_punctuation(w), w);
    CHECK(is_punctuation("["));  // a bracket alone is punctuation; a special token is not
}

TEST_CASE(
    "make_units: each sentence and each pair of a paragraph's sentences, with and without trailing "
    "punctuation, by length") {
    const Vocabulary& v = sentences_vocabulary();
    // Two paragraphs: 我喜欢猫。 | 你喜欢我！” and hi there.
    const SentenceUnits u = make_units({"我喜欢猫。", "你喜欢我！”", "", "hi there"}, v, 62);
    const auto ids = [&](const std::string& text) {
        std::vector<std::int32_t> out;
        for (const Token& t : v.tokenize(text)) out.push_back(t.id);
        return std::vector<std::int32_t>(out.begin() + 1,
                                         out.end() - 1);  // without [CLS] and [SEP]
    };
    std::vector<std::vector<std::int32_t>> units;
    for (std::size_t length = 0; length < u.by_length.size(); ++length) {
        for (const std::uint32_t at : u.by_length[length])
            units.emplace_back(u.ids.begin() + static_cast<std::ptrdiff_t>(at),
                               u.ids.begin() + static_cast<std::ptrdiff_t>(at + length));
    }
    std::sort(units.begin(), units.end());
    std::vector<std::vector<std::int32_t>> expected = {
        ids("我喜欢猫。"),
        ids("我喜欢猫"),
        ids("你喜欢我！”"),
        ids("你喜欢我"),
        ids("我喜欢猫。你喜欢我！”"),
        ids("我喜欢猫。你喜欢我"),  // the pair, and the pair without its end
        ids("hi there")};           // no punctuation: once; not paired across paragraphs
    std::sort(expected.begin(), expected.end());
    CHECK(units == expected);
    CHECK(u.count() == 7);
    CHECK(make_units({"我喜欢猫。"}, v, 4).count() ==
          1);  // at most max_length ids: 我喜欢猫 fits, 我喜欢猫。 does not
    CHECK_THROWS_AS(make_units({"我喜欢猫。"}, v, 3), std::invalid_argument);  // nothing fits
}

TEST_CASE(
    "draw_sentence_batch: units of one length, each in [CLS] … [SEP], about the tokens asked; the "
    "same seed draws the same") {
    const Vocabulary& v = sentences_vocabulary();
    const SentenceUnits u = make_units(
        {"我喜欢猫。", "你喜欢我！”", "", "hi there", "", "我喜欢你", "", "猫喜欢我"}, v, 62);
    const SpecialIds special;
    Rng a(3), b(3);
    for (int k = 0; k < 20; ++k) {
        const MlmBatch x = draw_sentence_batch(u, 60, static_cast<int>(v.size()), special, a);
        const MlmBatch y = draw_sentence_batch(u, 60, static_cast<int>(v.size()), special, b);
        CHECK(x.ids == y.ids);
        CHECK(x.sequences * x.length <= 60);
        CHECK(x.sequences == 60 / x.length);
        for (int s = 0; s < x.sequences; ++s) {
            CHECK(x.ids[static_cast<std::size_t>(s * x.length)] == Vocabulary::kCls);
            CHECK(x.ids[static_cast<std::size_t>(s * x.length + x.length - 1)] == Vocabulary::kSep);
        }
    }
}

TEST_CASE(
    "draw_mixed_batch: the one mix — sentence units at its share, pools by their share, windows "
    "shrunk or not") {
    const Vocabulary& v = sentences_vocabulary();
    const SentenceUnits zh = make_units({"我喜欢猫。", "你喜欢我！”"}, v, 30),
                        en = make_units({"hi there"}, v, 30), none;
    const TokenStream stream = make_stream(std::vector<std::string>(40, "我喜欢猫。你喜欢我。"), v);
    const SpecialIds special;
    const int vocab = static_cast<int>(v.size());
    Rng rng(5);
    int sentences = 0, from_en = 0, shrunk = 0;
    for (int k = 0; k < 400; ++k) {
        // Windows of 64, 32 or 16 ids; the units are all shorter than 16.
        const MlmBatch b = draw_mixed_batch({&zh, &en}, stream, 1, 64, vocab, special, rng,
                                            BatchMix{0.5, 0.75, true});
        const bool sentence = b.length < 16;
        sentences += sentence;
        from_en += sentence && b.length == 4;  // [CLS] hi there [SEP]; the Chinese units are longer
        shrunk += !sentence && b.length < 64;
        if (!sentence) CHECK(b.sequences * b.length == 64);  // as many tokens, whatever the window
    }
    CHECK(sentences > 160);
    CHECK(sentences < 240);
    CHECK(from_en > sentences / 8);
    CHECK(from_en < sentences / 2);
    CHECK(shrunk > 0);
    // No units at all, or a share of 0: windows of the asked length only.
    for (int k = 0; k < 20; ++k) {
        CHECK(draw_mixed_batch({&none}, stream, 1, 64, vocab, special, rng, BatchMix{}).length ==
              64);
        CHECK(draw_mixed_batch({&zh}, stream, 1, 64, vocab, special, rng, BatchMix{0.0}).length ==
              64);
    }
}

TEST_CASE(
    "learning_rate: a linear warm-up over 5 % of the steps to the peak, then a linear decay") {
    CHECK(warmup_steps(400) == 20);
    CHECK(warmup_steps(10) == 1);
    CHECK(learning_rate(1e-3, 1, 400) == doctest::Approx(1e-3 / 20));
    CHECK(learning_rate(1e-3, 20, 400) == doctest::Approx(1e-3));
    CHECK(learning_rate(1e-3, 21, 400) == doctest::Approx(1e-3));
    CHECK(learning_rate(1e-3, 400, 400) == doctest::Approx(1e-3 / 381));
    CHECK(learning_rate(1e-3, 200, 400, 0.5) == doctest::Approx(1e-3));
}

TEST_CASE(
    "the neighbour-count baseline guesses from the tokens before and after, as the model is "
    "scored") {
    const Vocabulary& v = sentences_vocabulary();
    std::vector<std::string> lines;
    for (int k = 0; k < 10; ++k) lines.push_back("我喜欢猫");
    lines.push_back("你喜欢我");
    const NeighbourCounts counts(lines, v);
    const std::vector<std::int32_t> guess = counts.guess(v.id("我"), v.id("欢"), 3);
    REQUIRE(guess.size() == 3);
    CHECK(guess[0] == v.id("喜"));
    const std::vector<MaskedItem> items = {{"我[MASK]欢猫", "喜"},
                                           {"[MASK]喜欢猫", "我"},
                                           {"我喜欢[MASK]", "猫"},
                                           {"我喜欢 [MASK]", "hits"}};
    const SetScore score = score_baseline(counts, v, items);
    CHECK(score.items == 4);
    CHECK(score.top1 == 3);  // "hits" is hi ##t… not one token: a miss whatever the guess
    CHECK(score.top5 == 3);
}

// Attention between words: the groups a sentence's tokens make, and Clark et
// al.'s rule (sum over a word's keys, mean over its queries).
#include <doctest.h>

#include "attention/model.hpp"
#include "attention/words.hpp"
#include "helpers.hpp"

using namespace attention;
using test_support::contains;
using test_support::error_from;
using test_support::make;

TEST_CASE("word_groups: the words as given, every other token alone, in order; bad words named") {
    const std::vector<WordSpan> g = word_groups(9, {{4, 7}, {2, 3}});
    REQUIRE(g.size() == 5);  // [CLS] 我 喜欢 人工智能 [SEP]
    CHECK(g[0].from == 0);
    CHECK(g[2].from == 2);
    CHECK(g[2].to == 3);
    CHECK(g[3].from == 4);
    CHECK(g[3].to == 7);
    CHECK(g[4].from == 8);
    CHECK(word_groups(3, {}).size() == 3);
    CHECK(contains(error_from([] {
                       word_groups(9, {{8, 9}});
                   }).what(),
                   "not within the sentence's 9 tokens"));
    CHECK(contains(error_from([] { word_groups(9, {{3, 3}}); }).what(), "is one token"));
    CHECK(contains(error_from([] { word_groups(9, {{2, 4}, {4, 5}}); }).what(), "overlaps"));
    CHECK(contains(error_from([] { word_groups(9, {{5, 2}}); }).what(), "from ≤ to"));
}

TEST_CASE(
    "word_attention: to a word, the sum over its keys; from a word, the mean over its queries; "
    "rows still add up to 1") {
    // 4 tokens a b c d, the word b–c.
    const Matrix w = make(4, 4,
                          {0.1f, 0.2f, 0.3f, 0.4f,  //
                           0.5f, 0.1f, 0.1f, 0.3f,  //
                           0.2f, 0.2f, 0.2f, 0.4f,  //
                           0.0f, 0.6f, 0.3f, 0.1f});
    const Matrix m = word_attention(w, word_groups(4, {{1, 2}}));
    REQUIRE(m.rows() == 3);
    CHECK(m(0, 1) == doctest::Approx(0.5));              // a → bc: 0.2 + 0.3
    CHECK(m(1, 0) == doctest::Approx((0.5 + 0.2) / 2));  // bc → a: the mean of b's and c's
    CHECK(m(1, 1) == doctest::Approx((0.2 + 0.4) / 2));
    CHECK(m(2, 1) == doctest::Approx(0.9));
    for (Eigen::Index i = 0; i < 3; ++i) CHECK(m.row(i).sum() == doctest::Approx(1.0));
    CHECK(word_attention(w, word_groups(4, {})) == w);  // no words: the tokens' own matrix
    CHECK(contains(error_from([&] { word_attention(w, word_groups(3, {})); }).what(), "cover"));
}

TEST_CASE("word_attention of a run: 喜欢 and 人工智能 as words") {
    const Trace t = run_attention("我喜欢人工智能");
    const Matrix m = word_attention(t.weights, word_groups(9, {{2, 3}, {4, 7}}));
    CHECK(m.rows() == 5);
    CHECK(m(1, 2) == doctest::Approx(t.weights(1, 2) + t.weights(1, 3)));
    CHECK(m(2, 3) ==
          doctest::Approx((t.weights.block(2, 4, 1, 4).sum() + t.weights.block(3, 4, 1, 4).sum()) /
                          2));
}

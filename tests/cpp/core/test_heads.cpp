// A head's report card on hand-made weights, and the model's guesses for [MASK].
#include <doctest.h>

#include "attention/encoder.hpp"
#include "attention/heads.hpp"
#include "attention/ops.hpp"
#include "helpers.hpp"
#include "train/encoder.hpp"

using namespace attention;
using test_support::contains;
using test_support::error_from;

namespace {

// n × n weights where every row puts `main` on column column_of(i), the rest spread evenly.
Mat<float> weights(Eigen::Index n, float main,
                   Eigen::Index (*column_of)(Eigen::Index, Eigen::Index)) {
    Mat<float> w = Mat<float>::Constant(n, n, (1 - main) / static_cast<float>(n - 1));
    for (Eigen::Index i = 0; i < n; ++i) w(i, column_of(i, n)) = main;
    return w;
}

const Vocabulary& vocabulary() {
    static const Vocabulary v(
        {"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "我", "喜", "欢", "你", "猫"});
    return v;
}

}  // namespace

TEST_CASE(
    "head_report: the shares each kind of head gets, and the label of the one that dominates") {
    const std::vector<std::int32_t> ids = {2, 5, 6, 7, 8, 3};  // [CLS] 我 喜 欢 你 [SEP]
    const HeadReport previous = head_report(
        weights(6, 0.9f, [](Eigen::Index i, Eigen::Index) { return i > 0 ? i - 1 : 0; }), ids);
    CHECK(previous.shares.previous == doctest::Approx(0.9));
    CHECK(previous.label == "previous");
    CHECK(
        head_report(weights(6, 0.8f, [](Eigen::Index i, Eigen::Index) { return i; }), ids).label ==
        "self");
    CHECK(
        head_report(
            weights(6, 0.7f, [](Eigen::Index i, Eigen::Index n) { return std::min(i + 1, n - 1); }),
            ids)
            .label == "next");
    const HeadReport special =
        head_report(weights(6, 0.6f, [](Eigen::Index, Eigen::Index n) { return n - 1; }), ids);
    CHECK(special.shares.special ==
          doctest::Approx(0.6 + 0.4 / 5));  // [SEP] 0.6, [CLS] an even share
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

TEST_CASE(
    "predict_masked: one sorted list of guesses per [MASK]; knock-out changes them; bad requests "
    "are errors") {
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
    const Vocabulary pieces(
        {"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "我", "喜", "欢", "你", "##猫"});
    const auto without_pieces = predict_masked(model, pieces, "我[MASK]欢", 10);
    REQUIRE(without_pieces[0].size() == 4);
    for (const auto& g : without_pieces[0]) CHECK(g.token != "##猫");
    const auto silenced = predict_masked(model, vocabulary(), "我[MASK]欢[mask]", 3, {{0, 1}});
    CHECK(silenced[0][0].probability != guesses[0][0].probability);
    CHECK(contains(error_from([&] { predict_masked(model, vocabulary(), "我喜欢", 3); }).what(),
                   "no [MASK]"));
    CHECK(contains(error_from([&] { predict_masked(model, vocabulary(), "[MASK]", 0); }).what(),
                   "topK must be"));
    CHECK(contains(error_from([&] {
                       predict_masked(model, vocabulary(), "[MASK]", 3, {{0, 2}});
                   }).what(),
                   "no head 2 in layer 0"));
    CHECK(error_from([&] { predict_masked(model, vocabulary(), "\xff", 3); }).code() ==
          "invalid_utf8");
    CHECK(predict_masked(model, vocabulary(), "[MASK][MASK][MASK]", 1).size() ==
          3);  // a sentence of masks only
}

TEST_CASE(
    "predict_masked at a depth: the prediction head on the [MASK]'s row after the embeddings or "
    "after a layer, as decode() gives it; the last depth is the model's own guess") {
    const EncoderShape shape{10, 8, 2, 16, 2};
    EncoderParams<float> model = train::init_params<float>(shape, 5);
    model.for_each([](const std::string& name, Mat<float>& m) {
        if (name.find("gain") == std::string::npos) m *= 20.0f;
    });
    const std::string text = "我[MASK]欢";
    const auto at = [&](int depth) {
        return predict_masked(model, vocabulary(), text, 5, {}, nullptr, GuessAmong::words,
                              GuessForms::as_typed, depth)[0];
    };
    const auto last = predict_masked(model, vocabulary(), text, 5)[0];
    REQUIRE(last.size() == 5);  // 我 喜 欢 你 猫
    for (std::size_t g = 0; g < last.size(); ++g) {
        CHECK(at(2)[g].token == last[g].token);
        CHECK(at(2)[g].probability == last[g].probability);
    }
    // The oracle: softmax(row · tokᵀ + b_out) over the whole vocabulary, the row being the input
    // of layer `depth` in encode()'s cache (its LayerNorm of the embeddings for depth 0).
    std::vector<std::int32_t> ids;
    Eigen::Index mask = -1;
    for (const Token& t : vocabulary().tokenize(text)) {
        if (t.id == Vocabulary::kMask) mask = static_cast<Eigen::Index>(ids.size());
        ids.push_back(t.id);
    }
    REQUIRE(mask >= 0);
    EncoderCache<float> cache;
    encode(model, ids, 1, static_cast<int>(ids.size()), cache);
    for (int depth = 0; depth < 2; ++depth) {
        CAPTURE(depth);
        Mat<float> probs =
            decode(model, Mat<float>(cache.layers[static_cast<std::size_t>(depth)].x.row(mask)));
        ops::softmax_rows_in_place(probs);
        const auto guesses = at(depth);
        REQUIRE(guesses.size() == 5);
        for (std::size_t g = 0; g < guesses.size(); ++g) {
            CHECK(guesses[g].probability ==
                  doctest::Approx(probs(0, vocabulary().id(guesses[g].token))).epsilon(1e-4));
            if (g > 0) CHECK(guesses[g - 1].probability >= guesses[g].probability);
        }
    }
    // Each depth reads another row: the head's answer there is not the model's.
    CHECK(at(0)[0].probability != last[0].probability);
    CHECK(at(1)[0].probability != last[0].probability);
    for (const int depth : {-1, 3}) {
        CAPTURE(depth);
        CHECK(contains(error_from([&] { at(depth); }).what(), "depth must be an integer from 0"));
    }
}

TEST_CASE(
    "predict_masked: by default characters and words only; GuessAmong::word_starts adds "
    "punctuation and symbols") {
    const Vocabulary v({"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "我", "。", "！", "cat", "7",
                        "`", "😀", "##s"});
    std::vector<std::string> guesses;
    for (const std::int32_t id : v.word_guesses()) guesses.push_back(v.token(id));
    CHECK(guesses == std::vector<std::string>{"我", "cat", "7"});
    CHECK(v.word_starts().size() == 7);  // 我 。 ！ cat 7 ` 😀: no special token, no ##piece
    const EncoderShape shape{static_cast<int>(v.size()), 8, 2, 16, 1};
    EncoderParams<float> model = train::init_params<float>(shape, 4);
    model.out_bias(0, v.id("。")) = 20.0f;  // the model puts nearly everything on 。
    const auto words = predict_masked(model, v, "我[MASK]", 5);
    REQUIRE(words[0].size() == 3);
    for (const Guess& g : words[0]) CHECK((g.token == "我" || g.token == "cat" || g.token == "7"));
    const auto all = predict_masked(model, v, "我[MASK]", 5, {}, nullptr, GuessAmong::word_starts);
    REQUIRE(all[0].size() == 5);
    CHECK(all[0][0].token == "。");
    CHECK(all[0][0].probability > 0.9f);
}

namespace {

// A sentence's weights for article_head() and token_link(): n × n, each row a
// softmax-like row built from the given (column, weight) pairs, the rest on [CLS].
Mat<float> rows_of(Eigen::Index n,
                   const std::vector<std::vector<std::pair<Eigen::Index, float>>>& rows) {
    Mat<float> w = Mat<float>::Zero(n, n);
    for (Eigen::Index i = 0; i < n; ++i) {
        float left = 1;
        for (const auto& [j, p] : rows[static_cast<std::size_t>(i)]) w(i, j) += p, left -= p;
        w(i, 0) += left;
    }
    return w;
}

}  // namespace

TEST_CASE(
    "article_head: a labelled head whose row for the token goes first to a neighbour, spread "
    "before peaked, then by weight") {
    // [CLS] 我 喜 欢 人 [SEP]: ids 2 5 6 7 8 3 (distinct, so "same" is 0).
    const std::vector<std::int32_t> ids = {2, 5, 6, 7, 8, 3};
    const auto next_all = [](float p) {  // every real token looks at the next: labelled "next"
        std::vector<std::vector<std::pair<Eigen::Index, float>>> r(6);
        for (Eigen::Index i = 1; i <= 4; ++i)
            r[static_cast<std::size_t>(i)] = {{i + 1, p}, {i, 1 - p}};
        return r;
    };
    const Mat<float> next_spread = rows_of(6, next_all(0.7f));   // 喜 → 欢 0.7, itself 0.3
    const Mat<float> next_peaked = rows_of(6, next_all(0.98f));  // 喜 → 欢 0.98: an argmax
    auto far_rows = next_all(0.7f);
    far_rows[2] = {{4, 0.9f}, {2, 0.1f}};  // 喜's own row goes to 人, not a neighbour
    const Mat<float> far = rows_of(6, far_rows);
    // No kind reaches half: unlabelled; 喜 → 欢 0.4.
    const Mat<float> unlabelled = rows_of(6, {{},
                                              {{1, 0.3f}, {3, 0.3f}, {4, 0.3f}},
                                              {{3, 0.4f}, {2, 0.3f}, {4, 0.2f}},
                                              {{1, 0.4f}, {3, 0.3f}, {4, 0.2f}},
                                              {{2, 0.4f}, {4, 0.3f}, {1, 0.2f}},
                                              {}});
    REQUIRE(head_report(next_spread, ids).label == "next");
    REQUIRE(head_report(unlabelled, ids).label.empty());

    // Labelled beats unlabelled, spread beats peaked, a far first choice is no candidate.
    const ArticleHead a = article_head({{&far, &unlabelled}, {&next_peaked, &next_spread}}, ids, 2);
    CHECK(a.found);
    CHECK(a.head.layer == 1);
    CHECK(a.head.head == 1);
    CHECK(a.neighbour == 3);
    CHECK(a.weight == doctest::Approx(0.7f));
    CHECK(a.labelled);
    CHECK(a.spread);
    // Only a peaked labelled head and an unlabelled one: the labelled one.
    const ArticleHead b = article_head({{&unlabelled, &next_peaked}}, ids, 2);
    CHECK(b.head.head == 1);
    CHECK_FALSE(b.spread);
    // No labelled head: the unlabelled one that looks at a neighbour.
    CHECK(article_head({{&far, &unlabelled}}, ids, 2).head.head == 1);
    // The token after before the token before (the article's 欢 0.23 over 我 0.16), then the larger
    // weight.
    std::vector<std::vector<std::pair<Eigen::Index, float>>> back(6);
    for (Eigen::Index i = 1; i <= 4; ++i)
        back[static_cast<std::size_t>(i)] = {{i - 1, 0.8f}, {i, 0.2f}};
    const Mat<float> previous = rows_of(6, back);  // 喜 → 我 0.8
    REQUIRE(head_report(previous, ids).label == "previous");
    const Mat<float> next_weaker = rows_of(6, next_all(0.6f));
    const ArticleHead after = article_head({{&previous, &next_weaker, &next_spread}}, ids, 2);
    CHECK(after.head.head == 2);
    CHECK(after.next);
    CHECK(article_head({{&previous}}, ids, 2).neighbour == 1);
    // Ties go to the lower layer and head.
    const ArticleHead tie = article_head({{&next_spread}, {&next_spread}}, ids, 2);
    CHECK(tie.head.layer == 0);
    // No candidate: layer 0, head 0, not found; [CLS] and [SEP] never have one.
    const ArticleHead none = article_head({{&far}}, ids, 2);
    CHECK_FALSE(none.found);
    CHECK(none.head.layer == 0);
    CHECK(none.head.head == 0);
    CHECK_FALSE(article_head({{&next_spread}}, ids, 0).found);
    CHECK_FALSE(article_head({{&next_spread}}, ids, 5).found);
    CHECK(
        contains(error_from([&] { article_head({{&next_spread}}, ids, 6); }).what(), "no token 6"));
    CHECK(contains(error_from([&] { article_head({}, ids, 2); }).what(), "at least one head"));
}

TEST_CASE(
    "token_link: the head that sends one token most to another, whether it is that row's first "
    "choice, and the row's peak") {
    std::vector<std::vector<std::pair<Eigen::Index, float>>> a(6), b(6);
    for (Eigen::Index i = 1; i <= 4; ++i)
        a[static_cast<std::size_t>(i)] = b[static_cast<std::size_t>(i)] = {{i, 0.5f}};
    a[4] = {{3, 0.8f}, {1, 0.1f}};   // head (0, 0): 人 → 欢 0.8, 我 0.1
    b[4] = {{1, 0.3f}, {2, 0.35f}};  // head (1, 0): 人 → 我 0.3, but 喜 0.35 first
    const Mat<float> wa = rows_of(6, a), wb = rows_of(6, b);
    const TokenLink link = token_link({{&wa}, {&wb}}, 4, 1);
    CHECK(link.strongest.layer == 1);
    CHECK(link.weight == doctest::Approx(0.3f));
    CHECK_FALSE(link.first);
    CHECK(link.peak.layer == 0);
    CHECK(link.peak_token == 3);
    CHECK(link.peak_weight == doctest::Approx(0.8f));
    CHECK(token_link({{&wa}, {&wb}}, 4, 3).first);
    // A row that rests on [SEP] has not chosen its largest real token.
    std::vector<std::vector<std::pair<Eigen::Index, float>>> c(6);
    for (Eigen::Index i = 1; i <= 4; ++i) c[static_cast<std::size_t>(i)] = {{i, 0.5f}};
    c[4] = {{5, 0.8f}, {1, 0.1f}};
    const Mat<float> wc = rows_of(6, c);
    CHECK_FALSE(token_link({{&wc}}, 4, 1).first);
    CHECK(contains(error_from([&] { token_link({{&wa}}, 0, 3); }).what(),
                   "two different real tokens"));
    CHECK(contains(error_from([&] { token_link({{&wa}}, 3, 3); }).what(),
                   "two different real tokens"));
}

TEST_CASE(
    "predict_masked: a traditional text (or GuessForms::traditional) gets its guesses in "
    "traditional forms") {
    const Vocabulary v({"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "我", "喜", "欢", "们"},
                       {{"歡", "欢"}, {"們", "们"}});
    const EncoderShape shape{static_cast<int>(v.size()), 8, 2, 16, 1};
    EncoderParams<float> model = train::init_params<float>(shape, 4);
    model.out_bias(0, v.id("欢")) = 20.0f;  // the model puts nearly everything on 欢
    CHECK(predict_masked(model, v, "我喜[MASK]", 1)[0][0].token ==
          "欢");  // simplified (or ambiguous) text
    CHECK(predict_masked(model, v, "我們喜[MASK]", 1)[0][0].token ==
          "歡");  // a traditional character typed
    CHECK(predict_masked(model, v, "我喜[MASK]", 1, {}, nullptr, GuessAmong::words,
                         GuessForms::traditional)[0][0]
              .token == "歡");
    const auto same = predict_masked(model, v, "我們喜[MASK]", 1);
    CHECK(same[0][0].probability ==
          doctest::Approx(
              predict_masked(model, v, "我们喜[MASK]", 1)[0][0].probability));  // the same ids
}

TEST_CASE(
    "layer_row: each head's largest weight for a row, and the mean of those not knocked out") {
    const auto previous = [](Eigen::Index i, Eigen::Index n) { return (i + n - 1) % n; };
    const auto next = [](Eigen::Index i, Eigen::Index n) { return (i + 1) % n; };
    const Mat<float> a = weights(4, 0.7f, previous), b = weights(4, 0.4f, next);
    const Mat<float> c = weights(4, 0.97f, next);
    const LayerRow r = layer_row({&a, &b, &c}, {false, false, true}, 2);
    CHECK(r.head_top == std::vector<std::int32_t>{1, 3, 3});
    CHECK(r.head_weight[0] == doctest::Approx(0.7f));
    CHECK(r.head_weight[2] == doctest::Approx(0.97f));  // a knocked-out head still shows its row
    CHECK(r.averaged == std::vector<std::uint8_t>{1, 1, 0});
    // The mean of a and b only: key 1 (0.7 + 0.2) / 2 = 0.45, key 3 (0.1 + 0.4) / 2 = 0.25.
    CHECK(r.mean[1] == doctest::Approx(0.45f));
    CHECK(r.mean[3] == doctest::Approx(0.25f));
    CHECK(r.order.front() == 1);
    CHECK(r.order[1] == 3);
    float sum = 0;
    for (const float p : r.mean) sum += p;
    CHECK(sum == doctest::Approx(1));
    const LayerRow none = layer_row({&a}, {true}, 0);
    CHECK(none.mean == std::vector<float>(4, 0.0f));
    CHECK(contains(error_from([&] { layer_row({&a}, {false}, 4); }).what(), "outside"));
    CHECK(contains(error_from([&] { layer_row({}, {}, 0); }).what(), "heads"));
}

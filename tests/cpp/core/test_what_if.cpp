// What if a head's row of weights were changed: the edited row's rules, the
// forward with the row put in place of softmax's, how far a vector moved, and
// how a [MASK]'s guesses shifted.
#include <doctest.h>

#include "attention/encoder.hpp"
#include "attention/heads.hpp"
#include "attention/what_if.hpp"
#include "helpers.hpp"
#include "train/encoder.hpp"

using namespace attention;
using test_support::contains;
using test_support::error_from;

namespace {

float sum(const std::vector<float>& v) {
    float s = 0;
    for (const float x : v) s += x;
    return s;
}

const Vocabulary& vocabulary() {
    static const Vocabulary v(
        {"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "我", "喜", "欢", "你", "猫"});
    return v;
}

// Two layers of two heads, the weights large enough that a changed row moves what follows it.
EncoderParams<float> small_model() {
    EncoderParams<float> p =
        train::init_params<float>({static_cast<int>(vocabulary().size()), 8, 2, 16, 2}, 7, 0.5);
    for (LayerParams<float>& L : p.layers) {
        for (Mat<float>* w : {&L.wq, &L.wk, &L.wv, &L.wo, &L.w1, &L.w2}) *w *= 25.0f;
    }
    return p;
}

float largest_difference(const Mat<float>& a, const Mat<float>& b) {
    return (a - b).cwiseAbs().maxCoeff();
}

// A head's row of weights as a vector.
std::vector<float> row_of(const Mat<float>& w, Eigen::Index i) {
    return {w.row(i).data(), w.row(i).data() + w.cols()};
}

}  // namespace

TEST_CASE(
    "edit_row: a hidden key, a dragged one, all the weight on one, with and without "
    "renormalising") {
    const std::vector<float> row = {0.1f, 0.4f, 0.2f, 0.3f};
    // Hidden, not renormalised: the others keep softmax's weights and the row sums to 0.8.
    EditedRow e = edit_row(row, {{2, 0}}, false);
    CHECK(e.weights == std::vector<float>{0.1f, 0.4f, 0.0f, 0.3f});
    CHECK(e.sum == doctest::Approx(0.8f));
    // Renormalised: the others scaled together (0.1 : 0.4 : 0.3 kept) to sum to 1.
    e = edit_row(row, {{2, 0}}, true);
    CHECK(e.weights[0] == doctest::Approx(0.125f));
    CHECK(e.weights[1] == doctest::Approx(0.5f));
    CHECK(e.weights[3] == doctest::Approx(0.375f));
    CHECK(e.sum == doctest::Approx(1.0f));
    // Dragged to 0.6: the dragged key keeps 0.6, the others share 0.4 in their proportions.
    e = edit_row(row, {{1, 0.6f}}, true);
    CHECK(e.weights[1] == doctest::Approx(0.6f));
    CHECK(e.weights[0] == doctest::Approx(0.4f * 0.1f / 0.6f));
    CHECK(e.sum == doctest::Approx(1.0f));
    // All the weight on one key: renormalising leaves the others nothing.
    e = edit_row(row, {{3, 1}}, true);
    CHECK(e.weights == std::vector<float>{0, 0, 0, 1});
    // No edit: the row as it is, renormalised or not (its float sum is not exactly 1).
    const std::vector<float> softmax_row = {0.1f, 0.2f, 0.3f, 0.4f, 0.00001f};
    CHECK(edit_row(softmax_row, {}, true).weights == softmax_row);
    CHECK(edit_row(softmax_row, {}, false).weights == softmax_row);
    // A later edit of the same key replaces an earlier one.
    CHECK(edit_row(row, {{2, 0}, {2, 0.2f}}, false).weights == row);
    // The others had no weight left: they share what the edited key leaves equally.
    e = edit_row({1, 0, 0}, {{0, 0.4f}}, true);
    CHECK(e.weights[1] == doctest::Approx(0.3f));
    CHECK(e.weights[2] == doctest::Approx(0.3f));
    // The edited keys alone pass 1: the whole row divided by its sum.
    e = edit_row(row, {{0, 0.9f}, {1, 0.6f}}, true);
    CHECK(e.weights[0] == doctest::Approx(0.9f / 2.0f));
    CHECK(e.sum == doctest::Approx(1.0f));
    // Nothing renormalises a row with no weight left; a row with none is fine unrenormalised.
    CHECK(contains(error_from([&] {
                       edit_row({0.5f, 0.5f}, {{0, 0}, {1, 0}}, true);
                   }).what(),
                   "nothing to renormalise"));
    CHECK(edit_row({0.5f, 0.5f}, {{0, 0}, {1, 0}}, false).sum == 0);
    CHECK(contains(error_from([&] { edit_row(row, {{4, 0}}, true); }).what(), "from 0 to 3"));
    CHECK(contains(error_from([&] { edit_row(row, {{0, 1.5f}}, true); }).what(), "from 0 to 1"));
    CHECK(contains(error_from([&] { edit_row(row, {{0, NAN}}, true); }).what(), "from 0 to 1"));
    CHECK(contains(error_from([&] { edit_row({}, {}, true); }).what(), "empty"));
}

TEST_CASE("encode with a RowOverride: that row weighs V, the rest follows from it") {
    const EncoderParams<float> p = small_model();
    const std::vector<std::int32_t> ids = {2, 5, 6, 7, 4, 3};  // [CLS] 我 喜 欢 [MASK] [SEP]
    const int n = static_cast<int>(ids.size());
    EncoderCache<float> plain;
    encode(p, ids, 1, n, plain, {}, Elementwise::vectorised);
    const HeadId head{0, 1};
    const Mat<float>& w = plain.layers[0].weights[1];

    // Softmax's own row in place of itself changes nothing.
    const RowOverride same{head, 2, row_of(w, 2)};
    EncoderCache<float> again;
    encode(p, ids, 1, n, again, {}, Elementwise::vectorised, nullptr, &same);
    test_support::check_close(again.hidden, plain.hidden);

    // 欢 (key 3) hidden from 喜's row (row 2), not renormalised: the head's output row is the
    // weighted sum of a row that sums to less than 1.
    RowOverride hidden{head, 2, edit_row(row_of(w, 2), {{3, 0}}, false).weights};
    CHECK(sum(hidden.weights) < 0.999f);
    EncoderCache<float> changed;
    encode(p, ids, 1, n, changed, {}, Elementwise::vectorised, nullptr, &hidden);
    const auto cols = Eigen::seqN(Eigen::Index{4}, Eigen::Index{4});  // head 1's d_k = 4 columns
    const Mat<float> v = changed.layers[0].v(Eigen::all, cols);
    Mat<float> expected = Mat<float>::Zero(1, 4);
    for (Eigen::Index j = 0; j < n; ++j)
        expected += hidden.weights[static_cast<std::size_t>(j)] * v.row(j);
    CHECK(largest_difference(changed.layers[0].concat(Eigen::seqN(2, 1), cols), expected) < 1e-5f);
    CHECK(changed.layers[0].weights[1](2, 3) == 0.0f);  // the cache keeps the row as replaced
    // The layer's other rows are as they were; the next layer reads row 2, so every row moves
    // there.
    test_support::check_close(changed.layers[0].output.row(4), plain.layers[0].output.row(4));
    CHECK((changed.layers[0].output.row(2) - plain.layers[0].output.row(2)).norm() > 1e-3f);
    CHECK((changed.hidden.row(4) - plain.hidden.row(4)).norm() > 1e-4f);
    // In the last layer the change stays in its own row.
    RowOverride last{
        {1, 0}, 2, edit_row(row_of(plain.layers[1].weights[0], 2), {{3, 0}}, true).weights};
    EncoderCache<float> in_last;
    encode(p, ids, 1, n, in_last, {}, Elementwise::vectorised, nullptr, &last);
    test_support::check_close(in_last.hidden.row(4), plain.hidden.row(4));
    // The exact forward (the trainer's) puts the row in place the same way.
    EncoderCache<float> exact;
    encode(p, ids, 1, n, exact, {}, Elementwise::exact, nullptr, &hidden);
    CHECK(largest_difference(exact.hidden, changed.hidden) < 1e-3f);

    const auto error = [&](RowOverride o) {
        return error_from([&] {
            EncoderCache<float> c;
            encode(p, ids, 1, n, c, {}, Elementwise::vectorised, nullptr, &o);
        });
    };
    const char* rule =
        "an overridden row must be a token's index, from 0 to 5, with one finite weight ≥ 0 per "
        "token";
    CHECK(contains(error({head, 6, hidden.weights}).what(), rule));
    CHECK(contains(error({head, 2, {0.5f, 0.5f}}).what(), rule));
    CHECK(contains(error({head, 2, {0, 0, -1, 0, 0, 0}}).what(), rule));
    CHECK(contains(error({head, 2, {0, 0, NAN, 0, 0, 0}}).what(), rule));
    CHECK(contains(error({{2, 0}, 2, hidden.weights}).what(), "no head 0 in layer 2"));
}

TEST_CASE(
    "predict_masked with an override: softmax's row changes nothing, another row moves the guess") {
    const EncoderParams<float> p = small_model();
    const auto before = predict_masked(p, vocabulary(), "我喜欢[MASK]", 3);
    EncoderCache<float> c;
    encode(p, {2, 5, 6, 7, 4, 3}, 1, 6, c, {}, Elementwise::vectorised);
    const RowOverride same{{0, 0}, 4, row_of(c.layers[0].weights[0], 4)};
    const auto again = predict_masked(p, vocabulary(), "我喜欢[MASK]", 3, {}, nullptr,
                                      GuessAmong::words, GuessForms::as_typed, std::nullopt, &same);
    CHECK(again[0][0].token == before[0][0].token);
    CHECK(again[0][0].probability == doctest::Approx(before[0][0].probability).epsilon(1e-5));
    const RowOverride only_self{{1, 0}, 4, {0, 0, 0, 0, 1, 0}};
    const auto after =
        predict_masked(p, vocabulary(), "我喜欢[MASK]", 3, {}, nullptr, GuessAmong::words,
                       GuessForms::as_typed, std::nullopt, &only_self);
    CHECK(after[0][0].probability != doctest::Approx(before[0][0].probability).epsilon(1e-5));
}

TEST_CASE("moved: the distance against the vector's length, on both sides of kUnmoved") {
    const Moved m = moved({3, 4}, {3, 0});
    CHECK(m.before == doctest::Approx(5));
    CHECK(m.after == doctest::Approx(3));
    CHECK(m.distance == doctest::Approx(4));
    CHECK(m.relative == doctest::Approx(0.8));
    CHECK(m.moved);
    CHECK_FALSE(moved({1, 0}, {1 + 0.5f * kUnmoved, 0}).moved);
    CHECK(moved({1, 0}, {1 + 2 * kUnmoved, 0}).moved);
    CHECK(moved({0, 0}, {0, 1}).moved);
    CHECK(moved({0, 0}, {0, 0}).relative == 0);
    CHECK(contains(error_from([&] { moved({1}, {1, 2}); }).what(), "same length"));
}

TEST_CASE(
    "guess_shift: the first guess kept or changed, its probability up, down, the same or gone") {
    const std::vector<Guess> before = {{"欢", 0.56f}, {"爱", 0.2f}};
    GuessShift s = guess_shift(before, {{"欢", 0.30f}, {"爱", 0.25f}});
    CHECK(s.same_first);
    CHECK(s.direction == "down");
    CHECK(s.after == doctest::Approx(0.30f));
    s = guess_shift(before, {{"爱", 0.5f}, {"欢", 0.4f}});
    CHECK_FALSE(s.same_first);
    CHECK(s.first_after == "爱");
    CHECK(s.direction == "down");
    CHECK(guess_shift(before, {{"欢", 0.56f + 0.9f * kSameProbability}}).direction == "same");
    CHECK(guess_shift(before, {{"欢", 0.56f + 2 * kSameProbability}}).direction == "up");
    CHECK(guess_shift(before, {{"爱", 0.9f}}).direction == "gone");
    CHECK(guess_shift(before, {{"爱", 0.9f}}).after == -1);
    CHECK(contains(error_from([&] { guess_shift({}, before); }).what(), "at least one"));
}

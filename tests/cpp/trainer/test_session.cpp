// The training lab's run (cpp/train/session.hpp): its measures on cases whose
// answer is known, its text rule, its checks, and a short run whose loss falls
// and repeats for a seed.
#include <doctest.h>

#include <cmath>
#include <string>

#include "attention/error.hpp"
#include "attention/ops.hpp"
#include "train/session.hpp"

using namespace attention::train;
using attention::Error;
namespace ops = attention::ops;

namespace {

// A few hundred sentences of a small grammar, seeded: enough text to learn from.
std::string grammar_text(int sentences, std::uint64_t seed) {
    const char* subjects[] = {"the cat",     "a dog",         "my friend",
                              "the teacher", "our neighbour", "the child"};
    const char* verbs[] = {"sees", "likes", "finds", "helps", "calls", "follows"};
    const char* objects[] = {"the bird",   "a ball",         "the old house",
                             "her sister", "the small boat", "a red apple"};
    const char* zh[] = {"我喜欢学习",   "他们在公园散步", "今天天气很好",
                        "我们一起吃饭", "老师在教室里",   "妈妈做了晚饭"};
    Rng rng(seed);
    std::string text;
    for (int k = 0; k < sentences; ++k) {
        if (k % 3 == 2) {
            text += zh[rng.below(6)];
            text += "。\n";
        } else {
            text += subjects[rng.below(6)];
            text += " ";
            text += verbs[rng.below(6)];
            text += " ";
            text += objects[rng.below(6)];
            text += ".\n";
        }
    }
    return text;
}

SessionSettings tiny() {
    SessionSettings s;
    s.layers = 1;
    s.heads = 2;
    s.d_model = 16;
    s.length = 16;
    s.batch = 8;
    s.steps = 60;
    s.vocab = 120;
    s.lr = 1e-2;
    return s;
}

}  // namespace

TEST_CASE("measure_softmax: a saturated row has no entropy, a uniform row ln n") {
    Mat<float> saturated(1, 4), uniform = Mat<float>::Constant(1, 4, 0.25f);
    saturated << 1e-6f, 1e-6f, 1.0f - 3e-6f, 1e-6f;
    const SoftmaxMeasures hot = measure_softmax({saturated});
    CHECK(hot.one_hot_share == 1.0);
    CHECK(hot.entropy < 1e-4);
    CHECK(hot.max_entropy == doctest::Approx(std::log(4.0)));
    const SoftmaxMeasures flat = measure_softmax({uniform});
    CHECK(flat.one_hot_share == 0.0);
    CHECK(flat.entropy == doctest::Approx(std::log(4.0)));
    const SoftmaxMeasures both = measure_softmax({saturated, uniform});
    CHECK(both.one_hot_share == 0.5);
    CHECK(both.entropy == doctest::Approx(std::log(4.0) / 2).epsilon(1e-3));
}

TEST_CASE("a saturated softmax passes almost no gradient back to Q and K") {
    // One head of 4 tokens: scores q·k of a few units (softened by ÷√d_k), and
    // the same q and k ×8 without scaling: rows near one-hot, ∂/∂q and ∂/∂k near 0.
    Rng rng(3);
    Mat<double> q(4, 8), k(4, 8), v(4, 8), dout(4, 8);
    for (Mat<double>* m : {&q, &k, &v, &dout}) {
        for (Eigen::Index i = 0; i < m->size(); ++i) m->data()[i] = rng.uniform() * 2 - 1;
    }
    const auto gradient = [&](double grow, double scale, Mat<double>& weights) {
        Mat<double> dq, dk, dv;
        const Mat<double> qq = q * grow, kk = k * grow;
        ops::attention_head<double>(qq, kk, v, scale, weights);
        ops::attention_head_backward<double>(dout, qq, kk, v, weights, scale, dq, dk, dv);
        return dq.norm() + dk.norm();
    };
    Mat<double> soft, hard;
    const double scaled = gradient(1, 1 / std::sqrt(8.0), soft);
    const double saturated = gradient(8, 1, hard);
    std::vector<Mat<float>> as_float{hard.cast<float>()};
    CHECK(measure_softmax(as_float).one_hot_share >= 0.75);
    CHECK(measure_softmax({soft.cast<float>()}).one_hot_share == 0.0);
    CHECK(saturated < 0.01 * scaled);
}

TEST_CASE("split_text: sentences by line or by their end marks; every tenth held out") {
    const TextSplit split =
        split_text("one. two! three?\n四。五！六？\n\n seven \neight.nine\n nine\nten.");
    // sentences: one. two! three? 四。 五！ 六？ seven eight.nine nine ten.
    REQUIRE(split.train.size() + split.heldout.size() == 10);
    CHECK(split.train.front() == "one.");
    CHECK(split.train[3] == "四。");
    CHECK(split.train[6] == "seven");
    CHECK(split.train[7] == "eight.nine");  // a full stop inside a word does not end it
    REQUIRE(split.heldout.size() == 1);
    CHECK(split.heldout[0] == "ten.");
    const TextSplit many = split_text(grammar_text(95, 1));
    CHECK(many.heldout.size() == 9);
    CHECK(many.train.size() == 86);
}

TEST_CASE("TrainingSession: settings out of range and texts too short are named") {
    const std::string text = grammar_text(400, 1);
    const auto code_of = [&](const SessionSettings& s, const std::string& t) -> std::string {
        try {
            TrainingSession session(t, s);
        } catch (const Error& e) {
            return e.code() + ":" + (e.params().empty() ? "" : e.params()[0].second);
        }
        return "none";
    };
    SessionSettings s = tiny();
    s.heads = 9;
    CHECK(code_of(s, text) == "invalid_option:heads");
    s = tiny();
    s.lr = 0.5;
    CHECK(code_of(s, text) == "invalid_option:lr");
    s = tiny();
    s.d_model = 18;
    s.heads = 4;
    CHECK(code_of(s, text) == "invalid_option:dModel");
    s = tiny();
    s.init_scale = std::nan("");
    CHECK(code_of(s, text) == "invalid_option:initScale");
    CHECK(code_of(tiny(), grammar_text(20, 1)).rfind("text_too_short:", 0) == 0);
    CHECK(code_of(tiny(), "").rfind("text_too_short", 0) == 0);
    CHECK(code_of(tiny(), std::string("\xff\xfe")) == "invalid_utf8:");
    CHECK(code_of(tiny(), text) == "none");
}

TEST_CASE(
    "training settings: every preset is a run the trainer accepts, and the verdict's margin") {
    const std::string text = grammar_text(600, 7);
    for (const TrainingPreset& p : kTrainingPresets) {
        CAPTURE(p.name);
        SessionSettings s;
        s.layers = p.layers;
        s.heads = p.heads;
        s.d_model = p.d_model;
        s.steps = p.steps;
        s.lr = p.lr;
        s.init_scale = p.init_scale;
        CHECK(training_head_size(s.d_model, s.heads) > 0);
        CHECK_NOTHROW(TrainingSession(text, s));
    }
    CHECK(training_head_size(32, 2) == 16);
    CHECK(training_head_size(30, 4) == 0);
    CHECK(training_head_size(32, 0) == 0);
    CHECK(training_head_size(-32, 2) == 0);
    // 3 % either side of the reference: 2.0 → "worse" above 2.06, "better" below 1.94.
    CHECK(loss_verdict(2.0, 2.07) == "worse");
    CHECK(loss_verdict(2.0, 2.05) == "same");
    CHECK(loss_verdict(2.0, 1.95) == "same");
    CHECK(loss_verdict(2.0, 1.93) == "better");
    CHECK(loss_verdict(2.0, std::nan("")) == "same");
}

TEST_CASE("TrainingSession: the loss falls, and a seed repeats the run exactly") {
    const std::string text = grammar_text(600, 2);
    TrainingSession a(text, tiny()), b(text, tiny());
    const double before = a.heldout_loss();
    CHECK(before == doctest::Approx(b.heldout_loss()));
    double first = 0, last = 0;
    for (int k = 0; k < 60; ++k) {
        const StepReport ra = a.step(), rb = b.step();
        REQUIRE(ra.loss == rb.loss);  // the same bits
        REQUIRE(ra.grad_wq == rb.grad_wq);
        CHECK(ra.step == k + 1);
        CHECK(ra.softmax.entropy <= ra.softmax.max_entropy + 1e-9);
        CHECK(ra.grad_wq > 0);
        if (k < 5) first += ra.loss / 5;
        if (k >= 55) last += ra.loss / 5;
    }
    MESSAGE("batch loss " << first << " → " << last << "; held out " << before << " → "
                          << a.heldout_loss());
    CHECK(last < first - 0.5);
    CHECK(a.heldout_loss() < before - 0.3);
    CHECK_THROWS_AS(a.step(), Error);  // every step done
    // Another seed, another run.
    SessionSettings other = tiny();
    other.seed = 2;
    TrainingSession c(text, other);
    CHECK(c.step().loss != TrainingSession(text, tiny()).step().loss);
}

TEST_CASE(
    "TrainingSession: start_from goes on from a trained run's params; another shape is refused") {
    const std::string text = grammar_text(600, 2);
    TrainingSession trained(text, tiny());
    for (int k = 0; k < 60; ++k) trained.step();
    TrainingSession fresh(text, tiny());
    const double untrained = fresh.heldout_loss();
    fresh.start_from(trained.params());
    CHECK(fresh.heldout_loss() == doctest::Approx(trained.heldout_loss()));  // the same params
    CHECK(fresh.heldout_loss() < untrained - 0.3);
    SessionSettings wider = tiny();
    wider.d_model = 32;
    TrainingSession other(text, wider);
    CHECK_THROWS_AS(other.start_from(trained.params()), Error);
}

TEST_CASE("TrainingSession: without ÷√d_k and with large initial weights, the rows saturate") {
    const std::string text = grammar_text(600, 3);
    SessionSettings s = tiny();
    s.init_scale =
        1.0;  // q and k entries of several units: the article's "each entry about ±1" and more
    SessionSettings unscaled = s;
    unscaled.scaled = false;
    TrainingSession with(text, s), without(text, unscaled);
    const StepReport rw = with.step(), ro = without.step();
    MESSAGE("one-hot rows " << rw.softmax.one_hot_share << " with ÷√d_k, "
                            << ro.softmax.one_hot_share << " without");
    CHECK(ro.softmax.one_hot_share > rw.softmax.one_hot_share);
    CHECK(ro.softmax.entropy < rw.softmax.entropy);
    // A model file needs ÷√d_k; the scaled run exports one.
    CHECK_THROWS_AS(without.model_file(), Error);
    CHECK(with.model_file().size() > 1000);
}

TEST_CASE(
    "TrainingSession with one matrix for queries and keys: it stays one through AdamW, and every "
    "score matrix is symmetric") {
    const std::string text = grammar_text(400, 1);
    SessionSettings shared = tiny();
    shared.shared_qk = true;
    shared.steps = 12;
    TrainingSession one(text, shared);
    SessionSettings apart = shared;
    apart.shared_qk = false;
    TrainingSession two(text, apart);
    StepReport a, b;
    for (int k = 0; k < shared.steps; ++k) a = one.step(), b = two.step();
    for (const auto& L : one.params().layers) {
        CHECK(L.wk == L.wq);  // the same gradient and the same moments: the same update, every step
        CHECK(L.bk == L.bq);
    }
    CHECK(two.params().layers[0].wk != two.params().layers[0].wq);
    CHECK(a.scores.symmetric_share == doctest::Approx(1.0).epsilon(1e-6));
    CHECK(b.scores.symmetric_share < 0.99);
    CHECK(a.scores.self_share > 0.0);
    CHECK(a.scores.self_share < 1.0);
    CHECK(std::isfinite(a.loss));
    CHECK(a.grad_wq == doctest::Approx(a.grad_wk));  // each copy gets the whole gradient
}

// AttentionModel (one head's params, run on many sentences, switches shared)
// and ModelCache (the last model, kept for the next run).
#include <doctest.h>

#include "attention/model.hpp"
#include "helpers.hpp"

using namespace attention;
using test_support::check_product;
using test_support::contains;
using test_support::error_from;

namespace {

Config with(void (*edit)(Config&)) {
    Config c;
    edit(c);
    return c;
}

}  // namespace

TEST_CASE("AttentionModel: one model runs many sentences with the params its seed draws") {
    const Config config = with([](Config& c) { c.d_model = 32, c.d_k = 4, c.seed = 9; });
    const AttentionModel model(config);
    const HeadParams drawn = SeededParams(32, 4, 9).head(0);
    const Trace a = model.run("first sentence");
    const Trace b = model.run("第二句");
    for (const Trace* t : {&a, &b}) {
        CHECK(t->head->wq == drawn.wq);
        CHECK(t->head->wv == drawn.wv);
        CHECK(t->head->bk == drawn.bk);
        check_product(t->q, t->x, drawn.wq, &drawn.bq);
        check_product(t->v, t->x, drawn.wv, &drawn.bv);
    }
    CHECK(a.config.d_model == 32);
    // Running another sentence in between leaves a sentence's trace unchanged.
    CHECK(model.run("first sentence").output == a.output);
    CHECK(error_from([&] { model.run(""); }).code() == "empty_text");
}

TEST_CASE("AttentionModel::with_switches shares the parameters and changes only the switches") {
    const AttentionModel model(with([](Config& c) { c.d_model = 32, c.d_k = 4; }));
    Config causal = model.config();
    causal.causal = true;
    causal.scale = false;
    CHECK(model.same_parameters(causal));
    const AttentionModel switched = model.with_switches(causal);
    const Trace a = model.run("我喜欢人工智能");
    const Trace b = switched.run("我喜欢人工智能");
    CHECK(a.head->wq == b.head->wq);
    CHECK(b.config.causal);
    CHECK(b.weights(0, 1) == 0.0f);
    CHECK(b.scaled == b.scores);
    CHECK(b.output != a.output);
    CHECK(b.output == run_attention("我喜欢人工智能", causal).output);
    Config other = causal;
    other.seed = 7;
    CHECK_FALSE(model.same_parameters(other));
    CHECK(error_from([&] { model.with_switches(other); }).code() == "invalid_config");
    other = causal;
    other.d_k = 0;
    CHECK(contains(error_from([&] { model.with_switches(other); }).what(), "d_k must be"));
}

TEST_CASE("model: embedding rows stay right when its bounded cache starts over") {
    // 6 sentences of 500 distinct CJK characters: 3,000 ids, more than the
    // model keeps, so the cache is dropped and refilled on the way.
    const AttentionModel model{Config{}};
    const SeededParams source(768, 64, Config{}.seed);
    for (int k = 0; k < 6; ++k) {
        std::string sentence;
        for (int i = 0; i < 500; ++i) {
            const int cp = 0x4E00 + k * 500 + i;  // three UTF-8 bytes each
            sentence += static_cast<char>(0xE0 | (cp >> 12));
            sentence += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            sentence += static_cast<char>(0x80 | (cp & 0x3F));
        }
        const Trace t = model.run(sentence);
        std::vector<std::int32_t> ids;
        for (const Token& token : t.tokens) ids.push_back(token.id);
        CAPTURE(k);
        CHECK(t.embeddings == source.embeddings(ids));
    }
}

TEST_CASE("Config: == compares every field") {
    const Config a;
    CHECK(a == Config{});
    for (void (*edit)(Config&) :
         {+[](Config& c) { c.d_model = 512; }, +[](Config& c) { c.d_k = 32; },
          +[](Config& c) { c.seed = 1; }, +[](Config& c) { c.scale = false; },
          +[](Config& c) { c.causal = true; }, +[](Config& c) { c.positional = false; }}) {
        CHECK(with(edit) != a);
        CHECK_FALSE(with(edit) == a);
    }
}

TEST_CASE("ModelCache: keeps the model, shares params across switches, draws anew for new params") {
    ModelCache cache;
    const Config small = with([](Config& c) { c.d_model = 32, c.d_k = 4; });
    const AttentionModel& first = cache.model(small);
    CHECK(cache.draws() == 1);
    const Trace a = first.run("我喜欢人工智能");
    CHECK(&cache.model(small) == &first);  // unchanged config: the same model
    CHECK(cache.draws() == 1);

    Config causal = small;
    causal.causal = true;
    const Trace b = cache.model(causal).run("我喜欢人工智能");
    CHECK(cache.draws() == 1);  // switches only: no new params
    CHECK(b.head == a.head);    // the very same params
    CHECK(b.config.causal);
    CHECK(b.weights(0, 1) == 0.0f);
    CHECK(b.output == run_attention("我喜欢人工智能", causal).output);

    Config reseeded = causal;
    reseeded.seed = 7;
    const Trace c = cache.model(reseeded).run("我喜欢人工智能");
    CHECK(cache.draws() == 2);
    CHECK(c.head->wq != a.head->wq);
    CHECK(c.output == run_attention("我喜欢人工智能", reseeded).output);
}

TEST_CASE("ModelCache: a bad config is refused and the kept model stays") {
    ModelCache cache;
    const Config good = with([](Config& c) { c.d_model = 32, c.d_k = 4; });
    const AttentionModel* kept = &cache.model(good);
    Config bad = good;
    bad.d_k = 0;
    CHECK(contains(error_from([&] { cache.model(bad); }).what(), "d_k must be"));
    bad = good;
    bad.d_model = 5000;
    CHECK(error_from([&] { cache.model(bad); }).code() == "invalid_config");
    CHECK(&cache.model(good) == kept);
    CHECK(cache.draws() == 1);
}

// Configuration defaults and validation messages.
#include <doctest.h>

#include "attention/config.hpp"
#include "attention/model.hpp"
#include "helpers.hpp"

using namespace attention;
using test_support::contains;
using test_support::error_from;

TEST_CASE("config: defaults are one BERT-base head") {
    const Config c;
    CHECK(c.d_model == 768);
    CHECK(c.d_k == 64);
    CHECK(c.seed == 42);
    CHECK(c.scale);
    CHECK_FALSE(c.causal);
    CHECK(c.positional);
    CHECK_NOTHROW(validate(c));
}

TEST_CASE("config: every bound is accepted") {
    for (const Config c :
         {Config{1, 1, 0, true, false, true}, Config{1024, 1024, 0, false, true, false},
          Config{1024, 1, 4294967295, true, true, true}, Config{2, 2, 7, true, false, true}}) {
        CHECK_NOTHROW(validate(c));
    }
}

TEST_CASE("config: each bad value is rejected with the field and its range") {
    struct Bad {
        Config config;
        std::string field;
        std::string range;
    };
    const std::vector<Bad> bad = {
        {{0, 1, 42, true, false, true}, "d_model must be", "from 1 to 1024, got 0"},
        {{-5, 1, 42, true, false, true}, "d_model must be", "got -5"},
        {{1025, 64, 42, true, false, true}, "d_model must be", "got 1025"},
        {{768, 0, 42, true, false, true}, "d_k must be", "from 1 to d_model (768), got 0"},
        {{64, 65, 42, true, false, true}, "d_k must be", "to d_model (64), got 65"},
        {{768, 64, -1, true, false, true}, "seed must be", "from 0 to 4294967295, got -1"},
        {{768, 64, 4294967296, true, false, true}, "seed must be", "got 4294967296"},
    };
    for (const auto& b : bad) {
        CAPTURE(b.range);
        const auto e = error_from([&] { validate(b.config); });
        CHECK(e.code() == "invalid_config");
        REQUIRE(e.params().size() == 4);
        CHECK(e.params()[0].first == "field");
        CHECK(contains(b.field, e.params()[0].second));
        CHECK(contains(e.what(), b.field));
        CHECK(contains(e.what(), b.range));
        // The model refuses it too, before drawing any weights.
        CHECK(contains(error_from([&] { AttentionModel m(b.config); }).what(), b.field));
    }
}

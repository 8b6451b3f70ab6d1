// The trained model's file: what is saved loads back (weights within half a
// quantisation step, the rest exact, the same guesses), and a damaged or
// foreign file is refused with a message, never read past its end.
#include <doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <string>

#include "attention/encoder_trace.hpp"
#include "attention/fnv1a.hpp"
#include "attention/heads.hpp"
#include "attention/model_file.hpp"
#include "helpers.hpp"
#include "train/encoder.hpp"

using namespace attention;
using test_support::contains;
using test_support::error_from;

namespace {

const Vocabulary& vocabulary() {
    static const Vocabulary v(
        {"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "我", "喜", "欢", "你", "猫"});
    return v;
}

// embedding > 0: a factorised embedding of that width (token rows, then embedding × 8).
EncoderParams<float> model(int embedding = 0) {
    EncoderShape shape{10, 8, 2, 16, 2};
    shape.embedding = embedding;
    EncoderParams<float> p = train::init_params<float>(shape, 4);
    p.for_each([](const std::string& name, Mat<float>& m) {
        if (name.find("gain") == std::string::npos) m *= 20.0f;
    });
    p.layers[1].bq.setConstant(0.25f);
    for (Eigen::Index i = 0; i < p.out_bias.cols(); ++i)
        p.out_bias(0, i) = 0.3f * static_cast<float>(i % 4) - 0.5f;
    return p;
}

// The file with its checksum made right again, so the checks after it are reached.
std::vector<std::uint8_t> resealed(std::vector<std::uint8_t> bytes) {
    const std::uint32_t hash = fnv1a(bytes.data(), bytes.size() - 4);
    for (int k = 0; k < 4; ++k)
        bytes[bytes.size() - 4 + static_cast<std::size_t>(k)] =
            static_cast<std::uint8_t>(hash >> (8 * k));
    return bytes;
}

std::string refusal(const std::vector<std::uint8_t>& bytes) {
    const Error e = error_from([&] { load_model(bytes.data(), bytes.size()); });
    CHECK(e.code() == "invalid_model");
    return e.what();
}

}  // namespace

TEST_CASE(
    "model file: weights back within half a step of their row's scale, the rest exact, the same "
    "guesses") {
    const EncoderParams<float> p = model();
    const std::vector<std::uint8_t> bytes = save_model(p, vocabulary());
    const TrainedModel loaded = load_model(bytes.data(), bytes.size());
    CHECK(loaded.vocabulary.size() == 10);
    CHECK(loaded.vocabulary.token(6) == "喜");
    std::vector<const Mat<float>*> got;
    loaded.params.for_each([&](const std::string&, const Mat<float>& m) { got.push_back(&m); });
    std::size_t k = 0;
    p.for_each([&](const std::string& name, const Mat<float>& m) {
        const Mat<float>& back = *got[k++];
        CAPTURE(name);
        if (m.rows() == 1 && name != "out_bias") {  // the decoder's bias is quantised at ±127
            CHECK(back == m);
            return;
        }
        for (Eigen::Index i = 0; i < m.rows(); ++i) {
            const float step = m.row(i).cwiseAbs().maxCoeff() / 127.0f;
            CHECK((back.row(i) - m.row(i)).cwiseAbs().maxCoeff() <= 0.5f * step * 1.0001f);
        }
    });
    const auto before = predict_masked(p, vocabulary(), "我[MASK]欢", 3);
    const auto after = predict_masked(loaded.params, loaded.vocabulary, "我[MASK]欢", 3);
    CHECK(after[0][0].token == before[0][0].token);
    CHECK(after[0][0].probability == doctest::Approx(before[0][0].probability).epsilon(0.05));
    CHECK(contains(error_from([&] {
                       save_model(p, Vocabulary({"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"}));
                   }).what(),
                   "5 tokens"));
}

TEST_CASE("model file: a foreign, damaged, cut or padded file is refused with the reason") {
    const std::vector<std::uint8_t> good = save_model(model(), vocabulary());
    std::vector<std::uint8_t> bytes = good;
    bytes[0] = 'X';
    CHECK(contains(refusal(bytes), "does not start as an Attention Lab model"));
    bytes = good;
    bytes[7] = '4';
    CHECK(contains(refusal(bytes), "another version"));
    bytes = good;
    bytes[7] = '0';
    CHECK(contains(refusal(bytes), "another version"));
    bytes = good;
    bytes[good.size() / 2] ^= 0x40;
    CHECK(contains(refusal(bytes), "checksum"));
    bytes = std::vector<std::uint8_t>(good.begin(), good.end() - 20);
    CHECK(contains(refusal(bytes), "checksum"));
    CHECK(contains(refusal(resealed(bytes)), "ends inside"));
    bytes = good;
    bytes[12] = 0x09;  // d_model 8 → 9: not divisible by 2 heads
    CHECK(contains(refusal(resealed(bytes)), "shape is out of range"));
    bytes = good;
    bytes.insert(bytes.end() - 4, {1, 2, 3});
    CHECK(contains(refusal(resealed(bytes)), "left over"));
    bytes = good;
    const std::string mask = "[MASK]";
    const auto at = static_cast<std::size_t>(
        std::search(bytes.begin(), bytes.end(), mask.begin(), mask.end()) - bytes.begin());
    bytes[at + 1] = 'N';  // [NASK]: the five special tokens are required
    CHECK(contains(refusal(resealed(bytes)), "its vocabulary"));
    bytes = good;
    std::string text;  // the vocabulary's bytes; no aliases: the first block follows them
    for (std::size_t id = 0; id < vocabulary().size(); ++id)
        text += vocabulary().token(static_cast<std::int32_t>(id)) + "\n";
    const std::size_t kind = 8 + 5 * 4 + 4 + text.size() + 4 + 4 + 4;  // tok's rows, cols, kind
    REQUIRE(bytes[kind] == 1);
    bytes[kind] = 0;  // tok as floats: a block of rows is stored as levels
    CHECK(contains(refusal(resealed(bytes)), "stored the wrong way"));
    bytes[kind] = 2;
    CHECK(contains(refusal(resealed(bytes)), "stored the wrong way"));
    CHECK(contains(refusal({}), "does not start"));
    const std::vector<std::uint8_t> tiny = {'A', 'L', 'M', 'O', 'D', 'E', 'L', '2'};
    CHECK(contains(refusal(tiny), "too short"));
}

TEST_CASE("model file: a weight that is not a finite number is refused, a large finite one loads") {
    const std::vector<std::uint8_t> good = save_model(model(), vocabulary(), 127, 15);
    std::size_t text = 0;  // the vocabulary's bytes: each token and its '\n'
    for (std::size_t id = 0; id < vocabulary().size(); ++id)
        text += vocabulary().token(static_cast<std::int32_t>(id)).size() + 1;
    // The magic, the shape, the vocabulary, the aliases (none); then tok's rows, cols and kind,
    // and its first row's scale.
    const std::size_t first_scale = 8 + 20 + 4 + text + 4 + 4 + 4 + 1;
    const auto with_scale = [&](float scale) {
        std::vector<std::uint8_t> bytes = good;
        std::memcpy(&bytes[first_scale], &scale, sizeof scale);
        return resealed(bytes);
    };
    float written = 0;
    std::memcpy(&written, &good[first_scale], sizeof written);
    CHECK(written == doctest::Approx(model().tok.row(0).cwiseAbs().maxCoeff() / 15.0f));
    CHECK(contains(refusal(with_scale(std::nanf(""))),
                   "block tok holds a value that is not a finite number"));
    CHECK(contains(refusal(with_scale(std::numeric_limits<float>::infinity())),
                   "not a finite number"));
    CHECK(contains(refusal(with_scale(1e38f)), "not a finite number"));  // 15 · 10³⁸ overflows
    // 3·10³⁶ · 128 overflows, yet each entry (at most 15 · 3·10³⁶) is finite: it loads.
    const std::vector<std::uint8_t> large = with_scale(3e36f);
    const TrainedModel loaded = load_model(large.data(), large.size());
    CHECK(loaded.params.tok.row(0).cwiseAbs().maxCoeff() == doctest::Approx(15 * 3e36f));
}

TEST_CASE(
    "model file: the aliases travel with the vocabulary; a version-1 file (none) still loads") {
    const Vocabulary with_aliases(
        {"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "我", "喜", "欢", "你", "猫"},
        {{"歡", "欢"}, {"貓", "猫"}, {"懽", "欢"}});
    const std::vector<std::uint8_t> bytes = save_model(model(), with_aliases);
    const TrainedModel loaded = load_model(bytes.data(), bytes.size());
    CHECK(loaded.vocabulary.aliases() == with_aliases.aliases());
    CHECK(loaded.vocabulary.alias("歡") == 7);
    CHECK(loaded.vocabulary.typed_form(7) == "歡");
    // Version 1: the same file without the aliases block (and its u32 length), magic '1'.
    std::vector<std::uint8_t> old = save_model(model(), vocabulary());
    old[7] = '1';
    const std::string text = "猫\n";
    const std::vector<std::uint8_t> last(
        text.begin(), text.end());  // bytes: a char and a uint8_t of a CJK character differ
    const auto found = std::search(old.begin(), old.end(), last.begin(), last.end());
    REQUIRE(found != old.end());
    const auto end = found + static_cast<std::ptrdiff_t>(last.size());
    old.erase(end, end + 4);
    old = resealed(old);
    const TrainedModel v1 = load_model(old.data(), old.size());
    CHECK(v1.vocabulary.aliases().empty());
    CHECK(v1.vocabulary.alias("歡") == -1);
    // A damaged aliases block: a line without its tab.
    std::vector<std::uint8_t> bad = bytes;
    const std::string tab = "貓\t";
    const std::vector<std::uint8_t> line(tab.begin(), tab.end());
    const auto at = std::search(bad.begin(), bad.end(), line.begin(), line.end());
    REQUIRE(at != bad.end());
    at[3] = ' ';
    CHECK(contains(refusal(resealed(bad)), "no tab"));
}

TEST_CASE(
    "model file: loaded to run, the token embeddings stay the file's int8 rows and every number "
    "is the one the floats give") {
    const std::vector<std::uint8_t> bytes = save_model(model(), vocabulary(), 127, 15);
    const auto floats =
        std::make_shared<const TrainedModel>(load_model(bytes.data(), bytes.size()));
    const auto rows = std::make_shared<const TrainedModel>(
        load_model(bytes.data(), bytes.size(), Embeddings::int8_rows));
    CHECK(floats->packed->tok_rows.rows() == 0);
    CHECK(rows->params.tok.size() == 0);  // no float of the table written
    REQUIRE(rows->packed->tok_rows.rows() == 10);
    CHECK(rows->packed->tok_rows.levels.size() == 10 * 8);
    for (std::int32_t id = 0; id < 10; ++id)
        CHECK(token_rows(rows->params.tok, rows->packed.get(), {id}) == floats->params.tok.row(id));
    const EncoderTrace a = run_encoder(floats, "a", "我喜欢你", {});
    const EncoderTrace b = run_encoder(rows, "b", "我喜欢你", {});
    CHECK(a.embeddings == b.embeddings);
    CHECK(a.cache.hidden == b.cache.hidden);
    const auto guess = [](const TrainedModel& m) {
        return predict_masked(m.params, m.vocabulary, "我[MASK]欢", 3, {}, m.packed.get());
    };
    const auto from_floats = guess(*floats), from_rows = guess(*rows);
    for (std::size_t k = 0; k < 3; ++k) {
        CHECK(from_rows[0][k].token == from_floats[0][k].token);
        CHECK(from_rows[0][k].probability == from_floats[0][k].probability);
    }
    // The same refusal of a scale that is not finite, the same large finite row.
    std::vector<std::uint8_t> damaged = bytes;
    std::size_t text = 0;
    for (std::size_t id = 0; id < vocabulary().size(); ++id)
        text += vocabulary().token(static_cast<std::int32_t>(id)).size() + 1;
    const std::size_t first_scale = 8 + 20 + 4 + text + 4 + 4 + 4 + 1;
    for (const float scale : {std::nanf(""), 1e38f, 3e36f}) {
        std::memcpy(&damaged[first_scale], &scale, sizeof scale);
        damaged = resealed(damaged);
        const auto load = [&] {
            load_model(damaged.data(), damaged.size(), Embeddings::int8_rows);
        };
        if (scale == 3e36f) {
            const TrainedModel large =
                load_model(damaged.data(), damaged.size(), Embeddings::int8_rows);
            CHECK(token_rows(large.params.tok, large.packed.get(), {0}).cwiseAbs().maxCoeff() ==
                  doctest::Approx(15 * 3e36f));
        } else {
            CHECK(
                contains(error_from(load).what(), "block tok holds a value that is not a finite"));
        }
    }
}

TEST_CASE(
    "model file: a factorised embedding is a version-3 file; it loads back, as floats or int8 "
    "rows, with the same embeddings and guesses") {
    const EncoderParams<float> p = model(5);
    const std::vector<std::uint8_t> bytes = save_model(p, vocabulary(), 127, 15);
    CHECK(bytes[7] == '3');
    CHECK(save_model(model(), vocabulary())[7] == '2');  // unfactorised: version 2, as before
    const auto floats =
        std::make_shared<const TrainedModel>(load_model(bytes.data(), bytes.size()));
    const auto rows = std::make_shared<const TrainedModel>(
        load_model(bytes.data(), bytes.size(), Embeddings::int8_rows));
    CHECK(floats->params.shape.embedding == 5);
    CHECK(floats->params.tok.cols() == 5);
    CHECK(floats->params.tok_proj.rows() == 5);
    CHECK(floats->params.tok_proj.cols() == 8);
    for (Eigen::Index i = 0; i < 5; ++i) {
        const float step = p.tok_proj.row(i).cwiseAbs().maxCoeff() / 127.0f;
        CHECK((floats->params.tok_proj.row(i) - p.tok_proj.row(i)).cwiseAbs().maxCoeff() <=
              0.5f * step * 1.0001f);
    }
    REQUIRE(rows->packed->tok_rows.rows() == 10);
    CHECK(rows->packed->tok_rows.cols == 5);
    // The embeddings the page shows are d_model wide: tok[id]·P.
    const EncoderTrace a = run_encoder(floats, "a", "我喜欢你", {});
    const EncoderTrace b = run_encoder(rows, "b", "我喜欢你", {});
    REQUIRE(a.embeddings.cols() == 8);
    CHECK((a.embeddings.row(1) - floats->params.tok.row(5) * floats->params.tok_proj)
              .cwiseAbs()
              .maxCoeff() < 1e-5f);
    CHECK(a.embeddings == b.embeddings);
    CHECK(a.cache.hidden == b.cache.hidden);
    const auto before = predict_masked(p, vocabulary(), "我[MASK]欢", 3);
    const auto after = predict_masked(floats->params, floats->vocabulary, "我[MASK]欢", 3);
    const auto packed =
        predict_masked(rows->params, rows->vocabulary, "我[MASK]欢", 3, {}, rows->packed.get());
    CHECK(after[0][0].token == before[0][0].token);
    CHECK(after[0][0].probability == doctest::Approx(before[0][0].probability).epsilon(0.05));
    CHECK(packed[0][0].token == after[0][0].token);
    CHECK(packed[0][0].probability == doctest::Approx(after[0][0].probability).epsilon(1e-4));
    // A version-3 file whose shape has no width is refused.
    std::vector<std::uint8_t> bad = bytes;
    for (int k = 0; k < 4; ++k) bad[8 + 20 + static_cast<std::size_t>(k)] = 0;
    CHECK(contains(refusal(resealed(bad)), "embedding width"));
}

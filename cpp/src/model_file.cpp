#include "attention/model_file.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <string>

#include "attention/bytes.hpp"
#include "attention/error.hpp"
#include "attention/fnv1a.hpp"

namespace attention {

namespace {

constexpr char kMagic[8] = {'A', 'L', 'M', 'O', 'D', 'E', 'L', '2'};  // version 1: no aliases

[[noreturn]] void fail(const std::string& what) {
    throw Error("invalid_model", "the model file is damaged or not a model: " + what);
}

// Bytes as lines, each closed by '\n' (a last line without one counts too).
std::vector<std::string> lines(const std::uint8_t* data, std::size_t size) {
    const auto* text = reinterpret_cast<const char*>(data);
    std::vector<std::string> out;
    for (std::size_t at = 0; at < size;) {
        const auto end = static_cast<std::size_t>(std::find(text + at, text + size, '\n') - text);
        out.emplace_back(text + at, end - at);
        at = end + 1;
    }
    return out;
}

// One row of a weight matrix from its int8 levels. A function of its own, called once a row: the
// browser runs a wasm function first in its baseline code and swaps in optimised code for the next
// call once it has run enough, which one loop over every weight would never reach.
[[gnu::noinline]] void dequantise_row(float* row, const std::uint8_t* q, float scale,
                                      Eigen::Index n) {
    for (Eigen::Index j = 0; j < n; ++j)
        row[j] = scale * static_cast<float>(static_cast<std::int8_t>(q[j]));
}

}  // namespace

void write_shape(ByteWriter& w, const EncoderShape& s) {
    for (const int v : {s.vocab, s.d_model, s.heads, s.d_ff, s.layers})
        w.u32(static_cast<std::uint32_t>(v));
}

EncoderShape read_shape(ByteReader& r, const ByteReader::Fail& fail) {
    EncoderShape s;
    for (int* field : {&s.vocab, &s.d_model, &s.heads, &s.d_ff, &s.layers}) {
        const std::uint32_t v = r.u32("the shape");
        *field = v > 1000000 ? -1 : static_cast<int>(v);
    }
    if (const std::string problem = shape_problem(s); !problem.empty())
        fail("its shape is out of range: " + problem);
    return s;
}

std::vector<std::uint8_t> save_model(const EncoderParams<float>& params,
                                     const Vocabulary& vocabulary, int levels,
                                     int embedding_levels) {
    const EncoderShape& s = params.shape;
    if (!s.scaled)
        throw Error(
            "invalid_argument",
            "a model file holds a model whose heads divide by √d_k; this one was trained without");
    if (embedding_levels == 0) embedding_levels = levels;
    for (const int l : {levels, embedding_levels}) {
        if (l < 1 || l > 127)
            throw Error("invalid_argument",
                        "levels must be from 1 to 127, got " + std::to_string(l));
    }
    if (vocabulary.size() != static_cast<std::size_t>(s.vocab)) {
        throw Error("invalid_model", "the vocabulary has " + std::to_string(vocabulary.size()) +
                                         " tokens, the params " + std::to_string(s.vocab));
    }
    ByteWriter w;
    w.bytes(kMagic, 8);
    write_shape(w, s);
    std::string tokens;
    for (std::size_t id = 0; id < vocabulary.size(); ++id)
        tokens += vocabulary.token(static_cast<std::int32_t>(id)) + "\n";
    w.u32(static_cast<std::uint32_t>(tokens.size()));
    w.bytes(tokens.data(), tokens.size());
    std::string aliases;
    for (const auto& [typed, token] : vocabulary.aliases()) aliases += typed + "\t" + token + "\n";
    w.u32(static_cast<std::uint32_t>(aliases.size()));
    w.bytes(aliases.data(), aliases.size());
    params.for_each([&](const std::string& name, const Mat<float>& m) {
        w.u32(static_cast<std::uint32_t>(m.rows()));
        w.u32(static_cast<std::uint32_t>(m.cols()));
        const bool quantised = m.rows() > 1;
        w.u8(quantised ? 1 : 0);
        if (!quantised) {
            w.f32s(m);
            return;
        }
        for (Eigen::Index i = 0; i < m.rows(); ++i) {
            const float top = m.row(i).cwiseAbs().maxCoeff();
            const auto top_level = static_cast<float>(name == "tok" ? embedding_levels : levels);
            const float scale = top > 0 ? top / top_level : 1.0f;
            w.f32(scale);
            for (Eigen::Index j = 0; j < m.cols(); ++j) {
                const float q = std::round(m(i, j) / scale);
                w.u8(static_cast<std::uint8_t>(
                    static_cast<std::int8_t>(std::clamp(q, -top_level, top_level))));
            }
        }
    });
    w.u32(fnv1a(w.out.data(), w.out.size()));
    return w.out;
}

TrainedModel load_model(const std::uint8_t* data, std::size_t size) {
    if (size < 8 || std::memcmp(data, kMagic, 7) != 0)
        fail("it does not start as an Attention Lab model");
    const bool with_aliases = data[7] == kMagic[7];
    if (!with_aliases && data[7] != '1') fail("it is another version of the model format");
    if (size < 8 + 4) fail("it is too short to be a model");
    if (fnv1a(data, size - 4) != ByteReader(data + size - 4, 4, fail).u32("the checksum"))
        fail("its checksum does not match");
    ByteReader r(data + 8, size - 8 - 4, fail);
    const EncoderShape s = read_shape(r, fail);
    const std::uint32_t bytes = r.u32("the vocabulary");
    std::vector<std::string> tokens = lines(r.take(bytes, "the vocabulary"), bytes);
    if (tokens.size() != static_cast<std::size_t>(s.vocab))
        fail("its vocabulary does not have the shape's size");
    std::vector<Vocabulary::Alias> aliases;
    if (with_aliases) {
        const std::uint32_t n = r.u32("the aliases");
        for (const std::string& line : lines(r.take(n, "the aliases"), n)) {
            const std::size_t tab = line.find('\t');
            if (tab == std::string::npos) fail("an alias line has no tab");
            aliases.emplace_back(line.substr(0, tab), line.substr(tab + 1));
        }
    }
    std::optional<Vocabulary> vocabulary;
    try {
        vocabulary.emplace(std::move(tokens), aliases);
    } catch (const Error& e) {
        fail(std::string("its vocabulary: ") + e.what());
    }
    TrainedModel model{std::move(*vocabulary), unwritten_params<float>(s), nullptr};
    model.params.for_each([&](const std::string& name, Mat<float>& m) {
        const std::uint32_t rows = r.u32(name), cols = r.u32(name);
        if (rows != static_cast<std::uint32_t>(m.rows()) ||
            cols != static_cast<std::uint32_t>(m.cols()))
            fail("block " + name + " has the wrong shape");
        const std::uint8_t kind = r.u8(name);
        if (kind != (m.rows() > 1 ? 1 : 0)) fail("block " + name + " is stored the wrong way");
        // Every entry is written here, row by row through a pointer (a loop the compiler makes
        // 4 lanes wide: the page's first view waits for it).
        bool finite = true;
        for (Eigen::Index i = 0; i < m.rows(); ++i) {
            float* row = m.data() + i * m.cols();
            if (kind == 0) {
                for (Eigen::Index j = 0; j < m.cols(); ++j) {
                    row[j] = r.f32(name);
                    finite = finite && std::isfinite(row[j]);
                }
                continue;
            }
            const float scale = r.f32(name);
            dequantise_row(row, r.take(cols, name), scale, m.cols());
            // |q| ≤ 128: every product is finite when scale · 128 is; else each is looked at.
            if (!std::isfinite(scale * 128.0f)) {
                for (Eigen::Index j = 0; j < m.cols(); ++j)
                    finite = finite && std::isfinite(row[j]);
            }
        }
        if (!finite) fail("block " + name + " holds a value that is not a finite number");
    });
    if (r.left() != 0) fail("bytes are left over after the last block");
    model.packed = std::make_shared<const PackedEncoder>(pack_encoder(model.params));
    return model;
}

}  // namespace attention

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

// Version 1: no aliases; 2: aliases; 3: aliases and the shape's embedding (a factorised model's
// file; an unfactorised model is written as version 2).
constexpr char kMagic[8] = {'A', 'L', 'M', 'O', 'D', 'E', 'L', '3'};

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

// The loops over a whole file run as functions called once a row or a block, through pointers that
// neither the compiler nor the wasm optimiser inlines: a browser runs a wasm function first in its
// baseline code and swaps in optimised code only for a later call, which one loop over every byte
// or weight would never reach (the page's first view waits for this one).
void dequantise_row(float* out, const std::int8_t* levels, float scale, Eigen::Index n) {
    for (Eigen::Index j = 0; j < n; ++j) out[j] = scale * static_cast<float>(levels[j]);
}
void (*volatile const dequantise)(float*, const std::int8_t*, float, Eigen::Index) = dequantise_row;

std::uint32_t (*volatile const hash_block)(std::uint32_t, const void*, std::size_t) = fnv1a_more;

}  // namespace

std::uint32_t model_checksum(const std::uint8_t* data, std::size_t size) {
    constexpr std::size_t kBlock = 4096;
    std::uint32_t hash = kFnv1aStart;
    for (std::size_t at = 0; at < size; at += kBlock)
        hash = hash_block(hash, data + at, std::min(kBlock, size - at));
    return hash;
}

void PackedEncoder::Int8Rows::row(Eigen::Index i, float* out) const {
    dequantise(out, levels.data() + i * cols, scales[static_cast<std::size_t>(i)], cols);
}

Mat<float> token_rows(const Mat<float>& tok, const PackedEncoder* packed,
                      const std::vector<std::int32_t>& ids) {
    const PackedEncoder::Int8Rows* int8 =
        packed && packed->tok_rows.rows() > 0 ? &packed->tok_rows : nullptr;
    Mat<float> out(static_cast<Eigen::Index>(ids.size()), int8 ? int8->cols : tok.cols());
    for (Eigen::Index r = 0; r < out.rows(); ++r) {
        const Eigen::Index id = ids[static_cast<std::size_t>(r)];
        float* to = out.data() + r * out.cols();
        if (int8) {
            int8->row(id, to);
        } else {
            std::copy_n(tok.data() + id * tok.cols(), tok.cols(), to);
        }
    }
    return out;
}

Mat<float> PackedEncoder::Int8Rows::floats() const {
    Mat<float> out(rows(), cols);
    for (Eigen::Index i = 0; i < rows(); ++i) row(i, out.data() + i * cols);
    return out;
}

void write_int8_rows(ByteWriter& w, const Mat<float>& m, int levels) {
    const auto top_level = static_cast<float>(levels);
    for (Eigen::Index i = 0; i < m.rows(); ++i) {
        const float top = m.row(i).cwiseAbs().maxCoeff();
        const float scale = top > 0 ? top / top_level : 1.0f;
        w.f32(scale);
        for (Eigen::Index j = 0; j < m.cols(); ++j) {
            const float q = std::round(m(i, j) / scale);
            w.u8(static_cast<std::uint8_t>(
                static_cast<std::int8_t>(std::clamp(q, -top_level, top_level))));
        }
    }
}

bool read_block_rows(ByteReader& r, const std::string& name, bool int8, Mat<float>& m) {
    bool finite = true;
    for (Eigen::Index i = 0; i < m.rows(); ++i) {
        float* row = m.data() + i * m.cols();
        if (!int8) {
            for (Eigen::Index j = 0; j < m.cols(); ++j) {
                row[j] = r.f32(name);
                finite = finite && std::isfinite(row[j]);
            }
            continue;
        }
        const float scale = r.f32(name);
        dequantise(
            row,
            reinterpret_cast<const std::int8_t*>(r.take(static_cast<std::size_t>(m.cols()), name)),
            scale, m.cols());
        // |q| ≤ 128: every product is finite when scale · 128 is; else each is looked at.
        if (!std::isfinite(scale * 128.0f)) {
            for (Eigen::Index j = 0; j < m.cols(); ++j) finite = finite && std::isfinite(row[j]);
        }
    }
    return finite;
}

void write_shape(ByteWriter& w, const EncoderShape& s, bool with_embedding) {
    for (const int v : {s.vocab, s.d_model, s.heads, s.d_ff, s.layers})
        w.u32(static_cast<std::uint32_t>(v));
    if (with_embedding) w.u32(static_cast<std::uint32_t>(s.embedding));
}

EncoderShape read_shape(ByteReader& r, const ByteReader::Fail& fail, bool with_embedding) {
    EncoderShape s;
    const auto field = [&] {
        const std::uint32_t v = r.u32("the shape");
        return v > 1000000 ? -1 : static_cast<int>(v);
    };
    for (int* f : {&s.vocab, &s.d_model, &s.heads, &s.d_ff, &s.layers}) *f = field();
    if (with_embedding) s.embedding = field();
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
    w.bytes(kMagic, 7);
    w.u8(s.factorised() ? '3' : '2');
    write_shape(w, s, s.factorised());
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
        // The decoder's bias is a row as long as the vocabulary: its floats would be the file's
        // third-largest block, and at ±127 levels a logit moves by at most 0.4 % of the largest.
        const bool decoder_bias = name == "out_bias";
        const bool quantised = m.rows() > 1 || decoder_bias;
        w.u8(quantised ? 1 : 0);
        if (!quantised) {
            w.f32s(m);
            return;
        }
        write_int8_rows(w, m, decoder_bias ? 127 : name == "tok" ? embedding_levels : levels);
    });
    w.u32(model_checksum(w.out.data(), w.out.size()));
    return w.out;
}

TrainedModel load_model(const std::uint8_t* data, std::size_t size, Embeddings embeddings) {
    if (size < 8 || std::memcmp(data, kMagic, 7) != 0)
        fail("it does not start as an Attention Lab model");
    const char version = static_cast<char>(data[7]);
    if (version < '1' || version > kMagic[7]) fail("it is another version of the model format");
    const bool with_aliases = version >= '2';
    if (size < 8 + 4) fail("it is too short to be a model");
    if (model_checksum(data, size - 4) != ByteReader(data + size - 4, 4, fail).u32("the checksum"))
        fail("its checksum does not match");
    ByteReader r(data + 8, size - 8 - 4, fail);
    const EncoderShape s = read_shape(r, fail, version >= '3');
    if (version >= '3' && !s.factorised()) fail("a version 3 file's model has no embedding width");
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
    PackedEncoder::Int8Rows tok_rows;
    const bool int8_tok = embeddings == Embeddings::int8_rows;
    if (int8_tok)
        model.params.tok.resize(0, s.token_width());  // never allocated: tok_rows holds it
    model.params.for_each([&](const std::string& name, Mat<float>& m) {
        const std::uint32_t rows = r.u32(name), cols = r.u32(name);
        const bool to_int8 = int8_tok && &m == &model.params.tok;
        if (rows != static_cast<std::uint32_t>(to_int8 ? s.vocab : m.rows()) ||
            cols != static_cast<std::uint32_t>(m.cols()))
            fail("block " + name + " has the wrong shape");
        const std::uint8_t kind = r.u8(name);
        if (kind > 1 || (kind == 0 && rows > 1) || (to_int8 && kind != 1))
            fail("block " + name + " is stored the wrong way");
        if (to_int8) {
            tok_rows.cols = static_cast<Eigen::Index>(cols);
            tok_rows.scales.reserve(rows);
            tok_rows.levels.reserve(static_cast<std::size_t>(rows) * cols);  // copied, not zeroed
        }
        // Every entry is written here, row by row through a pointer; the token embeddings' levels
        // are kept as they are when they stay int8 rows.
        bool finite = true;
        Mat<float> looked_at;  // such a row's floats, when they are to be looked at
        for (Eigen::Index i = 0; i < static_cast<Eigen::Index>(rows); ++i) {
            float* row = to_int8 ? nullptr : m.data() + i * m.cols();
            if (kind == 0) {
                for (Eigen::Index j = 0; j < m.cols(); ++j) {
                    row[j] = r.f32(name);
                    finite = finite && std::isfinite(row[j]);
                }
                continue;
            }
            const float scale = r.f32(name);
            const auto* levels = reinterpret_cast<const std::int8_t*>(r.take(cols, name));
            // |q| ≤ 128: every product is finite when scale · 128 is; else each is looked at.
            const bool look = !std::isfinite(scale * 128.0f);
            if (to_int8) {
                tok_rows.scales.push_back(scale);
                tok_rows.levels.insert(tok_rows.levels.end(), levels, levels + cols);
                if (!look) continue;
                looked_at.resize(1, m.cols());
                row = looked_at.data();
            }
            dequantise(row, levels, scale, m.cols());
            if (look) {
                for (Eigen::Index j = 0; j < m.cols(); ++j)
                    finite = finite && std::isfinite(row[j]);
            }
        }
        if (!finite) fail("block " + name + " holds a value that is not a finite number");
    });
    if (r.left() != 0) fail("bytes are left over after the last block");
    PackedEncoder packed = pack_encoder(model.params);
    packed.tok_rows = std::move(tok_rows);
    model.packed = std::make_shared<const PackedEncoder>(std::move(packed));
    return model;
}

}  // namespace attention

#include "attention/model_file.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <string>

#include "attention/error.hpp"
#include "attention/fnv1a.hpp"

namespace attention {

namespace {

constexpr char kMagic[8] = {'A', 'L', 'M', 'O', 'D', 'E', 'L', '1'};

void fail(const std::string& what) { throw Error("invalid_model", "the model file is damaged or not a model: " + what); }

class Writer {
public:
    void bytes(const void* data, std::size_t n) {
        const auto* p = static_cast<const std::uint8_t*>(data);
        out.insert(out.end(), p, p + n);
    }
    void u32(std::uint32_t v) {
        for (int k = 0; k < 4; ++k) out.push_back(static_cast<std::uint8_t>(v >> (8 * k)));
    }
    void f32(float v) {
        std::uint32_t bits;
        std::memcpy(&bits, &v, 4);
        u32(bits);
    }
    std::vector<std::uint8_t> out;
};

class Reader {
public:
    Reader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
    const std::uint8_t* take(std::size_t n, const char* what) {
        if (n > size_ - at_) fail(std::string("it ends inside ") + what);
        const std::uint8_t* p = data_ + at_;
        at_ += n;
        return p;
    }
    std::uint32_t u32(const char* what) {
        const std::uint8_t* p = take(4, what);
        return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
               static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
    }
    float f32(const char* what) {
        const std::uint32_t bits = u32(what);
        float v;
        std::memcpy(&v, &bits, 4);
        return v;
    }
    std::size_t left() const { return size_ - at_; }

private:
    const std::uint8_t* data_;
    std::size_t size_;
    std::size_t at_ = 0;
};

}  // namespace

std::vector<std::uint8_t> save_model(const EncoderParams<float>& params, const Vocabulary& vocabulary, int levels) {
    const EncoderShape& s = params.shape;
    if (levels < 1 || levels > 127) throw Error("invalid_argument", "levels must be from 1 to 127, got " + std::to_string(levels));
    const auto top_level = static_cast<float>(levels);
    if (vocabulary.size() != static_cast<std::size_t>(s.vocab)) {
        throw Error("invalid_model", "the vocabulary has " + std::to_string(vocabulary.size()) + " tokens, the params " +
                                         std::to_string(s.vocab));
    }
    Writer w;
    w.bytes(kMagic, 8);
    for (const int v : {s.vocab, s.d_model, s.heads, s.d_ff, s.layers}) w.u32(static_cast<std::uint32_t>(v));
    std::string tokens;
    for (std::size_t id = 0; id < vocabulary.size(); ++id) tokens += vocabulary.token(static_cast<std::int32_t>(id)) + "\n";
    w.u32(static_cast<std::uint32_t>(tokens.size()));
    w.bytes(tokens.data(), tokens.size());
    params.for_each([&](const std::string&, const Mat<float>& m) {
        w.u32(static_cast<std::uint32_t>(m.rows()));
        w.u32(static_cast<std::uint32_t>(m.cols()));
        const bool quantised = m.rows() > 1;
        w.out.push_back(quantised ? 1 : 0);
        for (Eigen::Index i = 0; i < m.rows(); ++i) {
            if (!quantised) {
                for (Eigen::Index j = 0; j < m.cols(); ++j) w.f32(m(i, j));
                continue;
            }
            const float top = m.row(i).cwiseAbs().maxCoeff();
            const float scale = top > 0 ? top / top_level : 1.0f;
            w.f32(scale);
            for (Eigen::Index j = 0; j < m.cols(); ++j) {
                const float q = std::round(m(i, j) / scale);
                w.out.push_back(static_cast<std::uint8_t>(static_cast<std::int8_t>(std::clamp(q, -top_level, top_level))));
            }
        }
    });
    w.u32(fnv1a(w.out.data(), w.out.size()));
    return w.out;
}

TrainedModel load_model(const std::uint8_t* data, std::size_t size) {
    if (size < 8 || std::memcmp(data, kMagic, 7) != 0) fail("it does not start as an Attention Lab model");
    if (data[7] != kMagic[7]) fail("it is another version of the model format");
    if (size < 8 + 4) fail("it is too short to be a model");
    if (fnv1a(data, size - 4) != Reader(data + size - 4, 4).u32("the checksum")) fail("its checksum does not match");
    Reader r(data + 8, size - 8 - 4);
    EncoderShape s;
    s.vocab = static_cast<int>(r.u32("the shape"));
    s.d_model = static_cast<int>(r.u32("the shape"));
    s.heads = static_cast<int>(r.u32("the shape"));
    s.d_ff = static_cast<int>(r.u32("the shape"));
    s.layers = static_cast<int>(r.u32("the shape"));
    if (s.vocab < 6 || s.vocab > 100000 || s.d_model < 1 || s.d_model > 1024 || s.heads < 1 || s.heads > s.d_model ||
        s.d_model % s.heads != 0 || s.d_ff < 1 || s.d_ff > 4096 || s.layers < 1 || s.layers > 12) {
        fail("its shape is out of range");
    }
    const std::uint32_t bytes = r.u32("the vocabulary");
    const auto* text = reinterpret_cast<const char*>(r.take(bytes, "the vocabulary"));
    std::vector<std::string> tokens;
    for (std::size_t at = 0; at < bytes;) {
        const auto end = static_cast<std::size_t>(std::find(text + at, text + bytes, '\n') - text);
        tokens.emplace_back(text + at, end - at);
        at = end + 1;
    }
    if (tokens.size() != static_cast<std::size_t>(s.vocab)) fail("its vocabulary does not have the shape's size");
    std::optional<Vocabulary> vocabulary;
    try {
        vocabulary.emplace(std::move(tokens));
    } catch (const Error& e) {
        fail(std::string("its vocabulary: ") + e.what());
    }
    TrainedModel model{std::move(*vocabulary), zero_params<float>(s), nullptr};
    model.params.for_each([&](const std::string& name, Mat<float>& m) {
        const std::uint32_t rows = r.u32(name.c_str()), cols = r.u32(name.c_str());
        if (rows != static_cast<std::uint32_t>(m.rows()) || cols != static_cast<std::uint32_t>(m.cols())) fail("block " + name + " has the wrong shape");
        const std::uint8_t kind = *r.take(1, name.c_str());
        if (kind != (m.rows() > 1 ? 1 : 0)) fail("block " + name + " is stored the wrong way");
        for (Eigen::Index i = 0; i < m.rows(); ++i) {
            if (kind == 0) {
                for (Eigen::Index j = 0; j < m.cols(); ++j) m(i, j) = r.f32(name.c_str());
                continue;
            }
            const float scale = r.f32(name.c_str());
            const std::uint8_t* q = r.take(cols, name.c_str());
            for (Eigen::Index j = 0; j < m.cols(); ++j) m(i, j) = scale * static_cast<float>(static_cast<std::int8_t>(q[j]));
        }
        if (!m.allFinite()) fail("block " + name + " holds a value that is not a finite number");
    });
    if (r.left() != 0) fail("bytes are left over after the last block");
    model.packed = std::make_shared<const PackedEncoder>(pack_encoder(model.params));
    return model;
}

}  // namespace attention

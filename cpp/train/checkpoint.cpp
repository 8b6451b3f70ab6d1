#include "checkpoint.hpp"

#include <cstdint>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace attention::train {

namespace {

constexpr char kMagic[8] = {'A', 'L', 'T', 'R', 'A', 'I', 'N', '1'};

void put_u32(std::ofstream& out, std::uint32_t v) {
    const unsigned char b[4] = {static_cast<unsigned char>(v), static_cast<unsigned char>(v >> 8),
                                static_cast<unsigned char>(v >> 16), static_cast<unsigned char>(v >> 24)};
    out.write(reinterpret_cast<const char*>(b), 4);
}

std::uint32_t get_u32(std::ifstream& in) {
    unsigned char b[4];
    if (!in.read(reinterpret_cast<char*>(b), 4)) throw std::runtime_error("the checkpoint ends early");
    return static_cast<std::uint32_t>(b[0]) | (static_cast<std::uint32_t>(b[1]) << 8) |
           (static_cast<std::uint32_t>(b[2]) << 16) | (static_cast<std::uint32_t>(b[3]) << 24);
}

}  // namespace

void save_checkpoint(const EncoderParams<float>& params, const std::string& path) {
    std::ofstream out(path, std::ios::binary);
    if (!out) throw std::runtime_error("cannot write " + path);
    out.write(kMagic, sizeof kMagic);
    const EncoderShape& s = params.shape;
    std::uint32_t blocks = 0;
    params.for_each([&](const std::string&, const Mat<float>&) { ++blocks; });
    for (const int v : {s.vocab, s.d_model, s.heads, s.d_ff, s.layers}) put_u32(out, static_cast<std::uint32_t>(v));
    put_u32(out, blocks);
    params.for_each([&](const std::string& name, const Mat<float>& m) {
        put_u32(out, static_cast<std::uint32_t>(name.size()));
        out.write(name.data(), static_cast<std::streamsize>(name.size()));
        put_u32(out, static_cast<std::uint32_t>(m.rows()));
        put_u32(out, static_cast<std::uint32_t>(m.cols()));
        out.write(reinterpret_cast<const char*>(m.data()), static_cast<std::streamsize>(m.size() * 4));
    });
    if (!out) throw std::runtime_error("writing " + path + " failed");
}

EncoderParams<float> load_checkpoint(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path);
    char magic[8];
    if (!in.read(magic, 8) || std::memcmp(magic, kMagic, 8) != 0) throw std::runtime_error(path + " is not a trainer checkpoint");
    EncoderShape s;
    s.vocab = static_cast<int>(get_u32(in));
    s.d_model = static_cast<int>(get_u32(in));
    s.heads = static_cast<int>(get_u32(in));
    s.d_ff = static_cast<int>(get_u32(in));
    s.layers = static_cast<int>(get_u32(in));
    if (s.vocab < 6 || s.vocab > 1 << 20 || s.d_model < 1 || s.d_model > 4096 || s.heads < 1 || s.d_model % s.heads ||
        s.d_ff < 1 || s.d_ff > 16384 || s.layers < 1 || s.layers > 64) {
        throw std::runtime_error(path + ": the encoder's shape is out of range");
    }
    EncoderParams<float> p = attention::zero_params<float>(s);  // the shapes; every value is read below
    const std::uint32_t blocks = get_u32(in);
    std::uint32_t seen = 0;
    p.for_each([&](const std::string& name, Mat<float>& m) {
        const std::uint32_t length = get_u32(in);
        if (length > 256) throw std::runtime_error(path + ": a block name is too long");
        std::string got(length, '\0');
        if (!in.read(got.data(), static_cast<std::streamsize>(length)) || got != name) throw std::runtime_error(path + ": expected block " + name);
        if (get_u32(in) != static_cast<std::uint32_t>(m.rows()) || get_u32(in) != static_cast<std::uint32_t>(m.cols())) throw std::runtime_error(path + ": block " + name + " has the wrong shape");
        if (!in.read(reinterpret_cast<char*>(m.data()), static_cast<std::streamsize>(m.size() * 4))) {
            throw std::runtime_error("the checkpoint ends early, in block " + name);
        }
        ++seen;
    });
    if (seen != blocks || in.peek() != std::char_traits<char>::eof()) throw std::runtime_error(path + ": unexpected blocks");
    return p;
}

}  // namespace attention::train

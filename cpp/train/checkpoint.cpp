#include "checkpoint.hpp"

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "attention/bytes.hpp"
#include "attention/model_file.hpp"

namespace attention::train {

namespace {

constexpr char kMagic[8] = {'A', 'L', 'T', 'R', 'A', 'I', 'N', '2'};  // 2: the shape's embedding

}  // namespace

void save_checkpoint(const EncoderParams<float>& params, const std::string& path) {
    ByteWriter w;
    w.bytes(kMagic, sizeof kMagic);
    write_shape(w, params.shape, true);
    std::uint32_t blocks = 0;
    params.for_each([&](const std::string&, const Mat<float>&) { ++blocks; });
    w.u32(blocks);
    params.for_each([&](const std::string& name, const Mat<float>& m) {
        w.u32(static_cast<std::uint32_t>(name.size()));
        w.bytes(name.data(), name.size());
        w.u32(static_cast<std::uint32_t>(m.rows()));
        w.u32(static_cast<std::uint32_t>(m.cols()));
        w.f32s(m);
    });
    std::ofstream out(path, std::ios::binary);
    if (!out) throw std::runtime_error("cannot write " + path);
    out.write(reinterpret_cast<const char*>(w.out.data()),
              static_cast<std::streamsize>(w.out.size()));
    if (!out) throw std::runtime_error("writing " + path + " failed");
}

EncoderParams<float> load_checkpoint(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path);
    const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                          std::istreambuf_iterator<char>());
    const auto fail = [&](const std::string& what) -> void {
        throw std::runtime_error(path + ": " + what);
    };
    if (bytes.size() < 8 || std::memcmp(bytes.data(), kMagic, 8) != 0)
        fail("not a trainer checkpoint");
    ByteReader r(bytes.data() + 8, bytes.size() - 8, fail);
    EncoderParams<float> p = attention::zero_params<float>(
        read_shape(r, fail, true));  // the shapes; every value is read below
    const std::uint32_t blocks = r.u32("the block count");
    std::uint32_t seen = 0;
    p.for_each([&](const std::string& name, Mat<float>& m) {
        const std::uint32_t length = r.u32(name);
        if (length > 256) fail("a block name is too long");
        const std::uint8_t* got = r.take(length, name);
        if (std::string(reinterpret_cast<const char*>(got), length) != name)
            fail("expected block " + name);
        if (r.u32(name) != static_cast<std::uint32_t>(m.rows()) ||
            r.u32(name) != static_cast<std::uint32_t>(m.cols())) {
            fail("block " + name + " has the wrong shape");
        }
        r.f32s(m, "block " + name);
        ++seen;
    });
    if (seen != blocks || r.left() != 0) fail("unexpected blocks");
    return p;
}

}  // namespace attention::train

// Little-endian bytes in and out: the one writer and reader of the model file
// (model_file.cpp) and the trainer's checkpoints (cpp/train/checkpoint.cpp).
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "attention/matrix.hpp"

namespace attention {

class ByteWriter {
public:
    void bytes(const void* data, std::size_t n) {
        const auto* p = static_cast<const std::uint8_t*>(data);
        out.insert(out.end(), p, p + n);
    }
    void u8(std::uint8_t v) { out.push_back(v); }
    void u32(std::uint32_t v) {
        for (int k = 0; k < 4; ++k) out.push_back(static_cast<std::uint8_t>(v >> (8 * k)));
    }
    void f32(float v) {
        std::uint32_t bits;
        std::memcpy(&bits, &v, 4);
        u32(bits);
    }
    // Every value of a float matrix, row by row.
    void f32s(const Mat<float>& m) {
        for (Eigen::Index i = 0; i < m.size(); ++i) f32(m.data()[i]);
    }
    std::vector<std::uint8_t> out;
};

// Reads from a byte range; running out calls `fail` with what was being read
// (the caller's error: it must throw).
class ByteReader {
public:
    using Fail = std::function<void(const std::string& what)>;
    ByteReader(const std::uint8_t* data, std::size_t size, Fail fail)
        : data_(data), size_(size), fail_(std::move(fail)) {}
    const std::uint8_t* take(std::size_t n, const std::string& what) {
        if (n > size_ - at_) {
            fail_("it ends inside " + what);
            throw std::logic_error("ByteReader: fail returned");
        }
        const std::uint8_t* p = data_ + at_;
        at_ += n;
        return p;
    }
    std::uint8_t u8(const std::string& what) { return *take(1, what); }
    std::uint32_t u32(const std::string& what) {
        const std::uint8_t* p = take(4, what);
        return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
               static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
    }
    float f32(const std::string& what) {
        const std::uint32_t bits = u32(what);
        float v;
        std::memcpy(&v, &bits, 4);
        return v;
    }
    void f32s(Mat<float>& m, const std::string& what) {
        for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = f32(what);
    }
    std::size_t left() const { return size_ - at_; }

private:
    const std::uint8_t* data_;
    std::size_t size_;
    std::size_t at_ = 0;
    Fail fail_;
};

}  // namespace attention

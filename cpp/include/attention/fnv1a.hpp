// FNV-1a, 32 bit: the seeded model's token ids (tokenizer.cpp) and the model
// file's checksum (model_file.cpp) hash bytes the same way.
#pragma once

#include <cstddef>
#include <cstdint>

namespace attention {

inline constexpr std::uint32_t kFnv1aStart = 2166136261u;

// The hash of `hash`'s bytes followed by these: a long input can be hashed a block at a time.
inline std::uint32_t fnv1a_more(std::uint32_t hash, const void* data, std::size_t size) {
    const auto* bytes = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < size; ++i) hash = (hash ^ bytes[i]) * 16777619u;
    return hash;
}

inline std::uint32_t fnv1a(const void* data, std::size_t size) {
    return fnv1a_more(kFnv1aStart, data, size);
}

}  // namespace attention

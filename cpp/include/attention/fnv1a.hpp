// FNV-1a, 32 bit: the seeded model's token ids (tokenizer.cpp) and the model
// file's checksum (model_file.cpp) hash bytes the same way.
#pragma once

#include <cstddef>
#include <cstdint>

namespace attention {

inline std::uint32_t fnv1a(const void* data, std::size_t size) {
    const auto* bytes = static_cast<const unsigned char*>(data);
    std::uint32_t hash = 2166136261u;
    for (std::size_t i = 0; i < size; ++i) hash = (hash ^ bytes[i]) * 16777619u;
    return hash;
}

}  // namespace attention

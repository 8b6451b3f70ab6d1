// Strict UTF-8 decoding and encoding of Unicode code points.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace attention {

// Decodes UTF-8 into code points. Rejects (attention::Error("invalid_utf8"), with the byte
// offset) truncated sequences, stray continuation bytes, overlong forms,
// UTF-16 surrogates encoded as UTF-8 and values above U+10FFFF.
std::vector<char32_t> decode_utf8(std::string_view text);

// The length in bytes of the UTF-8 sequence a lead byte starts (1 for ASCII and for a byte that
// cannot lead: the caller steps past it). No validation: decode_utf8 does that.
constexpr std::size_t utf8_sequence_length(unsigned char lead) {
    return lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
}

// Appends the UTF-8 form of one valid code point.
void append_utf8(std::string& out, char32_t cp);

}  // namespace attention

#include "attention/utf8.hpp"

#include "attention/error.hpp"

namespace attention {

namespace {

[[noreturn]] void reject(std::size_t offset, const char* what) {
    throw Error(
        "invalid_utf8",
        "the text is not valid UTF-8: " + std::string(what) + " at byte " + std::to_string(offset),
        {{"offset", std::to_string(offset)}});
}

}  // namespace

std::vector<char32_t> decode_utf8(std::string_view text) {
    std::vector<char32_t> out;
    out.reserve(text.size());
    std::size_t i = 0;
    while (i < text.size()) {
        const auto lead = static_cast<unsigned char>(text[i]);
        if (lead < 0x80) {
            out.push_back(lead);
            ++i;
            continue;
        }
        std::size_t extra = 0;
        char32_t cp = 0;
        char32_t min = 0;
        if ((lead & 0xE0) == 0xC0) {
            extra = 1, cp = lead & 0x1Fu, min = 0x80;
        } else if ((lead & 0xF0) == 0xE0) {
            extra = 2, cp = lead & 0x0Fu, min = 0x800;
        } else if ((lead & 0xF8) == 0xF0) {
            extra = 3, cp = lead & 0x07u, min = 0x10000;
        } else {
            reject(i, (lead & 0xC0) == 0x80 ? "a continuation byte with no lead byte"
                                            : "a byte that never occurs in UTF-8");
        }
        if (i + extra >= text.size()) {
            reject(i, "a sequence cut short by the end of the text");
        }
        for (std::size_t k = 1; k <= extra; ++k) {
            const auto byte = static_cast<unsigned char>(text[i + k]);
            if ((byte & 0xC0) != 0x80) reject(i, "a sequence cut short");
            cp = (cp << 6) | (byte & 0x3Fu);
        }
        if (cp < min) reject(i, "an overlong encoding");
        if (cp >= 0xD800 && cp <= 0xDFFF) reject(i, "a UTF-16 surrogate encoded as UTF-8");
        if (cp > 0x10FFFF) reject(i, "a code point above U+10FFFF");
        out.push_back(cp);
        i += extra + 1;
    }
    return out;
}

void append_utf8(std::string& out, char32_t cp) {
    if (cp < 0x80) {
        out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
        out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
}

}  // namespace attention

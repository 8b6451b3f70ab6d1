#include "json.hpp"

#include <cstdlib>

#include "attention/error.hpp"
#include "attention/utf8.hpp"

namespace attention::json {

const Value* Value::find(std::string_view name) const {
    const Value* found = nullptr;
    for (const auto& [key, value] : object) {
        if (key == name) found = &value;
    }
    return found;
}

namespace {

class Parser {
public:
    Parser(std::string_view text, const std::string& code, const std::string& what)
        : text_(text), code_(code), what_(what) {}

    Value document() {
        Value v = value(0);
        space();
        if (at_ != text_.size()) fail("text after the value");
        return v;
    }

private:
    [[noreturn]] ATTENTION_COLD void fail(const std::string& why) const {
        throw Error(code_, what_ + " is not valid JSON: " + why + " at byte " + std::to_string(at_),
                    {{"file", what_}, {"byte", std::to_string(at_)}});
    }
    void space() {
        while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\t' ||
                                      text_[at_] == '\n' || text_[at_] == '\r'))
            ++at_;
    }
    char peek() {
        space();
        if (at_ >= text_.size()) fail("an unexpected end");
        return text_[at_];
    }
    void expect(char c) {
        if (peek() != c) fail(std::string("'") + c + "' expected");
        ++at_;
    }
    bool word(std::string_view w) {
        if (text_.substr(at_, w.size()) != w) return false;
        at_ += w.size();
        return true;
    }

    Value value(int depth) {
        if (depth > 64) fail("too deep");
        Value v;
        const char c = peek();
        if (c == '{') {
            v.kind = Value::Kind::object;
            ++at_;
            if (peek() == '}') {
                ++at_;
                return v;
            }
            for (;;) {
                if (peek() != '"') fail("a member name expected");
                std::string key = string();
                expect(':');
                v.object.emplace_back(std::move(key), value(depth + 1));
                if (peek() == ',') {
                    ++at_;
                    continue;
                }
                expect('}');
                return v;
            }
        }
        if (c == '[') {
            v.kind = Value::Kind::array;
            ++at_;
            if (peek() == ']') {
                ++at_;
                return v;
            }
            for (;;) {
                v.array.push_back(value(depth + 1));
                if (peek() == ',') {
                    ++at_;
                    continue;
                }
                expect(']');
                return v;
            }
        }
        if (c == '"') {
            v.kind = Value::Kind::string;
            v.string = string();
            return v;
        }
        if (word("true") || word("false")) {
            v.kind = Value::Kind::boolean;
            v.boolean = text_[at_ - 1] == 'e' && text_[at_ - 2] == 'u';
            return v;
        }
        if (word("null")) return v;
        return number();
    }

    Value number() {
        const std::size_t start = at_;
        if (at_ < text_.size() && text_[at_] == '-') ++at_;
        const auto digits = [&] {
            const std::size_t from = at_;
            while (at_ < text_.size() && text_[at_] >= '0' && text_[at_] <= '9') ++at_;
            return at_ > from;
        };
        if (at_ < text_.size() && text_[at_] == '0') {
            ++at_;
        } else if (!digits()) {
            fail("a value expected");
        }
        if (at_ < text_.size() && text_[at_] == '.') {
            ++at_;
            if (!digits()) fail("digits expected after '.'");
        }
        if (at_ < text_.size() && (text_[at_] == 'e' || text_[at_] == 'E')) {
            ++at_;
            if (at_ < text_.size() && (text_[at_] == '+' || text_[at_] == '-')) ++at_;
            if (!digits()) fail("an exponent expected");
        }
        Value v;
        v.kind = Value::Kind::number;
        v.number = std::strtod(std::string(text_.substr(start, at_ - start)).c_str(), nullptr);
        return v;
    }

    unsigned hex4() {
        if (at_ + 4 > text_.size()) fail("a \\u escape cut short");
        unsigned v = 0;
        for (int k = 0; k < 4; ++k) {
            const char c = text_[at_++];
            v <<= 4;
            if (c >= '0' && c <= '9') {
                v |= static_cast<unsigned>(c - '0');
            } else if (c >= 'a' && c <= 'f') {
                v |= static_cast<unsigned>(c - 'a' + 10);
            } else if (c >= 'A' && c <= 'F') {
                v |= static_cast<unsigned>(c - 'A' + 10);
            } else {
                fail("a bad \\u escape");
            }
        }
        return v;
    }

    std::string string() {
        ++at_;  // the opening quote
        std::string out;
        for (;;) {
            if (at_ >= text_.size()) fail("a string not closed");
            const char c = text_[at_++];
            if (c == '"') break;
            if (static_cast<unsigned char>(c) < 0x20) fail("a control character in a string");
            if (c != '\\') {
                out += c;
                continue;
            }
            if (at_ >= text_.size()) fail("a string not closed");
            switch (const char e = text_[at_++]) {
                case '"':
                case '\\':
                case '/':
                    out += e;
                    break;
                case 'b':
                    out += '\b';
                    break;
                case 'f':
                    out += '\f';
                    break;
                case 'n':
                    out += '\n';
                    break;
                case 'r':
                    out += '\r';
                    break;
                case 't':
                    out += '\t';
                    break;
                case 'u': {
                    char32_t cp = hex4();
                    if (cp >= 0xD800 && cp <= 0xDBFF && text_.substr(at_, 2) == "\\u") {
                        at_ += 2;
                        const unsigned low = hex4();
                        if (low < 0xDC00 || low > 0xDFFF) fail("a lone surrogate");
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                    } else if (cp >= 0xD800 && cp <= 0xDFFF) {
                        fail("a lone surrogate");
                    }
                    append_utf8(out, cp);
                    break;
                }
                default:
                    fail("a bad escape");
            }
        }
        try {
            decode_utf8(out);
        } catch (const Error&) {
            fail("a string that is not UTF-8");
        }
        return out;
    }

    std::string_view text_;
    std::size_t at_ = 0;
    const std::string& code_;
    const std::string& what_;
};

}  // namespace

Value parse(std::string_view text, const std::string& code, const std::string& what) {
    return Parser(text, code, what).document();
}

}  // namespace attention::json

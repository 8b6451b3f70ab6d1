// A small JSON reader for what an imported checkpoint brings (config.json,
// tokenizer_config.json, a safetensors header): RFC 8259's values, numbers as double, strings
// as UTF-8 (\u escapes and surrogate pairs decoded). Internal to the core.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace attention::json {

struct Value {
    enum class Kind { null, boolean, number, string, array, object } kind = Kind::null;
    bool boolean = false;
    double number = 0;
    std::string string;
    std::vector<Value> array;
    std::vector<std::pair<std::string, Value>> object;  // in the text's order

    // The member of this name (the last one when repeated), or null.
    const Value* find(std::string_view name) const;
    bool is(Kind k) const { return kind == k; }
};

// The value the whole text holds; throws attention::Error(code, "<what>: <why> at byte N") when
// it is not JSON, or nests deeper than 64.
Value parse(std::string_view text, const std::string& code, const std::string& what);

}  // namespace attention::json

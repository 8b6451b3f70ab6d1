// The one exception type the core throws for bad input or configuration.
#pragma once

#include <stdexcept>
#include <string>

namespace attention {

// what() is an English sentence for people; code() is a stable identifier for
// programs (the page maps it to a message in the reader's language):
//   "invalid_utf8", "empty_text", "too_many_tokens", "text_too_long", "invalid_config",
//   "unknown_stage", "invalid_argument".
class Error : public std::invalid_argument {
public:
    Error(std::string code, const std::string& message)
        : std::invalid_argument(message), code_(std::move(code)) {}
    const std::string& code() const noexcept { return code_; }

private:
    std::string code_;
};

}  // namespace attention

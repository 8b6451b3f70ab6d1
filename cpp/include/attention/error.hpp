// The one exception type the core throws for bad input or configuration.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

// A function that only builds and throws an error message, in a file built for speed (the
// forward's): built for size instead, and kept out of its callers (the page's core is downloaded
// before the first view, and each message built inline is code).
#if defined(__clang__)
#define ATTENTION_COLD __attribute__((cold, noinline, minsize))
#else
#define ATTENTION_COLD __attribute__((cold, noinline))
#endif

namespace attention {

// what() is an English sentence for people; code() is a stable identifier for
// programs (the page maps it to a message in the reader's language):
//   "invalid_utf8", "empty_text", "too_many_tokens", "text_too_long", "invalid_config",
//   "unknown_stage", "invalid_argument".
//
// params() holds the values the message quotes, by name (e.g. {"tokens", "513"},
// {"max", "512"}), so a message can be rebuilt in another language.
class Error : public std::invalid_argument {
public:
    using Params = std::vector<std::pair<std::string, std::string>>;

    Error(std::string code, const std::string& message, Params params = {})
        : std::invalid_argument(message), code_(std::move(code)), params_(std::move(params)) {}
    const std::string& code() const noexcept { return code_; }
    const Params& params() const noexcept { return params_; }

private:
    std::string code_;
    Params params_;
};

}  // namespace attention

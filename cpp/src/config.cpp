#include "attention/config.hpp"

#include "attention/error.hpp"

namespace attention {

namespace {

void require_range(const char* field, std::int64_t value, std::int64_t lo, std::int64_t hi,
                   const std::string& hi_text) {
    if (value < lo || value > hi) {
        throw Error("invalid_config",
                    std::string(field) + " must be an integer from " + std::to_string(lo) + " to " +
                        hi_text + ", got " + std::to_string(value),
                    {{"field", field},
                     {"min", std::to_string(lo)},
                     {"max", hi_text},
                     {"got", std::to_string(value)}});
    }
}

}  // namespace

bool operator==(const Config& a, const Config& b) {
    return a.d_model == b.d_model && a.d_k == b.d_k && a.seed == b.seed && a.scale == b.scale &&
           a.causal == b.causal && a.positional == b.positional;
}

void validate(const Config& config) {
    require_range("d_model", config.d_model, 1, kMaxDModel, std::to_string(kMaxDModel));
    require_range("d_k", config.d_k, 1, config.d_model,
                  "d_model (" + std::to_string(config.d_model) + ")");
    require_range("seed", config.seed, 0, kMaxSeed, std::to_string(kMaxSeed));
}

}  // namespace attention

#include "attention/trace.hpp"

#include <cmath>

#include "attention/error.hpp"

namespace attention {

namespace {

[[noreturn]] ATTENTION_COLD void unknown_stage(std::string_view id) {
    std::string valid;
    for (const auto name : kStageNames) {
        valid += valid.empty() ? "" : ", ";
        valid += name;
    }
    throw Error("unknown_stage",
                "unknown stage id \"" + std::string(id) + "\"; the stage ids are " + valid,
                {{"id", std::string(id)}, {"ids", valid}});
}

}  // namespace

float Trace::divisor() const {
    return config.scale ? std::sqrt(static_cast<float>(config.d_k)) : 1.0f;
}

const Matrix& Trace::stage(std::string_view id) const {
    // Same order as kStageNames.
    const std::array<const Matrix*, kStageNames.size()> fields = {
        &embeddings, &positional, &x,        &head->wq, &head->wk, &head->wv,
        &head->bq,   &head->bk,   &head->bv, &q,        &k,        &v,
        &scores,     &scaled,     &masked,   &weights,  &output,
    };
    for (std::size_t i = 0; i < kStageNames.size(); ++i) {
        if (kStageNames[i] == id) return *fields[i];
    }
    unknown_stage(id);
}

}  // namespace attention

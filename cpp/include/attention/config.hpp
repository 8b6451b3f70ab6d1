// The configuration of one attention run, with the defaults of one BERT-base head.
#pragma once

#include <cstdint>
#include <string>

namespace attention {

// Limits that validate() enforces. Fields are 64-bit so that any integer a
// caller passes (for example a JavaScript number) reaches validate() intact
// and gets a message naming its range instead of being silently truncated.
inline constexpr std::int64_t kMaxDModel = 1024;
inline constexpr std::int64_t kMaxSeed = 4294967295;   // 2^32 − 1
inline constexpr std::size_t kMaxTokens = 512;         // BERT's limit, [CLS] and [SEP] included
inline constexpr std::size_t kMaxTextBytes = 1 << 20;  // 1 MiB of UTF-8, checked before decoding

struct Config {
    std::int64_t d_model = 768;  // width of an embedding row; 1 … 1024
    std::int64_t d_k = 64;       // width of one head's q, k, v rows; 1 … d_model (√64 = 8)
    std::int64_t seed = 42;      // seeds embeddings and params; 0 … 2^32 − 1
    bool scale = true;           // divide scores by √d_k
    bool causal = false;         // mask every key after the query (−∞ above the diagonal)
    bool positional = true;      // add sinusoidal positional encoding to the embeddings
};

// Every field equal.
bool operator==(const Config& a, const Config& b);
inline bool operator!=(const Config& a, const Config& b) { return !(a == b); }

// Throws attention::Error ("invalid_config") whose message names the field and its allowed
// range, e.g. "d_k must be an integer from 1 to d_model (768), got 0".
void validate(const Config& config);

}  // namespace attention

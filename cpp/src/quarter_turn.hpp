// cos and sin from a quarter turn and the rest: for q ∈ ℤ and x ∈ [−π/4, π/4],
// cos(q·π/2 + x) and sin(q·π/2 + x) in float, with Taylor polynomials (within
// ≈ 1.5·2⁻²⁴ of the exact values, tested) and no branches, calls or tables, so
// a loop of them vectorises. Shared by the params' Box–Muller step and the
// positional encoding, which reduce their angles to this form each in their
// own way.
#pragma once

#include <cstdint>
#include <cstring>

namespace attention::detail {

inline std::uint32_t float_bits(float x) {
    std::uint32_t b;
    std::memcpy(&b, &x, sizeof b);
    return b;
}
inline float bits_float(std::uint32_t b) {
    float x;
    std::memcpy(&x, &b, sizeof x);
    return x;
}

inline void quarter_cos_sin(std::int32_t q, float x, float& cos_out, float& sin_out) {
    const float x2 = x * x;
    const float sin_x =
        x + x * x2 * (-1.0f / 6 + x2 * (1.0f / 120 + x2 * (-1.0f / 5040 + x2 * (1.0f / 362880))));
    const float cos_x =
        1.0f + x2 * (-0.5f + x2 * (1.0f / 24 + x2 * (-1.0f / 720 + x2 * (1.0f / 40320))));
    const auto quarter =
        static_cast<std::uint32_t>(q);  // two's complement: q mod 4 in the low bits
    const bool swap = (quarter & 1u) != 0;
    const std::uint32_t cos_sign = ((quarter + 1u) & 2u) << 30;  // negative in quarters 1 and 2
    const std::uint32_t sin_sign = (quarter & 2u) << 30;         // negative in quarters 2 and 3
    cos_out = bits_float(float_bits(swap ? sin_x : cos_x) ^ cos_sign);
    sin_out = bits_float(float_bits(swap ? cos_x : sin_x) ^ sin_sign);
}

}  // namespace attention::detail

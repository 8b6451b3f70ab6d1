// Four float lanes, the only vector width the kernels use. Under Emscripten
// with -msimd128 these are wasm_simd128.h intrinsics (what ships to browsers);
// elsewhere GCC/Clang vector extensions with the same meaning, so the native
// and sanitizer builds run — and test — the very same kernel code.
#pragma once

#include <cstdint>
#include <cstring>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace attention::simd {

#if defined(__wasm_simd128__)

using f32x4 = v128_t;

inline f32x4 load(const float* p) { return wasm_v128_load(p); }
inline f32x4 load_splat(const float* p) { return wasm_v128_load32_splat(p); }
inline void store(float* p, f32x4 v) { wasm_v128_store(p, v); }
inline f32x4 splat(float x) { return wasm_f32x4_splat(x); }
inline f32x4 add(f32x4 a, f32x4 b) { return wasm_f32x4_add(a, b); }
inline f32x4 sub(f32x4 a, f32x4 b) { return wasm_f32x4_sub(a, b); }
inline f32x4 mul(f32x4 a, f32x4 b) { return wasm_f32x4_mul(a, b); }
inline f32x4 div(f32x4 a, f32x4 b) { return wasm_f32x4_div(a, b); }
inline f32x4 min(f32x4 a, f32x4 b) { return wasm_f32x4_pmin(a, b); }
inline f32x4 max(f32x4 a, f32x4 b) { return wasm_f32x4_pmax(a, b); }
// For r = y + 1.5·2²³ (the whole number nearest y sits in r's low mantissa
// bits): 2 to that whole number, built in the exponent bits. |y| < 2²².
inline f32x4 pow2_of_shifted(f32x4 r, f32x4 shift) {
    return wasm_i32x4_shl(wasm_i32x4_add(wasm_i32x4_sub(r, shift), wasm_i32x4_splat(127)), 23);
}
// Lanes where a < b get `then`, the others `otherwise`.
inline f32x4 select_lt(f32x4 a, f32x4 b, f32x4 then, f32x4 otherwise) {
    return wasm_v128_bitselect(then, otherwise, wasm_f32x4_lt(a, b));
}
inline float sum(f32x4 v) {
    return (wasm_f32x4_extract_lane(v, 0) + wasm_f32x4_extract_lane(v, 1)) +
           (wasm_f32x4_extract_lane(v, 2) + wasm_f32x4_extract_lane(v, 3));
}
template <int L>
float lane_of(f32x4 v) {
    return wasm_f32x4_extract_lane(v, L);
}
inline float lane(f32x4 v, int l) {
    switch (l) {
        case 0:
            return lane_of<0>(v);
        case 1:
            return lane_of<1>(v);
        case 2:
            return lane_of<2>(v);
        default:
            return lane_of<3>(v);
    }
}

#else

typedef float f32x4 __attribute__((vector_size(16)));
typedef std::int32_t i32x4 __attribute__((vector_size(16)));

inline f32x4 load(const float* p) {
    f32x4 v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
inline f32x4 splat(float x) { return f32x4{x, x, x, x}; }
inline f32x4 load_splat(const float* p) { return splat(*p); }
inline void store(float* p, f32x4 v) { std::memcpy(p, &v, sizeof v); }
inline f32x4 add(f32x4 a, f32x4 b) { return a + b; }
inline f32x4 sub(f32x4 a, f32x4 b) { return a - b; }
inline f32x4 mul(f32x4 a, f32x4 b) { return a * b; }
inline f32x4 div(f32x4 a, f32x4 b) { return a / b; }
inline f32x4 min(f32x4 a, f32x4 b) { return b < a ? b : a; }
inline f32x4 max(f32x4 a, f32x4 b) { return a < b ? b : a; }
inline f32x4 pow2_of_shifted(f32x4 r, f32x4 shift) {
    i32x4 a, b;
    std::memcpy(&a, &r, sizeof a);
    std::memcpy(&b, &shift, sizeof b);
    const i32x4 bits = ((a - b) + 127) << 23;
    f32x4 out;
    std::memcpy(&out, &bits, sizeof out);
    return out;
}
inline f32x4 select_lt(f32x4 a, f32x4 b, f32x4 then, f32x4 otherwise) {
    return a < b ? then : otherwise;
}
inline float sum(f32x4 v) { return (v[0] + v[1]) + (v[2] + v[3]); }
inline float lane(f32x4 v, int l) { return v[l]; }

#endif

// e^x in every lane for x ≤ 0 (softmax only takes e^(s − max)), Cephes'
// single-precision polynomial (as in Eigen's pexp): relative error ≈ 1 ulp.
// Below ln(FLT_MIN) ≈ −87.34 (and for −∞) the result is exactly 0, like a
// masked score's weight must be.
constexpr float kLowestExponent = -87.33654f;  // ln(FLT_MIN): e^x below it is 0 here
inline f32x4 exp_nonpositive(f32x4 x) {
    const f32x4 lowest = splat(kLowestExponent);
    const f32x4 in = x;
    x = max(x, lowest);
    // n = x·log₂e rounded to the nearest whole number (ties to even), by the
    // 1.5·2²³ shift: the sum's rounding does it, and 2ⁿ comes from its bits.
    const f32x4 shift = splat(12582912.0f);
    const f32x4 shifted = add(mul(x, splat(1.44269504088896341f)), shift);
    const f32x4 n = sub(shifted, shift);
    // x − n·ln 2 in two steps, so the reduction loses no bits.
    x = sub(sub(x, mul(n, splat(0.693359375f))), mul(n, splat(-2.12194440e-4f)));
    const f32x4 z = mul(x, x);
    f32x4 y = splat(1.9875691500e-4f);
    y = add(mul(y, x), splat(1.3981999507e-3f));
    y = add(mul(y, x), splat(8.3334519073e-3f));
    y = add(mul(y, x), splat(4.1665795894e-2f));
    y = add(mul(y, x), splat(1.6666665459e-1f));
    y = add(mul(y, x), splat(5.0000001201e-1f));
    y = add(add(mul(y, z), x), splat(1.0f));
    return select_lt(in, lowest, splat(0.0f), mul(y, pow2_of_shifted(shifted, shift)));
}

}  // namespace attention::simd

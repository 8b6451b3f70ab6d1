// The arithmetic ceiling of this machine's wasm: many independent chains of
// f32x4 multiply then add (wasm_simd128.h), so nothing waits on memory or on
// a previous result. bench/run.mjs loads this module next to the core and
// calls probe() between kernel runs, so each kernel figure is compared with a
// ceiling measured at the same moment (this shared machine's speed drifts).
//
// Two traps, both measured while writing this (bench/RESULTS.md):
//  - V8 runs a wasm function from its baseline compiler (Liftoff) until a call
//    after it was tiered up. One long loop in main() never is, and Liftoff
//    keeps every vector in a stack slot: ~14 GFLOP/s instead of ~55. Called
//    from JavaScript again and again, probe() is optimised like the kernel.
//  - x86-64 has 16 vector registers: past ~12 chains (+ the two constants and a
//    temporary) the chains spill to memory and the figure drops again. So
//    several chain counts are offered; run.mjs keeps the best.
#include <emscripten/emscripten.h>
#include <wasm_simd128.h>

#include <chrono>

namespace {

template <int kChains>
double steps(float multiplier, float addend, int count) {
    v128_t c[kChains];
    for (int i = 0; i < kChains; ++i) c[i] = wasm_f32x4_splat(static_cast<float>(i) * 1e-3f);
    // Splatted from arguments: no v128.const to re-materialise inside the loop.
    const v128_t m = wasm_f32x4_splat(multiplier);
    const v128_t a = wasm_f32x4_splat(addend);
    const auto t0 = std::chrono::steady_clock::now();
    for (int s = 0; s < count; ++s) {
        for (int i = 0; i < kChains; ++i) c[i] = wasm_f32x4_add(wasm_f32x4_mul(c[i], m), a);
    }
    const auto t1 = std::chrono::steady_clock::now();
    float sink = 0;
    for (int i = 0; i < kChains; ++i) sink += wasm_f32x4_extract_lane(c[i], 0);
    const double seconds = std::chrono::duration<double>(t1 - t0).count();
    // sink is ~0.1 per chain, never −1: it keeps the loop alive.
    return sink == -1.0f ? 0.0 : static_cast<double>(count) * kChains * 4 * 2 / seconds / 1e9;
}

}  // namespace

// GFLOP/s of `count` steps of `chains` (4 … 16, even) independent f32x4
// chains c = c·m + a; 0 for an unsupported chain count. m and a come from the
// caller (0.999999 and 1e-7) so the compiler cannot fold them into constants.
extern "C" EMSCRIPTEN_KEEPALIVE double probe(int chains, int count, float m, float a) {
    switch (chains) {
        case 4:
            return steps<4>(m, a, count);
        case 6:
            return steps<6>(m, a, count);
        case 8:
            return steps<8>(m, a, count);
        case 10:
            return steps<10>(m, a, count);
        case 12:
            return steps<12>(m, a, count);
        case 14:
            return steps<14>(m, a, count);
        case 16:
            return steps<16>(m, a, count);
        default:
            return 0.0;
    }
}

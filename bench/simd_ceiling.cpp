// The arithmetic ceiling of this machine's wasm: many independent chains of
// f32x4 multiply then add (wasm_simd128.h), so nothing waits on memory or on
// a previous result. Prints {"gflops": …} (a mul and an add = 2 flops per lane).
#include <wasm_simd128.h>

#include <chrono>
#include <cstdio>

int main() {
    constexpr int kChains = 16;
    constexpr long kSteps = 20'000'000;
    v128_t acc[kChains];
    for (int c = 0; c < kChains; ++c) acc[c] = wasm_f32x4_splat(static_cast<float>(c) * 1e-3f);
    const v128_t m = wasm_f32x4_splat(0.999999f);
    const v128_t a = wasm_f32x4_splat(1e-7f);
    double best = 0;
    for (int trial = 0; trial < 5; ++trial) {
        const auto t0 = std::chrono::steady_clock::now();
        for (long i = 0; i < kSteps; ++i) {
            for (int c = 0; c < kChains; ++c) acc[c] = wasm_f32x4_add(wasm_f32x4_mul(acc[c], m), a);
        }
        const auto t1 = std::chrono::steady_clock::now();
        const double seconds = std::chrono::duration<double>(t1 - t0).count();
        const double gflops = static_cast<double>(kSteps) * kChains * 4 * 2 / seconds / 1e9;
        if (gflops > best) best = gflops;
    }
    float sink = 0;
    for (int c = 0; c < kChains; ++c) sink += wasm_f32x4_extract_lane(acc[c], 0);
    std::printf("{\"gflops\":%.3f,\"sink\":%g}\n", best, static_cast<double>(sink));
    return 0;
}

// npm run bench: training speed of the shipped model's shape, natively as
// npm run train builds it (-O3 -march=native, two threads): masked-language
// steps of 32 windows of 64 random ids, one JSON line.
#include <chrono>
#include <cstdio>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "train/corpus.hpp"
#include "train/encoder.hpp"
#include "train/mlm.hpp"

using namespace attention;
using namespace attention::train;

int main() {
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, 1 << 30);  // as train_main.cpp: freed blocks stay in the heap
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
    const EncoderShape shape{9500, 128, 4, 512, 2};
    const int threads = 2, sequences = 32, length = 64, steps = 40;
    EncoderParams<float> params = init_params<float>(shape, 1);
    auto state = adamw_state(params);
    Rng rng(2);
    TokenStream stream;
    for (int k = 0; k < 200000; ++k)
        stream.ids.push_back(5 + static_cast<std::int32_t>(rng.below(shape.vocab - 5)));
    const SpecialIds special;
    const auto step = [&] {
        const MlmBatch batch = draw_batch(stream, sequences, length, shape.vocab, special, rng);
        EncoderParams<float> grads = zeros_like(params);
        loss_and_gradients(params, batch, grads, threads);
        adamw_step(params, grads, state, AdamWConfig{}, 1e-4);
    };
    for (int k = 0; k < 5; ++k) step();  // warm
    const auto t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < steps; ++k) step();
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf(
        "{\"stepsPerSecond\":%.3f,\"tokensPerSecond\":%.0f,\"threads\":%d,\"tokensPerStep\":%d}\n",
        steps / s, steps * sequences * length / s, threads, sequences * length);
    return 0;
}

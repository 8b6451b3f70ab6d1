// Native reference for the kernel benchmark: the same core, built with
// -O3 -march=native, timing one full forward (every stage kept) per shape.
// Prints one JSON line per shape: {"n":…, "dModel":…, "dK":…, "medianMs":…}.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "attention/model.hpp"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

int main() {
#if defined(__GLIBC__)
    // glibc hands blocks ≥ 128 KiB straight to mmap and gives them back on
    // free, so every run would page-fault its matrices in again (a 512-token
    // run 5× slower). The wasm heap keeps its pages; make the native one do so.
    mallopt(M_MMAP_THRESHOLD, 1 << 30);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
    const int shapes[][3] = {{9, 768, 64}, {64, 768, 64}, {128, 768, 64}, {512, 768, 64}};
    for (const auto& s : shapes) {
        attention::Config config;
        config.d_model = s[1];
        config.d_k = s[2];
        const attention::AttentionModel model(config);
        std::string sentence;
        for (int i = 0; i < s[0] - 2; ++i) sentence += "字";
        const int reps = s[0] >= 512 ? 30 : 200;
        std::vector<double> ms;
        for (int r = 0; r < reps + 3; ++r) {
            const auto t0 = std::chrono::steady_clock::now();
            const attention::Trace trace = model.run(sentence);
            const auto t1 = std::chrono::steady_clock::now();
            if (trace.output.rows() != s[0]) return 1;
            if (r >= 3) ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
        }
        std::nth_element(ms.begin(), ms.begin() + static_cast<long>(ms.size() / 2), ms.end());
        std::printf("{\"n\":%d,\"dModel\":%d,\"dK\":%d,\"medianMs\":%.4f}\n", s[0], s[1], s[2],
                    ms[ms.size() / 2]);
    }
    return 0;
}

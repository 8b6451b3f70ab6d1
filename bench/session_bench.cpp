// npm run bench: the training lab's run natively, as the native trainer is built
// (-O3 -march=native, Eigen's products), on one thread: the tiny preset's shape
// on the lab's text, tokens a second over its steps. One JSON line.
//   bench_session <text file> <steps>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "train/session.hpp"

using namespace attention::train;

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: bench_session <text file> <steps>\n");
        return 2;
    }
    std::ifstream in(argv[1]);
    std::stringstream text;
    text << in.rdbuf();
    SessionSettings s;  // the lab's tiny preset (web/app/training/training-lab.js)
    s.layers = 1;
    s.heads = 2;
    s.d_model = 32;
    s.lr = 0.01;
    s.steps = std::atoi(argv[2]);
    TrainingSession session(text.str(), s);
    const auto t0 = std::chrono::steady_clock::now();
    StepReport last;
    for (int k = 0; k < s.steps; ++k) last = session.step();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf(
        "{\"steps\":%d,\"tokens\":%lld,\"seconds\":%.3f,\"tokensPerSecond\":%.1f,\"loss\":%.6f}\n",
        s.steps, static_cast<long long>(last.tokens), seconds,
        static_cast<double>(last.tokens) / seconds, last.loss);
    return 0;
}

// The one learning-rate schedule of every training run, the training lab's
// (session.cpp) and the shipped model's (train_main.cpp): a linear warm-up over
// the first warmup_share of the steps to the peak, then a linear decay to
// peak / (steps − warmup + 1) at the last step.
#pragma once

#include <algorithm>

namespace attention::train {

inline constexpr double kWarmupShare = 0.05;

inline int warmup_steps(int steps, double warmup_share = kWarmupShare) {
    return std::max(1, static_cast<int>(warmup_share * steps));
}

// The rate at step (1 … steps).
inline double learning_rate(double peak, int step, int steps, double warmup_share = kWarmupShare) {
    const int warmup = warmup_steps(steps, warmup_share);
    return peak * (step <= warmup ? static_cast<double>(step) / warmup
                                  : static_cast<double>(steps - step + 1) / (steps - warmup + 1));
}

}  // namespace attention::train

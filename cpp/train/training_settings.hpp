// What a training run's settings may be, and what follows from them: one table
// for the trainer (session.cpp checks each run against it) and, through the
// trainer's binding (cpp/bindings/trainer_bindings.cpp, web/lib/training.js), for
// the training lab's knobs and presets; the d_k a run's heads get; and the
// verdict of the lab's two-run experiments. The page's core knows none of it.
#pragma once

#include <array>
#include <string_view>

namespace attention::train {

// Each setting's allowed range, in the order a run's settings are checked.
struct SettingRange {
    const char* name;
    double min, max;
};
inline constexpr std::array<SettingRange, 10> kTrainingRanges{{
    {"layers", 1, 4},
    {"heads", 1, 8},
    {"dModel", 8, 256},
    {"length", 8, 128},
    {"batch", 1, 64},
    {"steps", 1, 100000},
    {"vocab", 50, 4000},
    {"lr", 1e-5, 0.1},
    {"initScale", 0.001, 2},
    {"seed", 0, 4294967295.0},
}};

// The training lab's presets, from the smallest upwards: what each sets (the rest keeps the
// trainer's defaults, SessionSettings). With seed 1 the tiny preset's second head looks at the
// next token from about step 2500 (docs/training.md; bench/ times it).
struct TrainingPreset {
    const char* name;
    int layers, heads, d_model, steps;
    double lr, init_scale;
};
inline constexpr std::array<TrainingPreset, 3> kTrainingPresets{{
    {"tiny", 1, 2, 32, 3000, 0.01, 0.02},
    {"small", 2, 4, 64, 3000, 0.003, 0.02},
    {"larger", 2, 4, 128, 6000, 0.001, 0.02},
}};

// d_k of a run's heads: d_model / heads; 0 when heads does not divide d_model or either is
// not positive (such settings are refused).
constexpr int training_head_size(int d_model, int heads) {
    return d_model > 0 && heads > 0 && d_model % heads == 0 ? d_model / heads : 0;
}

// The training lab's experiments compare two runs that differ in one thing by their final
// held-out losses: the variant is "worse" when its loss is more than kVerdictMargin above the
// reference's, "better" when that much below, else the "same" (two seeds of one setting differ
// by about that much). The ÷√d_k experiment: the variant is the run without ÷√d_k; the Q/K
// experiment: the variant is the run with one matrix for queries and keys.
inline constexpr double kVerdictMargin = 0.03;
constexpr std::string_view loss_verdict(double reference, double variant) {
    if (variant > reference * (1 + kVerdictMargin)) return "worse";
    if (variant < reference * (1 - kVerdictMargin)) return "better";
    return "same";
}

}  // namespace attention::train

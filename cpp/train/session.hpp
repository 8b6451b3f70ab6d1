// One training run as the training lab drives it, a step at a time: a text
// (the lab's own or the learner's), a small encoder learned from it by
// masked-language modelling, and after each step what the article talks
// about, measured: how peaked the softmax rows are and how much gradient
// reaches W_q and W_k. Deterministic for the text and the settings (seed
// included), one thread, so a run repeats exactly in Node and in a browser.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "attention/encoder.hpp"
#include "attention/vocabulary.hpp"
#include "corpus.hpp"
#include "encoder.hpp"
#include "mlm.hpp"
#include "schedule.hpp"
#include "training_settings.hpp"

namespace attention::train {

struct SessionSettings {
    int layers = 1;
    int heads = 2;
    int d_model = 32;  // d_k = d_model / heads
    int length = 32;   // tokens a training window, [CLS] and [SEP] included
    int batch = 16;    // windows a step
    int steps = 400;
    int vocab = 600;  // the vocabulary learned from the text, specials included
    double lr =
        3e-3;  // AdamW's peak rate: a linear warm-up over 5 % of the steps, then linear decay
    bool scaled = true;        // ÷√d_k in every head
    bool shared_qk = false;    // queries and keys from one matrix (W_k = W_q) in every head
    double init_scale = 0.02;  // the weight matrices' initial standard deviation (BERT's 0.02)
    std::uint64_t seed = 1;
    double token_sd = 0.1;  // the token embeddings' initial standard deviation
    int d_ff = 0;           // the feed-forward width; 0: 4 · d_model
    int embedding = 0;      // a factorised embedding's width (EncoderShape::embedding); 0: none
};

// Each setting's allowed range (training_settings.hpp), checked in this order; the first one out
// of range throws attention::Error("invalid_option") naming it, its value and its range.
inline constexpr const auto& setting_ranges() { return kTrainingRanges; }

// The share of softmax rows whose largest weight is above this: "near one-hot".
inline constexpr double kOneHot = 0.99;

// What the softmax rows of a forward looked like: over every head's every row.
struct SoftmaxMeasures {
    double one_hot_share = 0;  // rows with max > kOneHot, as a share of all rows
    double entropy = 0;        // the rows' mean entropy, in nats (0: one-hot; ln n: uniform)
    double max_entropy = 0;    // ln n averaged the same way: what uniform rows would give
};
SoftmaxMeasures measure_softmax(const std::vector<Mat<float>>& weights);

// What the scores of a forward looked like (attention/symmetry.hpp), over every head of every
// sequence: how symmetric Q·Kᵀ is, and how much weight a real token keeps on itself.
struct ScoreMeasures {
    double symmetric_share =
        0;  // mean of ‖(S + Sᵀ)/2‖² ÷ ‖S‖²: 1 with one matrix for queries and keys
    double self_share =
        0;  // mean of mean_self_weight() (heads.hpp): over each sequence's real tokens
};
ScoreMeasures measure_scores(const EncoderCache<float>& cache, int sequences, int length,
                             int heads);

struct StepReport {
    int step = 0;     // 1 … steps
    double loss = 0;  // the step's batch loss (mean cross-entropy over its masked tokens)
    double lr = 0;
    SoftmaxMeasures softmax;  // every layer's heads on the step's batch
    ScoreMeasures scores;     // …and their Q·Kᵀ
    double grad_wq = 0;       // ‖∂loss/∂W_q‖ (Frobenius, every layer together)
    double grad_wk = 0;       // ‖∂loss/∂W_k‖
    std::int64_t tokens = 0;  // tokens seen so far
};

// The text as the run uses it: sentences (one a line, or split after 。！？.!?),
// every tenth (the 10th, 20th, …) held out from training and the vocabulary.
struct TextSplit {
    std::vector<std::string> train, heldout;
};
TextSplit split_text(std::string_view text);

// The least a text must give: tokens of training text, and held-out sentences.
inline constexpr std::size_t kMinTrainTokens = 2000;
inline constexpr std::size_t kMinHeldout = 5;

// What a run learns from, prepared: the vocabulary, the running text, the pools of
// sentence units the mix draws from (BatchMix: the first pool's share), and the
// held-out windows (the first 32 are heldout_loss()'s).
struct TrainingData {
    Vocabulary vocabulary;
    TokenStream train;
    std::vector<SentenceUnits> pools;
    Sequences heldout;
};

// How a run steps: the schedule's warm-up (schedule.hpp), the batch mix
// (corpus.hpp), the tokens never masked, the threads a batch's gradients are
// split over, and whether each step measures the softmax rows and the gradient
// reaching W_q and W_k (one thread: the training lab's; the shipped model's run
// measures none of it and uses both cores).
struct StepOptions {
    double warmup_share = kWarmupShare;
    BatchMix mix;
    SpecialIds special;
    int threads = 1;
    bool measure = true;
};

// One training run, a step at a time: the training lab's (from a text, in the
// trainer's wasm) and the shipped model's (npm run train: train_main.cpp, from the
// corpus), the same schedule, mix and AdamW step.
class TrainingSession {
public:
    // From a text, with the lab's mix: throws attention::Error: "invalid_option" (a setting
    // out of range), "invalid_utf8", or "text_too_short" (params tokens, min, heldout,
    // min_heldout).
    TrainingSession(std::string_view text, const SessionSettings& settings);
    // From prepared data, the settings as given (the command line checks its own; vocab is the
    // data's).
    TrainingSession(TrainingData data, const SessionSettings& settings, const StepOptions& options);

    // One AdamW step on a freshly drawn batch; throws once every step is done.
    StepReport step();
    int steps_done() const { return steps_done_; }
    const SessionSettings& settings() const { return settings_; }

    // The mean loss over fixed held-out windows (the same every call).
    double heldout_loss() const;

    const EncoderParams<float>& params() const { return params_; }
    // Go on from other params of the same shape (a trained model's: the command line's --init),
    // with AdamW's moments at zero; throws attention::Error "invalid_model" for another shape.
    void start_from(const EncoderParams<float>& params);
    const Vocabulary& vocabulary() const { return data_.vocabulary; }
    std::size_t train_tokens() const { return data_.train.ids.size(); }
    std::size_t heldout_sentences() const { return heldout_sentences_; }

    // The model file (model_file.hpp) of the params as they are now.
    std::vector<std::uint8_t> model_file() const;

private:
    TrainingSession(const SessionSettings& settings, const TextSplit& split);

    SessionSettings settings_;
    StepOptions options_;
    TrainingData data_;
    std::vector<const SentenceUnits*> pools_;  // data_.pools, as the mix takes them
    MlmBatch heldout_batch_;
    std::size_t heldout_sentences_ = 0;
    EncoderParams<float> params_;
    AdamWState<float> adam_;
    Rng rng_;
    int steps_done_ = 0;
    std::int64_t tokens_ = 0;
};

}  // namespace attention::train

// libFuzzer target: arbitrary bytes as the sentence and arbitrary (valid or
// not) configurations through the core, with ASan + UBSan watching. Every run
// must either be rejected with attention::Error or produce a trace whose
// invariants hold; anything else (crash, hang, NaN, other exception) is a bug.
//
// Input layout (FuzzedDataProvider): mode byte, then the fields below, then
// the rest as the sentence (mode 0) or as float scores (mode 1). Input that
// starts with "ALMODEL" is a model file for the loader instead.
#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

#include "attention/encoder_trace.hpp"
#include "attention/error.hpp"
#include "attention/model.hpp"
#include "attention/model_file.hpp"
#include "attention/softmax_row.hpp"
#include "attention/vocabulary.hpp"

namespace {

void require(bool ok) {
    if (!ok) __builtin_trap();
}

void check_trace(const attention::Trace& t) {
    const auto n = static_cast<Eigen::Index>(t.tokens.size());
    require(n >= 3 && n <= static_cast<Eigen::Index>(attention::kMaxTokens));
    require(t.weights.rows() == n && t.weights.cols() == n);
    require(t.output.rows() == n && t.output.cols() == t.config.d_k);
    require(t.x.allFinite() && t.q.allFinite() && t.k.allFinite() && t.v.allFinite());
    require(t.weights.allFinite() && t.output.allFinite());
    for (Eigen::Index i = 0; i < n; ++i) {
        require(std::abs(t.weights.row(i).cast<double>().sum() - 1.0) < 1e-4);
        for (Eigen::Index j = i + 1; t.config.causal && j < n; ++j)
            require(t.weights(i, j) == 0.0f);
    }
}

void check_row(const attention::SoftmaxRow& s) {
    double sum = 0;
    for (const float p : s.probs) {
        require(std::isfinite(p) && p >= 0.0f && p <= 1.0f);
        sum += p;
    }
    require(std::abs(sum - 1.0) < 1e-4);
    require(s.argmax < s.probs.size() && s.probs[s.argmax] == s.max_prob);
    require(std::isfinite(s.entropy) && s.entropy >= -1e-6f);
    require(s.jacobian.rows() == static_cast<Eigen::Index>(s.probs.size()) &&
            s.jacobian.allFinite());
}

// A learned vocabulary's tokenizer on the same bytes: [CLS] … [SEP], every id
// inside the vocabulary and naming its own text, or a clean rejection.
void check_tokens(const std::string& text) {
    static const attention::Vocabulary vocabulary({"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]",
                                                   "我", "喜", "欢", "a", "##t", "##te", "at",
                                                   "##n", "##tion", "，", "!"});
    try {
        const auto tokens = vocabulary.tokenize(text);
        require(tokens.size() >= 3 && tokens.size() <= attention::kMaxTokens);
        require(tokens.front().id == attention::Vocabulary::kCls &&
                tokens.back().id == attention::Vocabulary::kSep);
        for (const auto& t : tokens) {
            require(t.id >= 0 && static_cast<std::size_t>(t.id) < vocabulary.size() &&
                    vocabulary.token(t.id) == t.text);
        }
    } catch (const attention::Error&) {
        // Rejected with a message, as tokenize() rejects.
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    // Bytes that start as a model file go to its loader: a model whose every
    // value is finite and whose vocabulary fits its shape, or a clean rejection.
    if (size >= 7 && std::memcmp(data, "ALMODEL", 7) == 0) {
        try {
            auto m =
                std::make_shared<const attention::TrainedModel>(attention::load_model(data, size));
            require(m->vocabulary.size() == static_cast<std::size_t>(m->params.shape.vocab));
            // A model that loads runs; where its weights stay finite (huge params
            // may overflow float, which is no error), every row sums to 1.
            const attention::EncoderTrace t =
                attention::run_encoder(m, "fuzz", "我喜欢[MASK] attention");
            for (int layer = 0; layer < t.layers(); ++layer) {
                for (int head = 0; head < t.heads(); ++head) {
                    const attention::Trace h = t.head(layer, head);
                    for (Eigen::Index i = 0; i < h.weights.rows(); ++i) {
                        if (h.weights.row(i).allFinite())
                            require(std::abs(h.weights.row(i).sum() - 1.0f) < 1e-3f);
                    }
                }
            }
        } catch (const attention::Error&) {
        }
        return 0;
    }
    FuzzedDataProvider in(data, size);
    const bool scores_mode = in.ConsumeIntegral<std::uint8_t>() % 2 == 1;
    try {
        if (scores_mode) {
            const auto d_k = in.ConsumeIntegralInRange<std::int64_t>(-2, 1100);
            std::vector<float> scores;
            while (in.remaining_bytes() >= sizeof(float) && scores.size() < 600) {
                scores.push_back(in.ConsumeFloatingPoint<float>());
            }
            check_row(attention::softmax_row(scores, {d_k, 1.0, true}));
            return 0;
        }
        attention::Config config;
        // Ranges reach past every bound so that invalid values are fuzzed too.
        config.d_model = in.ConsumeIntegralInRange<std::int64_t>(-2, 1100);
        config.d_k = in.ConsumeIntegralInRange<std::int64_t>(-2, 1100);
        config.seed = in.ConsumeIntegralInRange<std::int64_t>(-2, 4294967297);
        config.scale = in.ConsumeBool();
        config.causal = in.ConsumeBool();
        config.positional = in.ConsumeBool();
        const std::string text = in.ConsumeRemainingBytesAsString();
        check_tokens(text);
        check_trace(attention::run_attention(text, config));
    } catch (const attention::Error&) {
        // Rejected with a message: the expected outcome for bad input.
    }
    return 0;
}

#include "session.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "attention/error.hpp"
#include "attention/heads.hpp"
#include "attention/model_file.hpp"
#include "attention/symmetry.hpp"
#include "attention/utf8.hpp"
#include "schedule.hpp"
#include "wordpiece.hpp"

namespace attention::train {

namespace {

std::string number(double v) {
    std::ostringstream out;
    out << v;
    return out.str();
}

SessionSettings checked(const SessionSettings& s) {
    const double values[] = {double(s.layers), double(s.heads), double(s.d_model), double(s.length),
                             double(s.batch),  double(s.steps), double(s.vocab),   s.lr,
                             s.init_scale,     double(s.seed)};
    const auto& ranges = setting_ranges();
    static_assert(kTrainingRanges.size() == sizeof(values) / sizeof(values[0]),
                  "one range for each setting");
    for (std::size_t k = 0; k < ranges.size(); ++k) {
        const SettingRange& r = ranges[k];
        if (!(values[k] >= r.min && values[k] <= r.max)) {
            throw Error("invalid_option",
                        std::string(r.name) + " must be between " + number(r.min) + " and " +
                            number(r.max) + ", got " + number(values[k]),
                        {{"name", r.name},
                         {"value", number(values[k])},
                         {"min", number(r.min)},
                         {"max", number(r.max)}});
        }
    }
    if (training_head_size(s.d_model, s.heads) == 0) {
        throw Error("invalid_option",
                    "dModel (" + number(s.d_model) + ") must be a multiple of heads (" +
                        number(s.heads) + ")",
                    {{"name", "dModel"}, {"value", number(s.d_model)}, {"heads", number(s.heads)}});
    }
    return s;
}

std::vector<std::string> learn_tokens(const TextSplit& split, const SessionSettings& s) {
    WordPieceOptions options;
    options.vocab_size = static_cast<std::size_t>(s.vocab);
    options.max_cjk =
        static_cast<std::size_t>(s.vocab) * 3 / 5;  // room left for pieces of other words
    options.min_cjk_count = 2;
    return learn_wordpiece(split.train, options).tokens;
}

// The text's sentences as units of one length a batch, or none (then every
// batch is windows of the running text).
SentenceUnits sentence_units(const std::vector<std::string>& lines, const Vocabulary& vocabulary,
                             int max_length) {
    try {
        return make_units(lines, vocabulary, max_length);
    } catch (const std::invalid_argument&) {
        return {};
    }
}

bool ends_sentence(std::string_view text, std::size_t at, std::size_t& width) {
    for (const std::string_view mark : {"。", "！", "？"}) {
        if (text.compare(at, mark.size(), mark) == 0) {
            width = mark.size();
            return true;
        }
    }
    const char c = text[at];
    width = 1;
    return (c == '.' || c == '!' || c == '?') && (at + 1 == text.size() || text[at + 1] == ' ');
}

}  // namespace

SoftmaxMeasures measure_softmax(const std::vector<Mat<float>>& weights) {
    SoftmaxMeasures m;
    double rows = 0;
    for (const Mat<float>& w : weights) {
        for (Eigen::Index i = 0; i < w.rows(); ++i) {
            double entropy = 0;
            for (Eigen::Index j = 0; j < w.cols(); ++j) {
                const double p = w(i, j);
                if (p > 0) entropy -= p * std::log(p);
            }
            m.one_hot_share += w.row(i).maxCoeff() > kOneHot ? 1 : 0;
            m.entropy += entropy;
            m.max_entropy += std::log(static_cast<double>(w.cols()));
            rows += 1;
        }
    }
    if (rows > 0) {
        m.one_hot_share /= rows;
        m.entropy /= rows;
        m.max_entropy /= rows;
    }
    return m;
}

ScoreMeasures measure_scores(const EncoderCache<float>& cache, int sequences, int length,
                             int heads) {
    ScoreMeasures m;
    double count = 0;
    for (const LayerCache<float>& layer : cache.layers) {
        const auto dk = layer.q.cols() / heads;
        for (int b = 0; b < sequences; ++b) {
            for (int j = 0; j < heads; ++j) {
                const auto rows = Eigen::seqN(static_cast<Eigen::Index>(b) * length, length);
                const auto cols = Eigen::seqN(static_cast<Eigen::Index>(j) * dk, dk);
                const Matrix scores = layer.q(rows, cols) * layer.k(rows, cols).transpose();
                m.symmetric_share += symmetric_share(scores);
                // Every sequence of a batch is [CLS] … [SEP]: the weight on itself over its real
                // tokens, as the heads show it.
                m.self_share += static_cast<double>(
                    mean_self_weight(layer.weights[static_cast<std::size_t>(b * heads + j)]));
                count += 1;
            }
        }
    }
    if (count > 0) {
        m.symmetric_share /= count;
        m.self_share /= count;
    }
    return m;
}

TextSplit split_text(std::string_view text) {
    TextSplit out;
    std::size_t sentences = 0;
    std::string current;
    const auto close = [&] {
        const std::size_t first = current.find_first_not_of(" \t\r");
        if (first != std::string::npos) {
            const std::string sentence =
                current.substr(first, current.find_last_not_of(" \t\r") - first + 1);
            (++sentences % 10 == 0 ? out.heldout : out.train).push_back(sentence);
        }
        current.clear();
    };
    for (std::size_t at = 0; at < text.size();) {
        if (text[at] == '\n') {
            close();
            ++at;
            continue;
        }
        std::size_t width = 1;
        const bool end = ends_sentence(text, at, width);
        current.append(text.substr(at, width));
        at += width;
        if (end) close();
    }
    close();
    return out;
}

TrainingSession::TrainingSession(std::string_view text, const SessionSettings& settings)
    : TrainingSession(checked(settings), [&] {
          try {
              decode_utf8(text);
          } catch (const std::invalid_argument& e) {
              throw Error("invalid_utf8", std::string("the text is not valid UTF-8: ") + e.what());
          }
          return split_text(text);
      }()) {}

namespace {

// A text's data for a run of these settings: the vocabulary learned from its training
// sentences, the running text, its sentence units (one pool), the held-out windows.
// Throws attention::Error ("text_too_short") when the text gives too little of them.
TrainingData prepare(const TextSplit& split, const SessionSettings& s) {
    TrainingData d{Vocabulary(learn_tokens(split, s)), {}, {}, {}};
    d.train = make_stream(split.train, d.vocabulary);
    d.pools.push_back(sentence_units(split.train, d.vocabulary, s.length - 2));
    d.heldout = make_sequences(make_stream(split.heldout, d.vocabulary), s.length);
    const std::size_t heldout_sentences = split.heldout.size();
    if (d.train.ids.size() < kMinTrainTokens || heldout_sentences < kMinHeldout ||
        d.heldout.count() == 0) {
        throw Error("text_too_short",
                    "the text gives " + number(static_cast<double>(d.train.ids.size())) +
                        " tokens to learn from and " +
                        number(static_cast<double>(heldout_sentences)) +
                        " held-out sentences; it needs at least " + number(kMinTrainTokens) +
                        " and " + number(kMinHeldout) + " (every tenth sentence is held out)",
                    {{"tokens", number(static_cast<double>(d.train.ids.size()))},
                     {"min", number(kMinTrainTokens)},
                     {"heldout", number(static_cast<double>(heldout_sentences))},
                     {"min_heldout", number(kMinHeldout)}});
    }
    return d;
}

}  // namespace

TrainingSession::TrainingSession(const SessionSettings& s, const TextSplit& split)
    : TrainingSession(prepare(split, s), s, StepOptions{}) {
    heldout_sentences_ = split.heldout.size();
}

TrainingSession::TrainingSession(TrainingData data, const SessionSettings& s,
                                 const StepOptions& options)
    : settings_(s), options_(options), data_(std::move(data)), rng_(s.seed + 1) {
    for (const SentenceUnits& units : data_.pools) pools_.push_back(&units);
    EncoderShape shape{static_cast<int>(data_.vocabulary.size()), s.d_model, s.heads,
                       s.d_ff > 0 ? s.d_ff : 4 * s.d_model, s.layers};
    shape.scaled = s.scaled;
    shape.shared_qk = s.shared_qk;
    shape.embedding = s.embedding;
    params_ = init_params<float>(shape, s.seed, s.token_sd, s.init_scale);
    adam_ = adamw_state(params_);
    // The held-out windows, masked once with a seed of their own: every call scores the same
    // tokens.
    const Sequences& heldout = data_.heldout;
    const std::size_t windows = std::min<std::size_t>(heldout.count(), 32);
    Rng mask_rng(s.seed + 7);
    heldout_batch_ = mask_batch(
        std::vector<std::int32_t>(
            heldout.ids.begin(),
            heldout.ids.begin() +
                static_cast<std::ptrdiff_t>(windows * static_cast<std::size_t>(s.length))),
        static_cast<int>(windows), s.length, shape.vocab, SpecialIds{}, mask_rng);
}

void TrainingSession::start_from(const EncoderParams<float>& params) {
    const EncoderShape &a = params.shape, &b = params_.shape;
    if (a.vocab != b.vocab || a.d_model != b.d_model || a.heads != b.heads || a.d_ff != b.d_ff ||
        a.layers != b.layers || a.embedding != b.embedding)
        throw Error("invalid_model", "the model to start from has another shape than this run's");
    params_ = params;
    adam_ = adamw_state(params_);
}

StepReport TrainingSession::step() {
    const SessionSettings& s = settings_;
    if (steps_done_ >= s.steps) throw Error("invalid_argument", "every step of this run is done");
    const int step = ++steps_done_;
    StepReport report;
    report.step = step;
    report.lr = learning_rate(s.lr, step, s.steps, options_.warmup_share);
    // Sentences as a learner types them, or windows of the running text.
    const MlmBatch batch =
        draw_mixed_batch(pools_, data_.train, s.batch, s.length, params_.shape.vocab,
                         options_.special, rng_, options_.mix);
    EncoderParams<float> grads = zeros_like(params_);
    if (options_.measure) {
        ForwardCache<float> cache;
        report.loss = forward(params_, batch, cache);
        backward(params_, batch, cache, grads);
        report.scores =
            measure_scores(cache.encoder, batch.sequences, batch.length, params_.shape.heads);
        std::vector<Mat<float>> weights;
        double wq = 0, wk = 0;
        for (std::size_t l = 0; l < grads.layers.size(); ++l) {
            for (Mat<float>& w : cache.encoder.layers[l].weights) weights.push_back(std::move(w));
            wq += static_cast<double>(grads.layers[l].wq.squaredNorm());
            wk += static_cast<double>(grads.layers[l].wk.squaredNorm());
        }
        report.softmax = measure_softmax(weights);
        report.grad_wq = std::sqrt(wq);
        report.grad_wk = std::sqrt(wk);
    } else {
        report.loss = loss_and_gradients(params_, batch, grads, options_.threads);
    }
    adamw_step(params_, grads, adam_, AdamWConfig{}, report.lr);
    tokens_ += static_cast<std::int64_t>(batch.ids.size());
    report.tokens = tokens_;
    return report;
}

double TrainingSession::heldout_loss() const {
    ForwardCache<float> cache;
    return forward(params_, heldout_batch_, cache);
}

std::vector<std::uint8_t> TrainingSession::model_file() const {
    return save_model(params_, data_.vocabulary);
}

}  // namespace attention::train

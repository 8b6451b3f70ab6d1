#include "attention/encoder_trace.hpp"

#include <cmath>

#include "attention/error.hpp"
#include "attention/kernels.hpp"
#include "attention/stages.hpp"
#include "checkpoints.hpp"

namespace attention {

float EncoderTrace::divisor() const {
    return std::sqrt(static_cast<float>(trained->params.shape.d_k()));
}

namespace {

// Every head's weights, [layer][head].
std::vector<std::vector<const Mat<float>*>> head_weights(const EncoderCache<float>& cache) {
    std::vector<std::vector<const Mat<float>*>> weights;
    for (const auto& layer : cache.layers) {
        weights.emplace_back();
        for (const Mat<float>& w : layer.weights) weights.back().push_back(&w);
    }
    return weights;
}

// The model's packed layers when they are its only copy of the weights (an imported checkpoint's),
// else null: its plain layer matrices are empty.
const PackedEncoder* only_copy(const TrainedModel& model) {
    if constexpr (!kCheckpoints) return nullptr;
    return model.packed && model.packed->only_copy ? model.packed.get() : nullptr;
}

}  // namespace

ArticleHead EncoderTrace::article_head(std::int64_t row) const {
    std::vector<std::int32_t> ids;
    for (const Token& t : tokens) ids.push_back(t.id);
    return attention::article_head(head_weights(cache), ids, row);
}

TokenLink EncoderTrace::token_link(std::int64_t from, std::int64_t to) const {
    return attention::token_link(head_weights(cache), from, to);
}

Rollout EncoderTrace::rollout() const {
    std::vector<std::vector<bool>> silenced;
    for (int l = 0; l < layers(); ++l) {
        silenced.emplace_back();
        for (int h = 0; h < heads(); ++h) silenced.back().push_back(knocked_out(l, h));
    }
    return attention_rollout(head_weights(cache), silenced);
}

bool EncoderTrace::knocked_out(int layer, int head) const {
    for (const HeadId& k : knock_out) {
        if (k.layer == layer && k.head == head) return true;
    }
    return false;
}

Trace EncoderTrace::head(int layer, int head) const {
    const EncoderShape& s = trained->params.shape;
    check_head(s, layer, head);
    const LayerParams<float>& L = trained->params.layers[static_cast<std::size_t>(layer)];
    const LayerCache<float>& c = cache.layers[static_cast<std::size_t>(layer)];
    const Eigen::Index first = static_cast<Eigen::Index>(head) * s.d_k();
    const auto cols = Eigen::seqN(first, s.d_k());
    auto params = std::make_shared<HeadParams>();
    if (const PackedEncoder* packed = only_copy(*trained)) {  // the panels are the only copy
        const PackedEncoder::Layer& P = packed->layers[static_cast<std::size_t>(layer)];
        params->wq = kernels::unpack_columns(P.wq, first, s.d_k());
        params->wk = kernels::unpack_columns(P.wk, first, s.d_k());
        params->wv = kernels::unpack_columns(P.wv, first, s.d_k());
    } else {
        params->wq = L.wq(Eigen::all, cols), params->wk = L.wk(Eigen::all, cols),
        params->wv = L.wv(Eigen::all, cols);
    }
    params->bq = L.bq(Eigen::all, cols), params->bk = L.bk(Eigen::all, cols),
    params->bv = L.bv(Eigen::all, cols);

    Trace t;
    t.config = Config{s.d_model, s.d_k(), 0, kTrainedScale, kTrainedCausal, kTrainedPositional};
    t.tokens = tokens;
    t.embeddings = embeddings;
    t.positional = cache.positional;
    t.x = c.x;
    t.head = std::move(params);
    t.q = c.q(Eigen::all, cols), t.k = c.k(Eigen::all, cols), t.v = c.v(Eigen::all, cols);
    t.scores = c.scores.empty() ? kernels::times(t.q, t.k, true)  // Q·Kᵀ
                                : c.scores[static_cast<std::size_t>(head)];
    t.scaled = scale_scores(t.scores, s.d_k(), kTrainedScale);
    t.masked = t.scaled;
    t.weights = c.weights[static_cast<std::size_t>(head)];
    t.output = kernels::times(t.weights, t.v);
    return t;
}

Matrix EncoderTrace::layer_stage(std::string_view id, int layer) const {
    if (layer < 0 || layer >= layers()) {
        throw Error("invalid_argument",
                    "there is no layer " + std::to_string(layer) + ": the model has " +
                        std::to_string(layers()) + ", counted from 0",
                    {{"layer", std::to_string(layer)}, {"layers", std::to_string(layers())}});
    }
    const LayerParams<float>& L = trained->params.layers[static_cast<std::size_t>(layer)];
    const LayerCache<float>& c = cache.layers[static_cast<std::size_t>(layer)];
    const PackedEncoder* packed = only_copy(*trained);
    // x·W + b, W from the packed panels when they are the only copy.
    const auto affine = [&](const Matrix& x, const Matrix& w, const Matrix& b,
                            kernels::Panels PackedEncoder::Layer::*panels) {
        if constexpr (kCheckpoints) {
            if (packed) {
                Matrix out;
                kernels::multiply(
                    x, {{&(packed->layers[static_cast<std::size_t>(layer)].*panels), &b, &out}});
                return out;
            }
        }
        return kernels::times(x, w, false, &b);
    };
    if (id == "x") return c.x;
    if (id == "concat") return c.concat;
    if (id == "wo") {
        if constexpr (kCheckpoints) {
            if (packed) {
                const kernels::Panels& wo = packed->layers[static_cast<std::size_t>(layer)].wo;
                return kernels::unpack_columns(wo, 0, wo.n);
            }
        }
        return L.wo;
    }
    if (id == "bo") return L.bo;
    if (id == "projected") return affine(c.concat, L.wo, L.bo, &PackedEncoder::Layer::wo);
    if (id == "residual") return c.x + affine(c.concat, L.wo, L.bo, &PackedEncoder::Layer::wo);
    if (id == "norm") return c.norm;
    if (id == "ffHidden") return c.ff_hidden;
    if (id == "ffOutput") return affine(c.ff_hidden, L.w2, L.b2, &PackedEncoder::Layer::w2);
    if (id == "ffResidual")
        return c.norm + affine(c.ff_hidden, L.w2, L.b2, &PackedEncoder::Layer::w2);
    if (id == "layerOutput") return c.output;
    std::string valid;
    for (const auto name : kLayerStageNames)
        valid += (valid.empty() ? "" : ", ") + std::string(name);
    throw Error("unknown_stage",
                "unknown layer stage id \"" + std::string(id) + "\"; a layer's stage ids are " +
                    valid + ", and a head's are those of the single head",
                {{"id", std::string(id)}, {"ids", valid}});
}

EncoderTrace run_encoder(std::shared_ptr<const TrainedModel> model, std::string id,
                         std::string_view sentence, std::vector<HeadId> knock_out,
                         const RowOverride* override) {
    const EncoderParams<float>& p = model->params;
    EncoderTrace t;
    t.model = std::move(id);
    t.tokens = model->vocabulary.tokenize(sentence);
    std::vector<std::int32_t> ids;
    for (const Token& token : t.tokens) ids.push_back(token.id);
    const auto n = static_cast<Eigen::Index>(ids.size());
    t.embeddings = embedding_rows(p, model->packed.get(), ids);
    encode(p, ids, 1, static_cast<int>(n), t.cache, knock_out, Elementwise::vectorised,
           model->packed.get(), override);
    t.knock_out = std::move(knock_out);
    t.trained = std::move(model);
    return t;
}

}  // namespace attention

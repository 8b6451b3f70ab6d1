#include "attention/softmax_steps.hpp"

#include <cmath>
#include <string>

#include "attention/config.hpp"
#include "attention/error.hpp"
#include "attention/stages.hpp"

namespace attention {

namespace {

void check(bool ok, const std::string& message) {
    if (!ok) throw Error("invalid_argument", message);
}

}  // namespace

SoftmaxSteps softmax_steps(const std::vector<float>& scores, std::int64_t d_k) {
    check(!scores.empty(), "the row of scores is empty: give at least one score");
    check(scores.size() <= kMaxTokens,
          "the row has " + std::to_string(scores.size()) + " scores; the most is " +
              std::to_string(kMaxTokens));
    check(d_k >= 1 && d_k <= kMaxDModel, "d_k must be an integer from 1 to " +
                                             std::to_string(kMaxDModel) + ", got " +
                                             std::to_string(d_k));
    for (std::size_t j = 0; j < scores.size(); ++j) {
        check(std::isfinite(scores[j]),
              "score " + std::to_string(j + 1) + " is not a finite number");
    }

    const auto m = static_cast<Eigen::Index>(scores.size());
    const Matrix raw = Eigen::Map<const Matrix>(scores.data(), 1, m);
    const Matrix scaled = scale_scores(raw, static_cast<Eigen::Index>(d_k), true);
    const Matrix probs = softmax_rows(scaled);

    SoftmaxSteps steps;
    steps.scaled.assign(scaled.data(), scaled.data() + m);
    steps.probs.assign(probs.data(), probs.data() + m);
    for (const float s : steps.scaled) steps.exps.push_back(std::exp(s));
    for (const float e : steps.exps) steps.sum += e;

    const Eigen::VectorXf p = Eigen::Map<const Eigen::VectorXf>(steps.probs.data(), m);
    steps.jacobian = -p * p.transpose();
    steps.jacobian.diagonal() += p;
    steps.max_jacobian = steps.jacobian.cwiseAbs().maxCoeff();

    double entropy = 0;
    for (std::size_t j = 0; j < steps.probs.size(); ++j) {
        const float pj = steps.probs[j];
        if (pj > steps.max_prob) steps.max_prob = pj, steps.argmax = j;
        if (pj > 0) entropy -= static_cast<double>(pj) * std::log(static_cast<double>(pj));
    }
    steps.entropy = static_cast<float>(entropy);
    return steps;
}

}  // namespace attention

namespace attention {

std::vector<float> cross_entropy_gradient(const std::vector<float>& probs, std::size_t target) {
    if (target >= probs.size()) {
        throw Error("invalid_argument", "target " + std::to_string(target) +
                                            " is outside the row of " +
                                            std::to_string(probs.size()) + " probabilities");
    }
    std::vector<float> grad = probs;
    grad[target] -= 1.0f;
    return grad;
}

}  // namespace attention

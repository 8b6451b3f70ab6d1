#include "attention/symmetry.hpp"

#include "attention/error.hpp"

namespace attention {

QkSymmetry qk_symmetry(const Matrix& scores, const Matrix& weights) {
    if (scores.rows() != scores.cols() || weights.rows() != scores.rows() || weights.cols() != scores.cols()) {
        throw Error("invalid_argument", "a head's scores and weights must both be n × n");
    }
    QkSymmetry out;
    // Double-centred: a row's offset (softmax ignores it) and a key's offset for every query (its
    // popularity, as [SEP]'s) are taken out; what is left is how query i and key j go together.
    const Eigen::MatrixXd raw = scores.cast<double>();
    const Eigen::VectorXd rows = raw.rowwise().mean();
    const Eigen::RowVectorXd cols = raw.colwise().mean();
    const Eigen::MatrixXd s = (raw.colwise() - rows).rowwise() - cols + Eigen::MatrixXd::Constant(raw.rows(), raw.cols(), raw.mean());
    const double total = s.squaredNorm();
    if (total > 0) out.symmetric_share = (0.5 * (s + s.transpose())).squaredNorm() / total;
    if (weights.rows() > 0) out.self_share = weights.cast<double>().diagonal().mean();
    return out;
}

QkSymmetry qk_symmetry(const Trace& trace) { return qk_symmetry(trace.scores, trace.weights); }

}  // namespace attention

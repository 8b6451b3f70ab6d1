#include "attention/geometry.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <string>

#include "attention/error.hpp"
#include "attention/params.hpp"

namespace attention {

namespace {

std::vector<float> as_vector(const Eigen::VectorXd& v) {
    std::vector<float> out(static_cast<std::size_t>(v.size()));
    for (Eigen::Index i = 0; i < v.size(); ++i)
        out[static_cast<std::size_t>(i)] = static_cast<float>(v(i));
    return out;
}

}  // namespace

KeyPlane key_plane(const Matrix& q, const Matrix& k, std::int64_t row) {
    if (row < 0 || row >= q.rows()) {
        throw Error("invalid_argument", "the query must be a row of Q, from 0 to " +
                                            std::to_string(q.rows() - 1) + ", got " +
                                            std::to_string(row));
    }
    if (k.rows() == 0 || q.cols() != k.cols()) {
        throw Error("invalid_argument",
                    "queries and keys must have the same width, and keys there must be");
    }
    const Eigen::MatrixXd Q = q.cast<double>(), K = k.cast<double>();
    const Eigen::VectorXd query = Q.row(row).transpose();
    const double norm = query.norm();
    if (!(norm > 0))
        throw Error("invalid_argument", "the query is the zero vector: it has no direction");
    const Eigen::VectorXd u = query / norm;
    // The keys' spread off u: the top eigenvector of the covariance of their parts square to u.
    const Eigen::RowVectorXd mean = K.colwise().mean();
    const Eigen::MatrixXd centred = K.rowwise() - mean;
    const Eigen::MatrixXd off = centred - (centred * u) * u.transpose();
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(off.transpose() * off);
    const double top = eigen.eigenvalues()(eigen.eigenvalues().size() - 1);
    const double total = centred.squaredNorm();
    KeyPlane p;
    p.query_norm = static_cast<float>(norm);
    p.second_axis = top > 1e-12 * std::max(total, 1e-300) && top > 0;
    Eigen::VectorXd w = Eigen::VectorXd::Zero(u.size());
    if (p.second_axis) {
        w = eigen.eigenvectors().col(eigen.eigenvectors().cols() - 1);
        w -= w.dot(u) * u;  // square to u within rounding
        w.normalize();
        if (w.sum() < 0) w = -w;  // one sign for the same keys, whatever the solver returns
    }
    p.key_x = as_vector(K * u), p.key_y = as_vector(K * w);
    p.query_x = as_vector(Q * u), p.query_y = as_vector(Q * w);
    p.scores = as_vector(K * query);
    const double along = (centred * u).squaredNorm() + (centred * w).squaredNorm();
    p.kept = total > 0 ? static_cast<float>(along / total) : 0.0f;
    return p;
}

RandomKeys random_keys(std::int64_t d_k, std::int64_t count, std::int64_t seed) {
    if (d_k < 1 || d_k > 512 || count < 2 || count > 64 || seed < 0 || seed > 0xFFFFFFFFLL) {
        throw Error("invalid_argument",
                    "random keys need 1 ≤ d_k ≤ 512, 2 to 64 keys and a seed from 0 to 2^32 − 1");
    }
    const auto d = static_cast<Eigen::Index>(d_k), n = static_cast<Eigen::Index>(count);
    const auto s = static_cast<std::uint64_t>(seed);
    Matrix q(1, d), k(n, d);
    for (Eigen::Index t = 0; t < d; ++t)
        q(0, t) = seeded_normal(s, 1, static_cast<std::uint64_t>(t));
    for (Eigen::Index j = 0; j < n; ++j) {
        for (Eigen::Index t = 0; t < d; ++t)
            k(j, t) = seeded_normal(s, 2, static_cast<std::uint64_t>(j * d + t));
    }
    RandomKeys r;
    r.plane = key_plane(q, k, 0);
    r.query_norm = r.plane.query_norm;
    r.root_d_k = std::sqrt(static_cast<float>(d_k));
    double sum = 0, sum_scaled = 0;
    for (Eigen::Index j = 0; j < n; ++j) {
        r.key_norms.push_back(k.row(j).norm());
        const float score = r.plane.scores[static_cast<std::size_t>(j)];
        r.scores.push_back(score);
        r.scaled.push_back(score / r.root_d_k);
        sum += score, sum_scaled += score / r.root_d_k;
    }
    const double mean = sum / static_cast<double>(n),
                 mean_scaled = sum_scaled / static_cast<double>(n);
    double var = 0, var_scaled = 0;
    for (std::size_t j = 0; j < r.scores.size(); ++j) {
        var += (r.scores[j] - mean) * (r.scores[j] - mean);
        var_scaled += (r.scaled[j] - mean_scaled) * (r.scaled[j] - mean_scaled);
    }
    r.score_sd = static_cast<float>(std::sqrt(var / static_cast<double>(n)));
    r.scaled_sd = static_cast<float>(std::sqrt(var_scaled / static_cast<double>(n)));
    return r;
}

}  // namespace attention

#include "attention/geometry.hpp"

#include <cmath>
#include <string>

#include "attention/error.hpp"
#include "attention/params.hpp"

namespace attention {

namespace {

using Vec = std::vector<double>;

// Row i of m times v (m's width), in double.
double row_dot(const Matrix& m, Eigen::Index i, const Vec& v) {
    double s = 0;
    for (Eigen::Index j = 0; j < m.cols(); ++j)
        s += double(m(i, j)) * v[static_cast<std::size_t>(j)];
    return s;
}

double norm_of(const Vec& v) {
    double s = 0;
    for (const double x : v) s += x * x;
    return std::sqrt(s);
}

// Every row of m times v, as floats.
std::vector<float> along(const Matrix& m, const Vec& v) {
    std::vector<float> out(static_cast<std::size_t>(m.rows()));
    for (Eigen::Index i = 0; i < m.rows(); ++i)
        out[static_cast<std::size_t>(i)] = static_cast<float>(row_dot(m, i, v));
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
    // Plain loops in double: Eigen's double products and eigensolver would add their own
    // instantiations to this wasm module (and so to the offline file that carries it).
    const auto d = static_cast<std::size_t>(q.cols()), n = static_cast<std::size_t>(k.rows());
    Vec query(d), u(d), mean(d, 0.0);
    for (std::size_t j = 0; j < d; ++j)
        query[j] = q(static_cast<Eigen::Index>(row), static_cast<Eigen::Index>(j));
    const double norm = norm_of(query);
    if (!(norm > 0))
        throw Error("invalid_argument", "the query is the zero vector: it has no direction");
    for (std::size_t j = 0; j < d; ++j) u[j] = query[j] / norm;
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = 0; j < d; ++j)
            mean[j] += k(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) / double(n);
    }
    // Each key's part off the mean (centred), and of that its part square to u (off).
    std::vector<Vec> centred(n, Vec(d)), off(n, Vec(d));
    double total = 0, spread = 0;
    std::size_t far = 0;
    for (std::size_t i = 0; i < n; ++i) {
        double on_u = 0;
        for (std::size_t j = 0; j < d; ++j) {
            centred[i][j] = k(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) - mean[j];
            on_u += centred[i][j] * u[j];
        }
        for (std::size_t j = 0; j < d; ++j) off[i][j] = centred[i][j] - on_u * u[j];
        const double c = norm_of(centred[i]), o = norm_of(off[i]);
        total += c * c;
        if (o * o > spread) spread = o * o, far = i;
    }
    KeyPlane p;
    p.query_norm = static_cast<float>(norm);
    p.second_axis = spread > 1e-12 * total && spread > 0;
    // The keys' spread off u: the top eigenvector of Σ off_i off_iᵀ, by power iteration from the
    // part farthest from the mean; every iterate stays square to u, as the off parts are.
    Vec w(d, 0.0);
    if (p.second_axis) {
        const double start = norm_of(off[far]);
        for (std::size_t j = 0; j < d; ++j) w[j] = off[far][j] / start;
        for (int it = 0; it < 500; ++it) {
            Vec next(d, 0.0);
            for (const Vec& o : off) {
                double dot = 0;
                for (std::size_t j = 0; j < d; ++j) dot += o[j] * w[j];
                for (std::size_t j = 0; j < d; ++j) next[j] += dot * o[j];
            }
            double on_u = 0;
            for (std::size_t j = 0; j < d; ++j) on_u += next[j] * u[j];
            for (std::size_t j = 0; j < d; ++j) next[j] -= on_u * u[j];
            const double size = norm_of(next);
            double change = 0;
            for (std::size_t j = 0; j < d; ++j) {
                next[j] /= size;
                change += (next[j] - w[j]) * (next[j] - w[j]);
            }
            w = next;
            if (change < 1e-24) break;
        }
        double sum = 0;
        for (const double x : w) sum += x;
        if (sum < 0)
            for (double& x : w) x = -x;  // one sign for the same keys
    }
    p.key_x = along(k, u), p.key_y = along(k, w);
    p.query_x = along(q, u), p.query_y = along(q, w);
    p.scores = along(k, query);
    double kept = 0;
    for (const Vec& c : centred) {
        double x = 0, y = 0;
        for (std::size_t j = 0; j < d; ++j) x += c[j] * u[j], y += c[j] * w[j];
        kept += x * x + y * y;
    }
    p.kept = total > 0 ? static_cast<float>(kept / total) : 0.0f;
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

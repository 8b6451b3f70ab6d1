#include "attention/weights.hpp"

#include <cmath>

namespace attention {

namespace {

std::uint64_t splitmix64(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

// Uniform in (0, 1]: never 0, so log() below stays finite.
double unit_interval(std::uint64_t bits) {
    return (static_cast<double>(bits >> 11) + 1.0) * 0x1.0p-53;
}

// Stream ids: embeddings use the token id; matrices use tags above any id.
constexpr std::uint64_t kEmbeddingStream = 0;
constexpr std::uint64_t kHeadStream = 1ull << 40;
enum Tensor : std::uint64_t { kWq = 0, kWk, kWv, kBq, kBk, kBv, kTensorCount };

// The key of one (seed, stream): every entry of that stream hashes its index into it.
std::uint64_t stream_key(std::uint64_t seed, std::uint64_t stream) {
    return splitmix64(splitmix64(seed) ^ splitmix64(stream + 0x51ED27ull));
}

float normal_at(std::uint64_t key, std::uint64_t index) {
    const std::uint64_t k = key ^ index;
    const double u1 = unit_interval(splitmix64(k));
    const double u2 = unit_interval(splitmix64(k ^ 0xD1B54A32D192ED03ull));
    constexpr double kTwoPi = 6.283185307179586476925286766559;
    return static_cast<float>(std::sqrt(-2.0 * std::log(u1)) * std::cos(kTwoPi * u2));
}

// `cols` consecutive entries of one stream, from first_index on, scaled by stddev.
void fill_row(float* out, Eigen::Index cols, std::uint64_t key, std::uint64_t first_index, float stddev) {
    for (Eigen::Index j = 0; j < cols; ++j) out[j] = stddev * normal_at(key, first_index + static_cast<std::uint64_t>(j));
}

Matrix normal_matrix(std::uint64_t seed, std::uint64_t stream, Eigen::Index rows,
                     Eigen::Index cols, Eigen::Index stride, float stddev) {
    Matrix m(rows, cols);
    const std::uint64_t key = stream_key(seed, stream);
    for (Eigen::Index i = 0; i < rows; ++i) {
        fill_row(m.data() + i * cols, cols, key, static_cast<std::uint64_t>(i * stride), stddev);
    }
    return m;
}

}  // namespace

float seeded_normal(std::uint64_t seed, std::uint64_t stream, std::uint64_t index) {
    return normal_at(stream_key(seed, stream), index);
}

SeededWeights::SeededWeights(std::int64_t d_model, std::int64_t d_k, std::int64_t seed)
    : d_model_(static_cast<Eigen::Index>(d_model)),
      d_k_(static_cast<Eigen::Index>(d_k)),
      seed_(static_cast<std::uint64_t>(seed)) {}

Matrix SeededWeights::embeddings(const std::vector<std::int32_t>& ids) const {
    const float stddev = std::sqrt(0.5f);
    Matrix e(static_cast<Eigen::Index>(ids.size()), d_model_);
    for (std::size_t t = 0; t < ids.size(); ++t) {
        const auto stream = kEmbeddingStream + static_cast<std::uint64_t>(ids[t]);
        fill_row(e.data() + static_cast<Eigen::Index>(t) * d_model_, d_model_, stream_key(seed_, stream), 0, stddev);
    }
    return e;
}

HeadWeights SeededWeights::head(int index) const {
    // Rows are laid out with a fixed stride (the largest d_k) so that an
    // entry W(i, j) does not move when d_k changes.
    constexpr Eigen::Index kStride = 1024;
    const float w_std = 1.0f / std::sqrt(static_cast<float>(d_model_));
    const float b_std = 0.1f;
    const auto stream = [index](Tensor t) {
        return kHeadStream + static_cast<std::uint64_t>(index) * kTensorCount + t;
    };
    HeadWeights h;
    h.wq = normal_matrix(seed_, stream(kWq), d_model_, d_k_, kStride, w_std);
    h.wk = normal_matrix(seed_, stream(kWk), d_model_, d_k_, kStride, w_std);
    h.wv = normal_matrix(seed_, stream(kWv), d_model_, d_k_, kStride, w_std);
    h.bq = normal_matrix(seed_, stream(kBq), 1, d_k_, kStride, b_std);
    h.bk = normal_matrix(seed_, stream(kBk), 1, d_k_, kStride, b_std);
    h.bv = normal_matrix(seed_, stream(kBv), 1, d_k_, kStride, b_std);
    return h;
}

}  // namespace attention

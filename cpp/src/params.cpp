#include "attention/params.hpp"

#include <algorithm>
#include <cmath>

#include "quarter_turn.hpp"

namespace attention {

namespace {

std::uint64_t splitmix64(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

// Stream ids: embeddings use the token id; matrices use tags above any id.
constexpr std::uint64_t kEmbeddingStream = 0;
constexpr std::uint64_t kHeadStream = 1ull << 40;
enum Tensor : std::uint64_t { kWq = 0, kWk, kWv, kBq, kBk, kBv, kTensorCount };

// The key of one (seed, stream): every entry of that stream hashes its index into it.
std::uint64_t stream_key(std::uint64_t seed, std::uint64_t stream) {
    return splitmix64(splitmix64(seed) ^ splitmix64(stream + 0x51ED27ull));
}

// Box–Muller, one hash per PAIR of entries: entries 2m and 2m + 1 of a stream
// are r·cos θ and r·sin θ for the pair's own (u1, u2), which are the two
// 24-bit halves of splitmix64(key ^ m). u1 ∈ (0, 1] (never 0: the log stays
// finite; |z| ≤ √(2·ln 2²⁴) ≈ 5.8), u2 ∈ [0, 1).
//
// The float arithmetic below has no calls, branches or tables, so the compiler
// turns a block of pairs into SIMD code (f32x4 in wasm). The params are drawn
// when a model is first made, so on a page's first visit this runs in the
// browser's baseline wasm code, where the C library's double log and cos
// would be most of a first run's time. log and sincos are polynomials accurate to a few float ulps
// (tested against the C library's), ample for random params.
struct Uniforms {
    float u1, u2;
};
Uniforms pair_uniforms(std::uint64_t key, std::uint64_t pair) {
    const std::uint64_t h = splitmix64(key ^ pair);
    constexpr float kStep = 0x1.0p-24f;
    return {static_cast<float>((h >> 40) + 1) * kStep,
            static_cast<float>((h >> 8) & 0xFFFFFFu) * kStep};
}

// √(−2·ln u) for u ∈ (0, 1]: u = 2^e·m with m ∈ [√½, √2), ln m = 2·atanh(s),
// s = (m − 1)/(m + 1), |s| ≤ 0.172.
float box_muller_radius(float u) {
    const std::uint32_t shifted =
        detail::float_bits(u) + (0x3F800000u - 0x3F3504F3u);  // moves [√½, √2) onto one exponent
    const int e = static_cast<int>(shifted >> 23) - 127;
    const float m = detail::bits_float((shifted & 0x007FFFFFu) + 0x3F3504F3u);
    const float s = (m - 1.0f) / (m + 1.0f);
    const float z = s * s;
    const float atanh_s = s + s * z * (1.0f / 3 + z * (1.0f / 5 + z * (1.0f / 7 + z * (1.0f / 9))));
    const float ln_u = static_cast<float>(e) * 0.693147180559945309f + 2.0f * atanh_s;
    return std::sqrt(-2.0f * ln_u);
}

// cos and sin of 2π·u for u ∈ [0, 1): the quarter turn q nearest to 4u (exact
// in float), then the rest, x ∈ [−π/4, π/4].
void turn_cos_sin(float u, float& cos_out, float& sin_out) {
    const float t = 4.0f * u;
    const float q = std::floor(t + 0.5f);
    detail::quarter_cos_sin(static_cast<std::int32_t>(q), (t - q) * 1.57079632679489662f, cos_out,
                            sin_out);
}

detail::NormalPair pair_normals(float u1, float u2) {
    const float r = box_muller_radius(u1);
    float c, s;
    turn_cos_sin(u2, c, s);
    return {r * c, r * s};
}

float normal_at(std::uint64_t key, std::uint64_t index) {
    const Uniforms u = pair_uniforms(key, index >> 1);
    const detail::NormalPair z = pair_normals(u.u1, u.u2);
    return (index & 1u) ? z.sin_half : z.cos_half;
}

// `cols` consecutive entries of one stream, from first_index on, scaled by
// stddev: whole pairs in blocks (uniforms first, then the arithmetic, which
// vectorises), a lone entry at either end where a pair is cut.
void fill_row(float* out, Eigen::Index cols, std::uint64_t key, std::uint64_t first_index,
              float stddev) {
    Eigen::Index j = 0;
    if ((first_index & 1u) && cols > 0) out[j++] = stddev * normal_at(key, first_index);
    constexpr Eigen::Index kBlock = 64;
    float u1[kBlock], u2[kBlock], a[kBlock], b[kBlock];
    while (cols - j >= 2) {
        const Eigen::Index pairs = std::min(kBlock, (cols - j) / 2);
        const std::uint64_t first_pair = (first_index + static_cast<std::uint64_t>(j)) >> 1;
        for (Eigen::Index p = 0; p < pairs; ++p) {
            const Uniforms u = pair_uniforms(key, first_pair + static_cast<std::uint64_t>(p));
            u1[p] = u.u1;
            u2[p] = u.u2;
        }
        for (Eigen::Index p = 0; p < pairs; ++p) {
            const detail::NormalPair z = pair_normals(u1[p], u2[p]);
            a[p] = stddev * z.cos_half;  // as stddev * normal_at(…): the same bits either way
            b[p] = stddev * z.sin_half;
        }
        for (Eigen::Index p = 0; p < pairs; ++p) {
            out[j + 2 * p] = a[p];
            out[j + 2 * p + 1] = b[p];
        }
        j += 2 * pairs;
    }
    if (j < cols) out[j] = stddev * normal_at(key, first_index + static_cast<std::uint64_t>(j));
}

Matrix normal_matrix(std::uint64_t seed, std::uint64_t stream, Eigen::Index rows, Eigen::Index cols,
                     Eigen::Index stride, float stddev) {
    Matrix m(rows, cols);
    const std::uint64_t key = stream_key(seed, stream);
    for (Eigen::Index i = 0; i < rows; ++i) {
        fill_row(m.data() + i * cols, cols, key, static_cast<std::uint64_t>(i * stride), stddev);
    }
    return m;
}

}  // namespace

detail::NormalPair detail::box_muller(float u1, float u2) { return pair_normals(u1, u2); }

float seeded_normal(std::uint64_t seed, std::uint64_t stream, std::uint64_t index) {
    return normal_at(stream_key(seed, stream), index);
}

SeededParams::SeededParams(std::int64_t d_model, std::int64_t d_k, std::int64_t seed)
    : d_model_(static_cast<Eigen::Index>(d_model)),
      d_k_(static_cast<Eigen::Index>(d_k)),
      seed_(static_cast<std::uint64_t>(seed)) {}

Matrix SeededParams::embeddings(const std::vector<std::int32_t>& ids) const {
    const float stddev = std::sqrt(0.5f);
    Matrix e(static_cast<Eigen::Index>(ids.size()), d_model_);
    for (std::size_t t = 0; t < ids.size(); ++t) {
        const auto stream = kEmbeddingStream + static_cast<std::uint64_t>(ids[t]);
        fill_row(e.data() + static_cast<Eigen::Index>(t) * d_model_, d_model_,
                 stream_key(seed_, stream), 0, stddev);
    }
    return e;
}

HeadParams SeededParams::head(int index) const {
    // Rows are laid out with a fixed stride (the largest d_k) so that an
    // entry W(i, j) does not move when d_k changes.
    constexpr Eigen::Index kStride = 1024;
    const float w_std = 1.0f / std::sqrt(static_cast<float>(d_model_));
    const float b_std = 0.1f;
    const auto stream = [index](Tensor t) {
        return kHeadStream + static_cast<std::uint64_t>(index) * kTensorCount + t;
    };
    HeadParams h;
    h.wq = normal_matrix(seed_, stream(kWq), d_model_, d_k_, kStride, w_std);
    h.wk = normal_matrix(seed_, stream(kWk), d_model_, d_k_, kStride, w_std);
    h.wv = normal_matrix(seed_, stream(kWv), d_model_, d_k_, kStride, w_std);
    h.bq = normal_matrix(seed_, stream(kBq), 1, d_k_, kStride, b_std);
    h.bk = normal_matrix(seed_, stream(kBk), 1, d_k_, kStride, b_std);
    h.bv = normal_matrix(seed_, stream(kBv), 1, d_k_, kStride, b_std);
    return h;
}

}  // namespace attention

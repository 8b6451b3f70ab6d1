#include "attention/kernels.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "attention/stages.hpp"
#include "simd.hpp"

namespace attention::kernels {

namespace {

using simd::f32x4;
constexpr Eigen::Index kWidth = 8;  // columns per panel: two vectors

Eigen::Index panel_count(Eigen::Index n) { return (n + kWidth - 1) / kWidth; }

// R rows of a times one panel: R × 8 sums of k products, kept in 2R vector
// registers; each step loads 8 floats of the panel and broadcasts one float
// of each row. R ≤ 4 leaves registers to spare (x86 has 16), so nothing spills.
template <int R>
void block(const float* a, Eigen::Index lda, const float* panel, Eigen::Index k, float* c,
           Eigen::Index ldc, const float* bias, Eigen::Index cols) {
    f32x4 lo[static_cast<std::size_t>(R)], hi[static_cast<std::size_t>(R)];
    for (int r = 0; r < R; ++r) lo[r] = hi[r] = simd::splat(0.0f);
    for (Eigen::Index p = 0; p < k; ++p) {
        const f32x4 b0 = simd::load(panel + p * kWidth);
        const f32x4 b1 = simd::load(panel + p * kWidth + 4);
        for (int r = 0; r < R; ++r) {
            const f32x4 x = simd::load_splat(a + r * lda + p);
            lo[r] = simd::add(lo[r], simd::mul(x, b0));
            hi[r] = simd::add(hi[r], simd::mul(x, b1));
        }
    }
    if (cols == kWidth) {
        const f32x4 b0 = bias ? simd::load(bias) : simd::splat(0.0f);
        const f32x4 b1 = bias ? simd::load(bias + 4) : simd::splat(0.0f);
        for (int r = 0; r < R; ++r) {
            simd::store(c + r * ldc, simd::add(lo[r], b0));
            simd::store(c + r * ldc + 4, simd::add(hi[r], b1));
        }
        return;
    }
    float tile[kWidth];  // the last, partial panel
    for (int r = 0; r < R; ++r) {
        simd::store(tile, lo[r]);
        simd::store(tile + 4, hi[r]);
        for (Eigen::Index j = 0; j < cols; ++j) c[r * ldc + j] = tile[j] + (bias ? bias[j] : 0.0f);
    }
}

using BlockFn = void (*)(const float*, Eigen::Index, const float*, Eigen::Index, float*, Eigen::Index,
                         const float*, Eigen::Index);
constexpr BlockFn kBlocks[] = {nullptr, block<1>, block<2>, block<3>, block<4>};

// Row blocks of 4, with the remainder spread over blocks of 3 where possible
// (9 rows → 3 + 3 + 3, not 4 + 4 + 1): a block of one row wastes most of the
// kernel on loads.
std::vector<int> row_blocks(Eigen::Index rows) {
    const auto threes = static_cast<Eigen::Index>((4 - rows % 4) % 4);
    std::vector<int> sizes;
    if (rows >= 3 * threes) {
        for (Eigen::Index i = 0; i < (rows - 3 * threes) / 4; ++i) sizes.push_back(4);
        for (Eigen::Index i = 0; i < threes; ++i) sizes.push_back(3);
    } else {
        for (Eigen::Index i = 0; i < rows / 4; ++i) sizes.push_back(4);
        if (rows % 4) sizes.push_back(static_cast<int>(rows % 4));
    }
    return sizes;
}

}  // namespace

Panels pack(const Matrix& b) {
    Panels out;
    out.k = b.rows();
    out.n = b.cols();
    out.data.assign(static_cast<std::size_t>(panel_count(out.n) * out.k * kWidth), 0.0f);
    for (Eigen::Index r = 0; r < out.k; ++r) {
        for (Eigen::Index j = 0; j < out.n; ++j) {
            out.data[static_cast<std::size_t>(((j / kWidth) * out.k + r) * kWidth + j % kWidth)] = b(r, j);
        }
    }
    return out;
}

void pack_transposed(const Matrix& b, Panels& out) {
    out.k = b.cols();
    out.n = b.rows();
    out.data.assign(static_cast<std::size_t>(panel_count(out.n) * out.k * kWidth), 0.0f);
    for (Eigen::Index j = 0; j < out.n; ++j) {  // row j of b is column j of bᵀ
        float* column = out.data.data() + ((j / kWidth) * out.k * kWidth + j % kWidth);
        const float* row = b.data() + j * b.cols();
        for (Eigen::Index r = 0; r < out.k; ++r) column[r * kWidth] = row[r];
    }
}

void multiply(const Matrix& a, const std::vector<Product>& products) {
    for (const Product& p : products) {
        eigen_assert(p.b->k == a.cols());
        p.c->resize(a.rows(), p.b->n);
    }
    Eigen::Index row = 0;
    for (const int size : row_blocks(a.rows())) {
        const float* a_rows = a.data() + row * a.cols();
        for (const Product& p : products) {
            const Eigen::Index n = p.b->n;
            float* c_rows = p.c->data() + row * n;
            for (Eigen::Index panel = 0; panel < panel_count(n); ++panel) {
                const Eigen::Index first = panel * kWidth;
                kBlocks[size](a_rows, a.cols(), p.b->data.data() + panel * p.b->k * kWidth, p.b->k,
                              c_rows + first, n, p.bias ? p.bias->data() + first : nullptr,
                              std::min(kWidth, n - first));
            }
        }
        row += size;
    }
}

void scale_mask_softmax(const Matrix& scores, Eigen::Index d_k, bool scale, bool causal,
                        Matrix& scaled, Matrix& masked, Matrix& weights) {
    constexpr float kInf = std::numeric_limits<float>::infinity();
    const Eigen::Index n = scores.rows(), m = scores.cols();
    scaled.resize(n, m);
    masked.resize(n, m);
    weights.resize(n, m);
    const float divisor = std::sqrt(static_cast<float>(d_k));
    const f32x4 divide_by = simd::splat(divisor), zero = simd::splat(0.0f);
    for (Eigen::Index i = 0; i < n; ++i) {
        const float* s = scores.data() + i * m;
        float* sc = scaled.data() + i * m;
        float* ms = masked.data() + i * m;
        float* w = weights.data() + i * m;
        // scaled (the same IEEE division as scale_scores, four at a time); v·0
        // summed to `probe` turns NaN if any entry is NaN or infinite.
        f32x4 probe = zero;
        Eigen::Index j = 0;
        for (; j + 4 <= m; j += 4) {
            const f32x4 v = scale ? simd::div(simd::load(s + j), divide_by) : simd::load(s + j);
            simd::store(sc + j, v);
            probe = simd::add(probe, simd::mul(v, zero));
        }
        float probe_tail = 0.0f;
        for (; j < m; ++j) {
            sc[j] = scale ? s[j] / divisor : s[j];
            probe_tail += sc[j] * 0.0f;
        }
        // masked: keys after the query hidden when causal; its visible maximum.
        const Eigen::Index visible = causal ? std::min(i + 1, m) : m;
        f32x4 top = simd::splat(-kInf);
        for (j = 0; j + 4 <= visible; j += 4) {
            const f32x4 v = simd::load(sc + j);
            simd::store(ms + j, v);
            top = simd::max(top, v);
        }
        float max = std::max(std::max(simd::lane(top, 0), simd::lane(top, 1)),
                             std::max(simd::lane(top, 2), simd::lane(top, 3)));
        for (; j < visible; ++j) {
            ms[j] = sc[j];
            max = std::max(max, ms[j]);
        }
        std::fill(ms + visible, ms + m, -kInf);
        if (!(simd::sum(probe) + probe_tail == 0.0f) || !std::isfinite(max)) {
            weights.row(i) = softmax_rows(masked.row(i));  // rare: NaN or ±∞ in the row
            continue;
        }
        // weights: e^(masked − max) over the visible keys, 0 for the hidden.
        const f32x4 shift = simd::splat(max);
        f32x4 total = zero;
        for (j = 0; j + 4 <= visible; j += 4) {
            const f32x4 e = simd::exp(simd::sub(simd::load(ms + j), shift));
            simd::store(w + j, e);
            total = simd::add(total, e);
        }
        if (j < visible) {  // the last 1–3 visible entries, padded with −∞ (weight 0)
            float tail[4] = {-kInf, -kInf, -kInf, -kInf};
            std::copy(ms + j, ms + visible, tail);
            const f32x4 e = simd::exp(simd::sub(simd::load(tail), shift));
            simd::store(tail, e);
            std::copy(tail, tail + (visible - j), w + j);
            total = simd::add(total, e);
        }
        std::fill(w + visible, w + m, 0.0f);
        const float sum = simd::sum(total);  // ≥ 1: the maximum contributes e^0
        const f32x4 divide = simd::splat(sum);
        for (j = 0; j + 4 <= visible; j += 4) simd::store(w + j, simd::div(simd::load(w + j), divide));
        for (; j < visible; ++j) w[j] /= sum;
    }
}

}  // namespace attention::kernels

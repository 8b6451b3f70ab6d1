#include "attention/kernels.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "attention/ops.hpp"
#include "attention/stages.hpp"
#include "checkpoints.hpp"
#include "simd.hpp"

namespace attention::kernels {

namespace {

using simd::f32x4;
constexpr Eigen::Index kWidth = 8;  // columns per panel: two vectors

Eigen::Index panel_count(Eigen::Index n) { return (n + kWidth - 1) / kWidth; }

// R rows of a times one panel: R × 8 sums of k products, kept in 2R vector
// registers; each step loads 8 floats of the panel and broadcasts one float
// of each row. R ≤ 5 leaves registers to spare (x86 has 16), so nothing spills.
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

using BlockFn = void (*)(const float*, Eigen::Index, const float*, Eigen::Index, float*,
                         Eigen::Index, const float*, Eigen::Index);
// Blocks of 5 rows only where checkpoints run (checkpoints.hpp): the page's first wasm is
// smaller without them, and its model is small enough for blocks of 3.
constexpr BlockFn kBlocks[] = {nullptr,  block<1>, block<2>,
                               block<3>, block<4>, kCheckpoints ? block<5> : nullptr};

// Row blocks of 4, the remainder in one block of 5 (3 + 3 + 3 without blocks of 5), 3 or 2
// (9 rows → 5 + 4, 6 → 3 + 3, not 4 + 4 + 1 or 4 + 2): a block of one row wastes most of the
// kernel on loads, and each block passes over the whole of b, so fewer, fuller blocks are faster.
std::vector<int> row_blocks(Eigen::Index rows) {
    std::vector<int> sizes;
    const Eigen::Index rest = rows % 4;
    if (rows < 4 || (rest == 1 && rows < 9 && !kCheckpoints)) {  // 1–3 rows; 5 as 4 + 1
        for (Eigen::Index i = 0; i < rows / 4; ++i) sizes.push_back(4);
        if (rest > 0) sizes.push_back(static_cast<int>(rest));
        return sizes;
    }
    const Eigen::Index fours_replaced = rest == 2 ? 1 : rest == 1 ? (kCheckpoints ? 1 : 2) : 0;
    for (Eigen::Index i = 0; i < rows / 4 - fours_replaced; ++i) sizes.push_back(4);
    if (rest == 1 && kCheckpoints) sizes.push_back(5);
    if (rest == 1 && !kCheckpoints) sizes.insert(sizes.end(), {3, 3, 3});
    if (rest == 2) sizes.insert(sizes.end(), {3, 3});
    if (rest == 3) sizes.push_back(3);
    return sizes;
}

}  // namespace

Panels pack(const Matrix& b) {
    Panels out;
    out.k = b.rows();
    out.n = b.cols();
    out.data.resize(static_cast<std::size_t>(panel_count(out.n) * out.k * kWidth));
    float* to = out.data.data();
    const float* from = b.data();
    Eigen::Index first = 0;
    for (; first + kWidth <= out.n; first += kWidth) {  // one panel: 8 columns of every row
        for (Eigen::Index r = 0; r < out.k; ++r, to += kWidth) {
            simd::store(to, simd::load(from + r * out.n + first));
            simd::store(to + 4, simd::load(from + r * out.n + first + 4));
        }
    }
    if (first < out.n) {  // the last, partial panel: zeros past n
        const Eigen::Index used = out.n - first;
        for (Eigen::Index r = 0; r < out.k; ++r, to += kWidth) {
            std::copy_n(from + r * out.n + first, used, to);
            std::fill(to + used, to + kWidth, 0.0f);
        }
    }
    return out;
}

void pack_transposed(const Matrix& b, Panels& out) {
    out.k = b.cols();
    out.n = b.rows();
    out.data.resize(static_cast<std::size_t>(panel_count(out.n) * out.k * kWidth));
    if (const Eigen::Index used = out.n % kWidth; used != 0) {  // the last panel: zeros past n
        float* last = out.data.data() + (out.n / kWidth) * out.k * kWidth;
        for (Eigen::Index r = 0; r < out.k; ++r)
            std::fill(last + r * kWidth + used, last + (r + 1) * kWidth, 0.0f);
    }
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
    const std::vector<int> blocks = row_blocks(a.rows());
    // Panels outside, rows inside: each panel (k × 8 floats) is read from memory once and stays in
    // the cache while every block of rows passes over it; the rows of a are the smaller part.
    for (const Product& p : products) {
        const Eigen::Index n = p.b->n;
        for (Eigen::Index panel = 0; panel < panel_count(n); ++panel) {
            const Eigen::Index first = panel * kWidth;
            const float* panel_data = p.b->data.data() + panel * p.b->k * kWidth;
            const float* bias = p.bias ? p.bias->data() + first : nullptr;
            Eigen::Index row = 0;
            for (const int size : blocks) {
                kBlocks[size](a.data() + row * a.cols(), a.cols(), panel_data, p.b->k,
                              p.c->data() + row * n + first, n, bias, std::min(kWidth, n - first));
                row += size;
            }
        }
    }
}

Matrix times(const Matrix& a, const Matrix& b, bool transposed, const Matrix* bias) {
    Panels panels;
    if (transposed) {
        pack_transposed(b, panels);
    } else {
        panels = pack(b);
    }
    Matrix c;
    multiply(a, {{&panels, bias, &c}});
    return c;
}

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kLowestExponent = simd::kLowestExponent;

// The three ways to make `scaled` from a score, each on four lanes and on one.
struct Divide {  // by √d_k, the IEEE division of scale_scores
    f32x4 lanes;
    float one;
    f32x4 operator()(f32x4 v) const { return simd::div(v, lanes); }
    float operator()(float v) const { return v / one; }
};
struct Multiply {  // by 2⁻ᵏ when √d_k = 2ᵏ: rounds exactly like the division, at a fraction of its
                   // cost
    f32x4 lanes;
    float one;
    f32x4 operator()(f32x4 v) const { return simd::mul(v, lanes); }
    float operator()(float v) const { return v * one; }
};
struct Keep {  // scaling switched off
    f32x4 operator()(f32x4 v) const { return v; }
    float operator()(float v) const { return v; }
};

// One pass over a row: scaled for every key, masked (= scaled for the first
// `visible` keys, −∞ after them) and the visible maximum. Returns false when
// the row holds NaN or ±∞ (v·0 summed into `probe` turns NaN then) or has no
// finite maximum: softmax_rows' own rules apply to such rows.
template <class Scale>
bool scale_and_mask(const Scale& scale, const float* s, float* sc, float* ms, Eigen::Index m,
                    Eigen::Index visible, float& max) {
    const f32x4 zero = simd::splat(0.0f), hidden = simd::splat(-kInf);
    f32x4 probe = zero, top = hidden;
    Eigen::Index j = 0;
    for (; j + 4 <= visible; j += 4) {
        const f32x4 v = scale(simd::load(s + j));
        simd::store(sc + j, v);
        simd::store(ms + j, v);
        probe = simd::add(probe, simd::mul(v, zero));
        top = simd::max(top, v);
    }
    max = std::max(std::max(simd::lane(top, 0), simd::lane(top, 1)),
                   std::max(simd::lane(top, 2), simd::lane(top, 3)));
    float probe_tail = 0.0f;
    for (; j < visible; ++j) {
        sc[j] = ms[j] = scale(s[j]);
        max = std::max(max, ms[j]);
        probe_tail += sc[j] * 0.0f;
    }
    for (; j + 4 <= m; j += 4) {
        const f32x4 v = scale(simd::load(s + j));
        simd::store(sc + j, v);
        simd::store(ms + j, hidden);
        probe = simd::add(probe, simd::mul(v, zero));
    }
    for (; j < m; ++j) {
        sc[j] = scale(s[j]);
        ms[j] = -kInf;
        probe_tail += sc[j] * 0.0f;
    }
    return simd::sum(probe) + probe_tail == 0.0f && std::isfinite(max);
}

// weights = e^(masked − max), normalised. Hidden keys hold −∞ in masked, so
// the vector loop runs over whole rows and gives them exactly 0; the last
// m mod 4 entries (never a full vector) take the scalar e^x.
void softmax_row(const float* ms, float* w, Eigen::Index m, float max) {
    const f32x4 shift = simd::splat(max);
    f32x4 total = simd::splat(0.0f);
    Eigen::Index j = 0;
    for (; j + 4 <= m; j += 4) {
        const f32x4 e = simd::exp_nonpositive(simd::sub(simd::load(ms + j), shift));
        simd::store(w + j, e);
        total = simd::add(total, e);
    }
    float sum = simd::sum(total);
    for (; j < m; ++j) {  // 0 below ln(FLT_MIN) and for hidden keys, as in the vector loop
        const float x = ms[j] - max;
        w[j] = x < kLowestExponent ? 0.0f : std::exp(x);
        sum += w[j];
    }
    // sum ≥ 1 (the maximum contributes e^0), so 1 / sum is a normal float; a
    // multiply by it is within 1.5 units in the last place of the division and
    // costs a fraction of it.
    const float reciprocal = 1.0f / sum;
    const f32x4 times = simd::splat(reciprocal);
    for (j = 0; j + 4 <= m; j += 4) simd::store(w + j, simd::mul(simd::load(w + j), times));
    for (; j < m; ++j) w[j] *= reciprocal;
}

template <class Scale>
void scale_mask_softmax_rows(const Scale& scale, const Matrix& scores, bool causal, Matrix& scaled,
                             Matrix& masked, Matrix& weights) {
    const Eigen::Index n = scores.rows(), m = scores.cols();
    for (Eigen::Index i = 0; i < n; ++i) {
        const Eigen::Index visible = causal ? std::min(i + 1, m) : m;
        float max = 0.0f;
        if (scale_and_mask(scale, scores.data() + i * m, scaled.data() + i * m,
                           masked.data() + i * m, m, visible, max)) {
            softmax_row(masked.data() + i * m, weights.data() + i * m, m, max);
        } else {
            weights.row(i) = softmax_rows(masked.row(i));  // rare: NaN or ±∞ in the row
        }
    }
}

}  // namespace

void scale_mask_softmax(const Matrix& scores, Eigen::Index d_k, bool scale, bool causal,
                        Matrix& scaled, Matrix& masked, Matrix& weights) {
    scaled.resize(scores.rows(), scores.cols());
    masked.resize(scores.rows(), scores.cols());
    weights.resize(scores.rows(), scores.cols());
    const float divisor = std::sqrt(static_cast<float>(d_k));
    int exponent = 0;
    if (!scale) {
        scale_mask_softmax_rows(Keep{}, scores, causal, scaled, masked, weights);
    } else if (std::frexp(divisor, &exponent) == 0.5f) {  // √d_k = 2ᵏ (d_k = 1, 4, 16, 64, 256…)
        const float reciprocal = 1.0f / divisor;
        scale_mask_softmax_rows(Multiply{simd::splat(reciprocal), reciprocal}, scores, causal,
                                scaled, masked, weights);
    } else {
        scale_mask_softmax_rows(Divide{simd::splat(divisor), divisor}, scores, causal, scaled,
                                masked, weights);
    }
}

namespace {

// f (a function of 4 lanes) applied to every entry of m, in place; the last entries in lane 0.
template <class F>
void each_in_place(Matrix& m, F f) {
    float* d = m.data();
    const Eigen::Index size = m.size();
    Eigen::Index j = 0;
    for (; j + 4 <= size; j += 4) simd::store(d + j, f(simd::load(d + j)));
    for (; j < size; ++j) {
        float lanes[4] = {d[j], 0, 0, 0};
        simd::store(lanes, f(simd::load(lanes)));
        d[j] = lanes[0];
    }
}

}  // namespace

void gelu_in_place(Matrix& m) {
    const auto gelu = [](f32x4 x) {
        const f32x4 u =
            simd::mul(simd::splat(static_cast<float>(ops::kGeluC)),
                      simd::add(x, simd::mul(simd::splat(static_cast<float>(ops::kGeluA)),
                                             simd::mul(x, simd::mul(x, x)))));
        const f32x4 a = simd::max(u, simd::sub(simd::splat(0.0f), u));  // |u|
        const f32x4 e =
            simd::exp_nonpositive(simd::mul(simd::splat(-2.0f), a));  // e^(−2|u|) ∈ (0, 1]
        const f32x4 t = simd::div(simd::sub(simd::splat(1.0f), e),
                                  simd::add(simd::splat(1.0f), e));  // tanh |u|
        const f32x4 tanh_u =
            simd::select_lt(u, simd::splat(0.0f), simd::sub(simd::splat(0.0f), t), t);
        return simd::mul(simd::mul(simd::splat(0.5f), x), simd::add(simd::splat(1.0f), tanh_u));
    };
    each_in_place(m, gelu);
}

void gelu_erf_in_place(Matrix& m) {
    // Eigen's generic_fast_erf_float: erf(x) = x·P(x²) / Q(x²) on [−4, 4], ±1 in float beyond.
    const auto erf = [](f32x4 z) {
        const f32x4 x = simd::max(simd::min(z, simd::splat(4.0f)), simd::splat(-4.0f));
        const f32x4 x2 = simd::mul(x, x);
        const auto madd = [](f32x4 a, f32x4 b, float c) {
            return simd::add(simd::mul(a, b), simd::splat(c));
        };
        f32x4 p = madd(x2, simd::splat(-2.72614225801306e-10f), 2.77068142495902e-08f);
        p = madd(x2, p, -2.10102402082508e-06f);
        p = madd(x2, p, -5.69250639462346e-05f);
        p = madd(x2, p, -7.34990630326855e-04f);
        p = madd(x2, p, -2.95459980854025e-03f);
        p = madd(x2, p, -1.60960333262415e-02f);
        p = simd::mul(x, p);
        f32x4 q = madd(x2, simd::splat(-1.45660718464996e-05f), -2.13374055278905e-04f);
        q = madd(x2, q, -1.68282697438203e-03f);
        q = madd(x2, q, -7.37332916720468e-03f);
        q = madd(x2, q, -1.42647390514189e-02f);
        return simd::div(p, q);
    };
    const auto gelu = [&](f32x4 x) {
        const f32x4 e = erf(simd::mul(x, simd::splat(static_cast<float>(ops::kInvSqrt2))));
        return simd::mul(simd::mul(simd::splat(0.5f), x), simd::add(simd::splat(1.0f), e));
    };
    each_in_place(m, gelu);
}

Matrix times_rows(const Matrix& a, const Matrix& b, const Matrix* bias) {
    eigen_assert(a.cols() == b.cols());
    const Eigen::Index k = a.cols(), rows = a.rows();
    Matrix c(rows, b.rows());
    for (Eigen::Index j = 0; j < b.rows(); ++j) {
        const float* bj = b.data() + j * k;
        for (Eigen::Index i = 0; i < rows; ++i) {
            const float* ai = a.data() + i * k;
            f32x4 s0 = simd::splat(0.0f), s1 = s0;
            Eigen::Index p = 0;
            for (; p + 8 <= k; p += 8) {
                s0 = simd::add(s0, simd::mul(simd::load(ai + p), simd::load(bj + p)));
                s1 = simd::add(s1, simd::mul(simd::load(ai + p + 4), simd::load(bj + p + 4)));
            }
            float sum = simd::sum(simd::add(s0, s1));
            for (; p < k; ++p) sum += ai[p] * bj[p];
            c(i, j) = sum + (bias ? (*bias)(0, j) : 0.0f);
        }
    }
    return c;
}

Matrix unpack_columns(const Panels& p, Eigen::Index first, Eigen::Index count) {
    eigen_assert(first >= 0 && count >= 0 && first + count <= p.n);
    Matrix out(p.k, count);
    for (Eigen::Index r = 0; r < p.k; ++r) {
        for (Eigen::Index c = 0; c < count; ++c) {
            const Eigen::Index col = first + c;
            out(r, c) = p.data[static_cast<std::size_t>(((col / kWidth) * p.k + r) * kWidth +
                                                        col % kWidth)];
        }
    }
    return out;
}

}  // namespace attention::kernels

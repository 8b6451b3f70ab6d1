// The fast path of a run: packed, register-blocked matrix products and a fused
// scale → mask → softmax pass, written on 4-lane float vectors (wasm SIMD in
// the browser). The plain Eigen stage functions (stages.hpp) stay as the
// reference: the tests hold these kernels to them within float32 rounding.
#pragma once

#include <new>
#include <utility>
#include <vector>

#include "attention/matrix.hpp"

namespace attention::kernels {

// A vector allocator whose resize() leaves new floats unset: pack() writes
// every one, so zeroing the ≈ 600 KB of parameter panels first would be
// wasted work in a page's first run.
template <class T>
struct UninitialisedAllocator : std::allocator<T> {
    template <class U>
    struct rebind {
        using other = UninitialisedAllocator<U>;
    };
    UninitialisedAllocator() = default;
    template <class U>
    UninitialisedAllocator(const UninitialisedAllocator<U>&) noexcept {}
    template <class U, class... Args>
    void construct(U* p, Args&&... args) {
        if constexpr (sizeof...(Args) == 0) {
            ::new (static_cast<void*>(p)) U;  // default-initialised: no value for a float
        } else {
            ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
        }
    }
};

// The right-hand factor B (k × n) of products A·B, laid out once for the
// micro-kernel: ⌈n / 8⌉ panels, each k rows of 8 consecutive columns
// (zero-padded past n), so one step of the kernel reads 8 floats in a row.
struct Panels {
    Eigen::Index k = 0;
    Eigen::Index n = 0;
    std::vector<float, UninitialisedAllocator<float>>
        data;  // panel p, row r, column c: data[(p·k + r)·8 + c]
};

// B as panels.
Panels pack(const Matrix& b);
// Bᵀ as panels, for A·Bᵀ (Q·Kᵀ packs K's rows as columns).
void pack_transposed(const Matrix& b, Panels& out);

// One product of a shared left factor: c = a·b (+ bias, a 1 × n row, when not
// null). c is resized to a.rows() × b.n.
struct Product {
    const Panels* b;
    const Matrix* bias;
    Matrix* c;
};

// Every product a·b_t (+ bias_t) of the list, one after the other: one
// product's panels (768 × 64 floats of W: 192 KiB) stay in the core's L2
// cache while every block of a's rows passes them, where Q, K and V's panels
// together (576 KiB) would not in a cache shared with another thread.
void multiply(const Matrix& a, const std::vector<Product>& products);

// One product on the kernels, b packed for the call: a·b, or a·bᵀ when
// transposed, plus bias (1 × columns) on every row when given.
Matrix times(const Matrix& a, const Matrix& b, bool transposed = false,
             const Matrix* bias = nullptr);

// Row-wise, in one pass per row, everything from scores to the weights:
//   scaled  = scores / √d_k (or scores when scale is off)
//   masked  = scaled with −∞ above the diagonal when causal
//   weights = the stable softmax of each masked row
// Same results as scale_scores → causal_mask → softmax_rows up to float32
// rounding; rows without a finite maximum take softmax_rows' own rule.
void scale_mask_softmax(const Matrix& scores, Eigen::Index d_k, bool scale, bool causal,
                        Matrix& scaled, Matrix& masked, Matrix& weights);

// GELU of every entry, in place, BERT's tanh form 0.5·x·(1 + tanh(c·(x + 0.044715·x³))),
// c = √(2/π), with tanh(u) = sign(u)·(1 − e^(−2|u|)) / (1 + e^(−2|u|)) on the
// vector e^x of the softmax: within 2e-7·max(1, |x|) of std::tanh's (tested).
void gelu_in_place(Matrix& m);

// GELU of every entry, in place, the erf form 0.5·x·(1 + erf(x/√2)) (Hugging Face's "gelu"),
// with erf as the rational function Eigen's float erf uses, clamped to [−4, 4]: within 1e-6 ·
// max(1, |x|) of std::erf's form (tested).
void gelu_erf_in_place(Matrix& m);

// c = a·bᵀ (+ bias on every row), streaming b's rows once, unpacked: for a few rows of a against
// a wide b (the decoder's rows against every token embedding), where packing bᵀ would copy all of
// b. Each entry is a dot product of two rows, summed on four lanes.
Matrix times_rows(const Matrix& a, const Matrix& b, const Matrix* bias = nullptr);

// Columns first … first + count − 1 of the matrix packed as p (k × count).
Matrix unpack_columns(const Panels& p, Eigen::Index first, Eigen::Index count);

}  // namespace attention::kernels

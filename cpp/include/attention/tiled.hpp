// softmax(QKᵀ/√d_k)·V the way large models compute it since FlashAttention
// (Dao et al., 2022): a query's keys in blocks of B, never the whole row of
// weights at once. It is the article's stable softmax carried one step further
// (the "online softmax" of Milakov & Gimelshein, 2018): a running maximum m, a
// running sum ℓ of e^(s − m) and an accumulator of e^(s − m)·v; when a block
// brings a larger maximum, ℓ and the accumulator are multiplied by
// e^(m_old − m_new) before the block's own terms are added. After the last
// block, accumulator ÷ ℓ is the output row, equal to the full computation up to
// float32 rounding. Every intermediate is kept for the page to show.
#pragma once

#include <cstdint>
#include <vector>

#include "attention/matrix.hpp"
#include "attention/trace.hpp"

namespace attention {

// One block of keys, [begin, end), for one query row.
struct TileBlock {
    std::int64_t begin = 0, end = 0;
    std::vector<float> scores;            // the block's scaled scores (−∞ where masked)
    float block_max = 0;                  // their maximum (−∞ when all are masked)
    float max_before = 0, max_after = 0;  // the running maximum m before and after the block
    float rescale = 1;  // e^(m_before − m_after): 0 when m_before was −∞, 1 while
                        // every key so far is masked (nothing to rescale)
    // Why the rescale is what it is, when that needs saying: "none" (every key so far is masked:
    // 1, nothing to rescale), "first" (0: nothing was kept before the first block), "same" (1:
    // the maximum did not change), or "" (the maximum grew: e^(m_before − m_after) below 1).
    const char* rescale_why = "";
    std::vector<float> exps;              // e^(s − m_after) for the block's keys (0 where masked)
    float exp_sum = 0;                    // Σ exps: what the block adds to ℓ
    float sum_before = 0, sum_after = 0;  // ℓ: ℓ_after = ℓ_before · rescale + exp_sum
    std::vector<float> acc_before,
        acc_after;  // d_k: acc_after = acc_before · rescale + Σ exps_j · v_j
};

// A query row computed block by block, and the same row computed whole.
struct TiledRow {
    std::int64_t row = 0, block = 0;
    std::vector<TileBlock> blocks;
    std::vector<float> output;      // d_k: the last acc_after ÷ sum_after
    std::vector<float> full;        // d_k: the row as the full computation gives it
    float max_difference = 0;       // max_j |output_j − full_j|
    float relative_difference = 0;  // max_difference ÷ max_j |full_j| (0 when full is all 0)
    // "rounding" when relative_difference is at most kRounding (float32 rounding, no more), else
    // "differs".
    const char* agreement = "rounding";
    std::int64_t held_whole = 0;  // m × m: the weights the whole computation holds for m queries
    std::int64_t held_tiled = 0;  // m × B: a block of weights for every query at once
};

// Two float32 computations of the same row "agree to rounding" within this relative difference.
inline constexpr float kRounding = 1e-6f;

// Every row block by block: what the whole matrix comes to, and the memory each way.
struct TiledAttention {
    std::int64_t block = 0;
    Matrix output;                  // n × d_k
    float max_difference = 0;       // over every entry, against the full computation
    float relative_difference = 0;  // ÷ the largest |entry| of the full output
    std::int64_t full_scores = 0;   // n × n: the weights the full computation holds at once
    std::int64_t tiled_scores = 0;  // n × B: a block of weights for every query at once
};

// scores: a row of scaled (and masked) scores, m long; v: m × d_k; full: the row the full
// computation gives (d_k). Throws attention::Error ("invalid_argument") when the sizes do not
// agree or block is not 1 … m.
TiledRow tiled_row(const std::vector<float>& scores, const Matrix& v, std::int64_t block,
                   std::vector<float> full);

// Row i of a head's masked scores (n × n) and V (n × d_k), against row i of its output (n × d_k).
// Throws attention::Error ("invalid_argument") for a row outside them, a block not 1 … n, or sizes
// that do not agree.
TiledRow tiled_row(const Matrix& masked, const Matrix& v, const Matrix& output, std::int64_t i,
                   std::int64_t block);

// Every row block by block, against the output.
TiledAttention tiled_attention(const Matrix& masked, const Matrix& v, const Matrix& output,
                               std::int64_t block);

// The same of a trace (its masked, v and output stages).
TiledRow tiled_row(const Trace& trace, std::int64_t i, std::int64_t block);
TiledAttention tiled_attention(const Trace& trace, std::int64_t block);

}  // namespace attention

// Attention between words, not tokens: a reader of Chinese thinks in words (喜欢,
// 人工智能) where the model sees characters. Clark, Khandelwal, Levy & Manning
// ("What Does BERT Look At?", 2019) give the rule: a word's attention *to* is the
// sum over its tokens (the weight its pieces get, together), a word's attention
// *from* is the mean over its tokens (each piece's row counts alike), so every
// row still adds up to 1.
#pragma once

#include <cstdint>
#include <vector>

#include "attention/matrix.hpp"

namespace attention {

// A word: tokens from … to, both included.
struct WordSpan {
    std::int64_t from = 0, to = 0;
};

// The groups of n tokens: each word as given, every other token a group of its own, in order.
// Throws attention::Error ("invalid_argument") for a word outside the tokens, of one token, with
// from after to, or overlapping another.
std::vector<WordSpan> word_groups(std::int64_t n, std::vector<WordSpan> words);

// An n × n attention matrix between the groups: g × g, (a, b) = mean over a's tokens of the sum
// over b's tokens. Throws attention::Error ("invalid_argument") when the groups do not cover the
// matrix.
Matrix word_attention(const Matrix& weights, const std::vector<WordSpan>& groups);

}  // namespace attention

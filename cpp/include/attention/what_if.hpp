// What if one head's row of attention weights were not what softmax made it
// (the lab's "what if" experiment): the row after the learner's edits, how far
// a vector moved because of them, and how the model's guess at a [MASK] shifted.
// The runs before and after are encode()'s, the second with a RowOverride
// (encoder.hpp); these compare them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "attention/heads.hpp"

namespace attention {

// The learner's change to one key's weight: set it to `weight` (0 … 1).
struct RowEdit {
    std::int64_t key = 0;
    float weight = 0;
};

struct EditedRow {
    std::vector<float> weights;  // the row to put in place of softmax's
    float sum = 0;               // its sum
};

// Row `row` (softmax's: n weights) after `edits`, in order (a later edit of a
// key replaces an earlier one): each edited key gets its weight. Then, with
// `renormalise`, the row is made to sum to 1 again the way the learner meant
// it: the keys not edited are scaled together (their proportions kept) to fill
// what the edited ones leave (1 − their sum); if those keys have no weight at
// all, they share it equally; if the edited keys alone pass 1, or every key was
// edited, the whole row is divided by its sum. Without `renormalise` the other
// keys keep softmax's weights and the row sums to whatever it sums to. Throws
// attention::Error ("invalid_argument") for an empty row, a key outside it, a
// weight that is not a number from 0 to 1, or a row to renormalise whose every
// weight is 0 ("every key was hidden: there is nothing to renormalise").
EditedRow edit_row(const std::vector<float>& row, const std::vector<RowEdit>& edits,
                   bool renormalise);

// How far a vector moved: |before|, |after|, |after − before|, and that
// distance over |before| (0 when before is 0). moved: the distance is more
// than kUnmoved · |before| (float rounding of the same computation stays far
// below it). Throws attention::Error ("invalid_argument") unless both have
// the same length.
struct Moved {
    float before = 0, after = 0, distance = 0, relative = 0;
    bool moved = false;
};
inline constexpr float kUnmoved = 1e-5f;
Moved moved(const std::vector<float>& before, const std::vector<float>& after);

// How a [MASK]'s guesses shifted, the lists most likely first: the first guess
// before and after (same_first when it is the same text); the probability of
// the first guess before, before and after (−1 when it is no longer in the
// after list); direction: "up" or "down" by more than kSameProbability, "same"
// within it (the page shows three decimals), "gone" when it left the list.
// Throws attention::Error ("invalid_argument") for an empty list.
struct GuessShift {
    std::string first_before, first_after;
    bool same_first = false;
    float before = 0, after = 0;
    std::string direction;
};
inline constexpr float kSameProbability = 0.0005f;
GuessShift guess_shift(const std::vector<Guess>& before, const std::vector<Guess>& after);

}  // namespace attention

// Learning a vocabulary from lines of text, BERT's way: the five special
// tokens, the most frequent CJK characters (one token each), and WordPiece
// pieces for every other word, learned by merging the pair of adjacent pieces
// with the highest score count(ab) / (count(a)·count(b)) until the vocabulary
// is full. Words are the core's own pre_tokenize() output, so the core's
// Vocabulary tokenizes with exactly the rules the vocabulary was learned with.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace attention::train {

struct WordPieceOptions {
    std::size_t vocab_size = 8000;   // every token, specials included
    std::size_t max_cjk = 5000;      // at most this many CJK characters…
    std::size_t min_cjk_count = 3;   // …each seen at least this often
    std::size_t min_pair_count = 2;  // a merge needs its pair this often
    std::size_t whole_words = 0;     // the most frequent words added whole before any merge
    bool by_frequency = true;        // merge the most frequent pair (BPE's rule); else WordPiece's
                                     // count(ab) / (count(a)·count(b))
};

struct LearnedVocabulary {
    std::vector<std::string>
        tokens;           // the vocabulary, one token a line: [PAD] [UNK] [CLS] [SEP] [MASK] …
    std::size_t cjk = 0;  // CJK characters in it
    std::size_t whole_words = 0;  // words added whole
    std::size_t merges = 0;       // WordPiece merges made
    // Every distinct non-CJK word of the corpus with its count and its
    // pieces after the last merge (the trainer's own segmentation).
    struct Word {
        std::string text;
        std::size_t count;
        std::vector<std::string> pieces;
    };
    std::vector<Word> words;
};

LearnedVocabulary learn_wordpiece(const std::vector<std::string>& lines,
                                  const WordPieceOptions& options);

}  // namespace attention::train

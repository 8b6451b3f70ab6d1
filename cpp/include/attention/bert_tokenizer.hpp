// Hugging Face's BertTokenizer before WordPiece (tokenization_bert.py's BasicTokenizer), for an
// imported checkpoint's vocabulary (Vocabulary's WordSplitter): control characters and U+FFFD
// dropped, whitespace (Zs, tab, newline, return) to a space, a space around every CJK ideograph
// (_is_chinese_char's blocks), then each whitespace-separated word lower-cased as Python's
// str.lower() does (a final sigma by its context) and its accents stripped (NFD, then every Mn
// mark dropped), then split at every punctuation mark (ASCII's symbols and Unicode's P*). The
// Unicode properties are Python's (scripts/bert-unicode.py writes them as tables).
#pragma once

#include <memory>
#include <optional>

#include "attention/vocabulary.hpp"

namespace attention {

// tokenizer_config.json's settings, with BertTokenizer's defaults.
struct BertTextRules {
    bool lower_case = true;             // do_lower_case
    std::optional<bool> strip_accents;  // strip_accents; unset: as lower_case
    bool chinese_chars = true;          // tokenize_chinese_chars
};

std::shared_ptr<const WordSplitter> bert_splitter(const BertTextRules& rules);

}  // namespace attention

// How the tokenizer sees each code point. Internal to the core.
#pragma once

namespace attention::unicode {

enum class Kind {
    Whitespace,   // separates tokens and is dropped
    Ignored,      // control and invisible format characters: dropped, no token
    Cjk,          // a CJK ideograph: always a token of its own
    Punctuation,  // a token of its own (ASCII punctuation, 。，、「」…)
    Symbol,       // emoji and other symbols: a token of its own, with its extenders
    Extender,     // combining marks, variation selectors, skin tones, ZWJ, tags:
                  // stay with the code point before them
    Word,         // letters, digits and everything else: runs form words
};

Kind classify(char32_t cp);

bool is_regional_indicator(char32_t cp);

// Simple one-to-one lower-casing for Latin, Greek, Cyrillic, Armenian and
// fullwidth Latin letters; every other code point is returned unchanged.
char32_t to_lower(char32_t cp);

}  // namespace attention::unicode

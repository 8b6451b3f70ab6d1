#include "attention/bert_tokenizer.hpp"

#include <algorithm>
#include <iterator>

#include "attention/utf8.hpp"
#include "unicode_classes.hpp"

namespace attention {

namespace {

struct Range {
    char32_t first, last;
};
struct Mapping {
    char32_t cp;
    unsigned short at, count;  // the result: count code points of the pool from at
};
struct Combining {
    char32_t first, last;
    unsigned char ccc;
};

#include "bert_unicode_tables.inc"

template <std::size_t N>
bool in(const Range (&ranges)[N], char32_t cp) {
    const Range* r = std::upper_bound(std::begin(ranges), std::end(ranges), cp,
                                      [](char32_t c, const Range& x) { return c < x.first; });
    return r != std::begin(ranges) && cp <= (r - 1)->last;
}

// The mapping of cp in the table (sorted by cp), or null.
template <std::size_t N>
const Mapping* mapped(const Mapping (&table)[N], char32_t cp) {
    const Mapping* m = std::lower_bound(std::begin(table), std::end(table), cp,
                                        [](const Mapping& x, char32_t c) { return x.cp < c; });
    return m != std::end(table) && m->cp == cp ? m : nullptr;
}

unsigned combining_class(char32_t cp) {
    const Combining* r =
        std::upper_bound(std::begin(kCcc), std::end(kCcc), cp,
                         [](char32_t c, const Combining& x) { return c < x.first; });
    return r != std::begin(kCcc) && cp <= (r - 1)->last ? (r - 1)->ccc : 0;
}

bool is_whitespace(char32_t cp) {
    return cp == ' ' || cp == '\t' || cp == '\n' || cp == '\r' || in(kWhitespace, cp);
}

bool is_punctuation(char32_t cp) {
    return (cp >= 33 && cp <= 47) || (cp >= 58 && cp <= 64) || (cp >= 91 && cp <= 96) ||
           (cp >= 123 && cp <= 126) || in(kPunctuation, cp);
}

bool is_chinese_char(char32_t cp) {
    return (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0x3400 && cp <= 0x4DBF) ||
           (cp >= 0x20000 && cp <= 0x2A6DF) || (cp >= 0x2A700 && cp <= 0x2B73F) ||
           (cp >= 0x2B740 && cp <= 0x2B81F) || (cp >= 0x2B820 && cp <= 0x2CEAF) ||
           (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0x2F800 && cp <= 0x2FA1F);
}

// A code point of a word and the UTF-16 span of the typed code point it came from.
struct Char {
    char32_t cp;
    std::uint32_t begin, end;
};
using Chars = std::vector<Char>;

// Python's str.lower() of a word: its one-to-many mappings, and Σ as ς at a word's end
// (Final_Sigma: a cased letter before it, none after, case-ignorable ones skipped both ways).
Chars lower(const Chars& word) {
    Chars out;
    for (std::size_t i = 0; i < word.size(); ++i) {
        const Char& c = word[i];
        if (c.cp == 0x03A3) {
            std::size_t j = i;
            while (j > 0 && in(kCaseIgnorable, word[j - 1].cp)) --j;
            bool final = j > 0 && in(kCased, word[j - 1].cp);
            std::size_t k = i + 1;
            while (k < word.size() && in(kCaseIgnorable, word[k].cp)) ++k;
            final = final && (k == word.size() || !in(kCased, word[k].cp));
            out.push_back({final ? char32_t{0x03C2} : char32_t{0x03C3}, c.begin, c.end});
        } else if (const Mapping* m = mapped(kLower, c.cp)) {
            for (unsigned k = 0; k < m->count; ++k)
                out.push_back({kLowerPool[m->at + k], c.begin, c.end});
        } else {
            out.push_back(c);
        }
    }
    return out;
}

// NFD (canonical decomposition, Hangul syllables by rule, then canonical ordering), then every
// Mn mark dropped: _run_strip_accents.
Chars strip_accents(const Chars& word) {
    Chars d;
    for (const Char& c : word) {
        if (c.cp >= 0xAC00 && c.cp <= 0xD7A3) {
            const char32_t s = c.cp - 0xAC00;
            d.push_back({0x1100 + s / 588, c.begin, c.end});
            d.push_back({0x1161 + (s % 588) / 28, c.begin, c.end});
            if (s % 28 != 0) d.push_back({0x11A7 + s % 28, c.begin, c.end});
        } else if (const Mapping* m = mapped(kNfd, c.cp)) {
            for (unsigned k = 0; k < m->count; ++k)
                d.push_back({kNfdPool[m->at + k], c.begin, c.end});
        } else {
            d.push_back(c);
        }
    }
    for (std::size_t i = 0; i < d.size();) {  // each run of non-starters, stably by class
        if (combining_class(d[i].cp) == 0) {
            ++i;
            continue;
        }
        std::size_t j = i;
        while (j < d.size() && combining_class(d[j].cp) != 0) ++j;
        std::stable_sort(d.begin() + static_cast<std::ptrdiff_t>(i),
                         d.begin() + static_cast<std::ptrdiff_t>(j),
                         [](const Char& a, const Char& b) {
                             return combining_class(a.cp) < combining_class(b.cp);
                         });
        i = j;
    }
    Chars out;
    std::copy_if(d.begin(), d.end(), std::back_inserter(out),
                 [](const Char& c) { return !in(kMn, c.cp); });
    return out;
}

class BertSplitter final : public WordSplitter {
public:
    explicit BertSplitter(const BertTextRules& rules) : rules_(rules) {}

    std::vector<Word> split(std::string_view text, std::uint32_t offset) const override {
        // _clean_text and _tokenize_chinese_chars, then whitespace_tokenize
        std::vector<Chars> words(1);
        std::uint32_t at = offset;
        for (const char32_t cp : decode_utf8(text)) {
            const std::uint32_t end = at + (cp >= 0x10000 ? 2 : 1);
            const bool dropped = cp == 0 || cp == 0xFFFD ||
                                 (cp != '\t' && cp != '\n' && cp != '\r' && in(kControl, cp));
            const bool cjk = rules_.chinese_chars && is_chinese_char(cp);
            // whitespace_tokenize splits at what Python's str.split() does: Zl and Zp too
            const bool space = is_whitespace(cp) || in(kPythonSpace, cp);
            if (!dropped && (space || cjk) && !words.back().empty()) words.emplace_back();
            if (!dropped && !space) words.back().push_back({cp, at, end});
            if (cjk) words.emplace_back();
            at = end;
        }
        std::vector<Word> out;
        const bool strip = rules_.strip_accents.value_or(rules_.lower_case);
        for (Chars& word : words) {
            if (word.empty()) continue;
            if (rules_.lower_case) word = lower(word);
            if (strip) word = strip_accents(word);
            // _run_split_on_punc: every punctuation mark a word of its own
            Chars run;
            const auto emit = [&](const Chars& chars) {
                if (chars.empty()) return;
                Word w;
                for (const Char& c : chars) append_utf8(w.text, c.cp);
                w.begin = chars.front().begin;
                w.end = chars.back().end;
                const unicode::Kind kind = unicode::classify(chars.front().cp);
                w.hideable = kind == unicode::Kind::Word || kind == unicode::Kind::Cjk;
                out.push_back(std::move(w));
            };
            for (const Char& c : word) {
                if (is_punctuation(c.cp)) {
                    emit(run);
                    run.clear();
                    emit({c});
                } else {
                    run.push_back(c);
                }
            }
            emit(run);
        }
        return out;
    }

private:
    BertTextRules rules_;
};

}  // namespace

std::shared_ptr<const WordSplitter> bert_splitter(const BertTextRules& rules) {
    return std::make_shared<const BertSplitter>(rules);
}

}  // namespace attention

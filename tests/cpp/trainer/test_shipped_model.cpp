// The model the page ships (web/models/trained.almodel): it loads, it beats the
// accuracy floors on the held-out lines and on the everyday evaluation sets,
// English words are mostly one token, and its heads do something nameable on
// the article's sentence. The floors sit under what docs/model.md reports by
// more than a retrain on another machine moves them (docs/model.md), so a
// model that is clearly worse fails here.
#include <doctest.h>

#include <cctype>
#include <fstream>
#include <iterator>

#include "attention/encoder_trace.hpp"
#include "attention/heads.hpp"
#include "attention/model_file.hpp"
#include "attention/tokenizer.hpp"
#include "train/corpus.hpp"
#include "train/evaluate.hpp"

using namespace attention;

namespace {

// Measured on the shipped file (docs/model.md: loss 3.429, top-1 40.0 %, top-5 59.0 %), less a
// margin.
constexpr double kShippedLossCeiling = 3.52, kShippedTop1Floor = 0.385, kShippedTop5Floor = 0.57;
// The everyday sets (tests/data/everyday, scripts/eval-sets.mjs): floors the
// shipped file meets with room (docs/model.md: zh top-1 44.3 %, top-5 68.0 %;
// en top-5 40.5 %), and the learner-register set at the targets the model was
// made for (docs/model.md: the shipped file's top-1 42.7 %, top-5 65.3 %).
constexpr double kEverydayZhTop1Floor = 0.42, kEverydayZhTop5Floor = 0.66,
                 kEverydayEnTop5Floor = 0.39;
constexpr double kLearnerTop1Floor = 0.30, kLearnerTop5Floor = 0.50;
constexpr double kTokensPerEnglishWordCeiling = 1.3;
// The word-level sets (docs/model.md: 81.7 % and 35.3 %): floors under the shipped file's figures
// by a retrain's margin, and above both baselines' figures on the same sets with its vocabulary
// (npm run train prints them: neighbour counts 70.3 % and 14.3 %, the lexicon 60.3 % and 1.7 %), so
// a model no better than a baseline fails.
constexpr double kWordsTop5Floor = 0.79, kContentTop5Floor = 0.32;
constexpr double kWordsBaselineTop5 = 0.703, kContentBaselineTop5 = 0.143;
static_assert(kWordsTop5Floor > kWordsBaselineTop5 && kContentTop5Floor > kContentBaselineTop5);
// Of the items whose [MASK] ends the text, how many may have punctuation among the
// five guesses of every word start (before the page's words-only filter): docs/model.md 0 %.
constexpr double kFinalPunctuationCeiling = 0.10;

std::string source(const std::string& path) {
    return std::string(ATTENTION_SOURCE_DIR) + "/" + path;
}

std::shared_ptr<const TrainedModel> shipped() {
    static const auto model = [] {
        std::ifstream in(source("web/models/trained.almodel"), std::ios::binary);
        REQUIRE(in.good());
        const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                              std::istreambuf_iterator<char>());
        return std::make_shared<const TrainedModel>(load_model(bytes.data(), bytes.size()));
    }();
    return model;
}

}  // namespace

TEST_CASE("shipped model: held-out masked-token accuracy and loss above the floor") {
    std::vector<std::string> lines = train::read_lines(source("tests/data/heldout/zh.txt"));
    for (std::string& line : train::read_lines(source("tests/data/heldout/en.txt")))
        lines.push_back(std::move(line));
    REQUIRE(lines.size() > 2000);
    const train::Sequences heldout =
        train::make_sequences(train::make_stream(lines, shipped()->vocabulary), 64);
    const train::Evaluation e = train::evaluate(shipped()->params, heldout, 64, 7);
    MESSAGE("held out: loss " << e.loss << ", top-1 " << e.top1 << ", top-5 " << e.top5 << " over "
                              << e.masked << " masked tokens");
    CHECK(e.masked > 8000);  // 1030 windows of 64: English as whole words takes fewer tokens than
                             // it did as letters
    CHECK(e.loss < kShippedLossCeiling);
    CHECK(e.top1 > kShippedTop1Floor);
    CHECK(e.top5 > kShippedTop5Floor);
}

TEST_CASE(
    "shipped model: on 我喜欢人工智能 a head is labelled, and the label is what its weights do") {
    const EncoderTrace t = run_encoder(shipped(), "trained", "我喜欢人工智能");
    int labelled = 0;
    for (int layer = 0; layer < t.layers(); ++layer) {
        for (int head = 0; head < t.heads(); ++head) {
            const Trace h = t.head(layer, head);
            const HeadReport r = head_report(h);
            if (r.label.empty()) continue;
            ++labelled;
            // Recount the labelled kind from the weights themselves.
            const Eigen::Index n = h.weights.rows();
            float share = 0;
            for (Eigen::Index i = 1; i + 1 < n; ++i) {
                if (r.label == "self") share += h.weights(i, i);
                if (r.label == "previous") share += h.weights(i, i - 1);
                if (r.label == "next") share += h.weights(i, i + 1);
                if (r.label == "special") share += h.weights(i, 0) + h.weights(i, n - 1);
            }
            if (r.label != "same") CHECK(share / static_cast<float>(n - 2) >= kDominant);
        }
    }
    CHECK(labelled >= 1);
}

TEST_CASE("shipped model: the everyday evaluation sets, above the floors") {
    const std::vector<train::MaskedItem> zh =
        train::read_masked_set(source("tests/data/everyday/zh.tsv"));
    const std::vector<train::MaskedItem> en =
        train::read_masked_set(source("tests/data/everyday/en.tsv"));
    REQUIRE(zh.size() >= 200);
    REQUIRE(en.size() >= 100);
    const train::SetScore z =
        train::score_model(shipped()->params, shipped()->vocabulary, zh, shipped()->packed.get());
    const train::SetScore e =
        train::score_model(shipped()->params, shipped()->vocabulary, en, shipped()->packed.get());
    MESSAGE("everyday zh: top-1 " << z.top1_share() << ", top-5 " << z.top5_share()
                                  << "; en: top-1 " << e.top1_share() << ", top-5 "
                                  << e.top5_share());
    CHECK(z.top1_share() >= kEverydayZhTop1Floor);
    CHECK(z.top5_share() >= kEverydayZhTop5Floor);
    CHECK(e.top5_share() >= kEverydayEnTop5Floor);
    const std::vector<train::MaskedItem> learner =
        train::read_masked_set(source("tests/data/everyday/en-learner.tsv"));
    REQUIRE(learner.size() >= 200);
    const train::SetScore l = train::score_model(shipped()->params, shipped()->vocabulary, learner,
                                                 shipped()->packed.get());
    MESSAGE("learner en: top-1 " << l.top1_share() << ", top-5 " << l.top5_share());
    CHECK(l.top1_share() >= kLearnerTop1Floor);
    CHECK(l.top5_share() >= kLearnerTop5Floor);
}

TEST_CASE(
    "shipped model: a [MASK] at the end of a sentence is a word, even among every word start") {
    for (const char* set : {"tests/data/everyday/zh.tsv", "tests/data/everyday/en-learner.tsv"}) {
        std::size_t final_masks = 0, punctuated = 0;
        for (const train::MaskedItem& item : train::read_masked_set(source(set))) {
            const std::vector<Token> tokens = shipped()->vocabulary.tokenize(item.text);
            if (tokens[tokens.size() - 2].id != Vocabulary::kMask) continue;
            final_masks += 1;
            const auto guesses =
                predict_masked(shipped()->params, shipped()->vocabulary, item.text, 5, {},
                               shipped()->packed.get(), GuessAmong::word_starts);
            bool any = false;
            for (const Guess& g : guesses.at(0)) any = any || train::is_punctuation(g.token);
            punctuated += any;
            // What the page shows: never punctuation.
            const auto shown = predict_masked(shipped()->params, shipped()->vocabulary, item.text,
                                              5, {}, shipped()->packed.get());
            for (const Guess& g : shown.at(0)) CHECK_FALSE(train::is_punctuation(g.token));
        }
        const std::string set_name(set);
        CAPTURE(set_name);
        REQUIRE(final_masks >= 20);
        CHECK(static_cast<double>(punctuated) / static_cast<double>(final_masks) <=
              kFinalPunctuationCeiling);
    }
}

TEST_CASE(
    "shipped model: the lab opens the article's sentence on a labelled head where 喜 looks most at "
    "a neighbour") {
    const EncoderTrace t = run_encoder(shipped(), "trained", "我喜欢人工智能");
    const ArticleHead a = t.article_head(2);
    CHECK(a.found);
    CHECK(a.labelled);
    // 欢: layer 2's next-token head, a spread row (docs/model.md: 喜 → 欢 0.70, 人 0.21), chosen
    // over its previous-token head (喜 → 我 0.92, nearly one-hot).
    CHECK(a.neighbour == 3);
    CHECK(a.weight > 0.6f);
    CHECK(a.weight <= 0.9f);
    CHECK(a.spread);
}

TEST_CASE(
    "shipped model: English words are mostly one token (each English set); Chinese characters "
    "always are") {
    for (const char* set : {"tests/data/everyday/en.tsv", "tests/data/everyday/en-learner.tsv"}) {
        std::size_t words = 0, tokens = 0;
        for (const train::MaskedItem& item : train::read_masked_set(source(set))) {
            std::string sentence = item.text;
            sentence.replace(sentence.find("[MASK]"), 6, item.answer);
            for (const std::string& w : pre_tokenize(sentence)) {
                if (!std::isalpha(static_cast<unsigned char>(w[0]))) continue;
                words += 1;
                tokens += shipped()->vocabulary.wordpiece(w).size();
            }
        }
        const double per_word = static_cast<double>(tokens) / static_cast<double>(words);
        MESSAGE(std::string(set) << ": " << per_word << " tokens per English word over " << words
                                 << " words");
        CHECK(per_word <= kTokensPerEnglishWordCeiling);
    }
    std::size_t cjk = 0, cjk_tokens = 0;
    for (const train::MaskedItem& item :
         train::read_masked_set(source("tests/data/everyday/zh.tsv"))) {
        for (const std::string& w : pre_tokenize(item.text)) {
            if (!is_cjk_character(w)) continue;
            cjk += 1;
            cjk_tokens += shipped()->vocabulary.wordpiece(w).size();
        }
    }
    CHECK(cjk > 1000);
    CHECK(cjk_tokens == cjk);
    const std::vector<Token> t = shipped()->vocabulary.tokenize(
        "The animal did not cross the street because it was too tired");
    CHECK(t.size() == 12 + 2);  // every word one token, [CLS] and [SEP]
}

// docs/model.md: the target is 7 of 7; the shipped model brings back 我 喜 欢 人, not 工 智 能
// (人工智能 is in two of the training sentences and one lexicon unit).
TEST_CASE(
    "shipped model: the article's sentence, each character hidden in turn: 我 喜 欢 人 come back "
    "in the top five, 欢 first") {
    const std::vector<std::string> characters = {"我", "喜", "欢", "人", "工", "智", "能"};
    const std::vector<bool> back = {true, true, true, true, false, false, false};
    for (std::size_t k = 0; k < characters.size(); ++k) {
        std::string text;
        for (std::size_t j = 0; j < characters.size(); ++j)
            text += j == k ? "[MASK]" : characters[j];
        const auto guesses = predict_masked(shipped()->params, shipped()->vocabulary, text, 5, {},
                                            shipped()->packed.get());
        REQUIRE(guesses.size() == 1);
        std::string listed;
        bool found = false;
        for (const Guess& g : guesses[0])
            listed += g.token + " ", found = found || g.token == characters[k];
        // Where the page puts the hidden character: marked in the list, or its number below it.
        const AnswerRank rank = rank_answers(shipped()->params, shipped()->vocabulary, text,
                                             {characters[k]}, 5, {}, shipped()->packed.get())[0];
        MESSAGE(text << " → " << listed << "(" << characters[k] << ": number " << rank.rank << ")");
        CAPTURE(text);
        CHECK(rank.shown == found);
        if (back[k]) CHECK(found);
        if (characters[k] == "欢") CHECK(guesses[0][0].token == "欢");
    }
}

TEST_CASE(
    "shipped model: traditional characters stand for its simplified ones; guesses come back "
    "traditional") {
    const std::vector<Token> tokens = shipped()->vocabulary.tokenize("我喜歡人工智慧");
    REQUIRE(tokens.size() == 7 + 2);
    for (const Token& t : tokens) CHECK(t.id != Vocabulary::kUnk);
    CHECK(tokens[3].text == "歡");
    CHECK(shipped()->vocabulary.token(tokens[3].id) == "欢");
    CHECK(shipped()->vocabulary.tokenize("我們學習中文")[2].stands_for == "们");
    bool found = false;
    std::string listed;
    const auto guesses =
        predict_masked(shipped()->params, shipped()->vocabulary, "我喜[MASK]人工智慧", 5, {},
                       shipped()->packed.get(), GuessAmong::words, GuessForms::traditional);
    for (const Guess& g : guesses.at(0)) listed += g.token + " ", found = found || g.token == "歡";
    MESSAGE("我喜[MASK]人工智慧 → " << listed);
    CHECK(found);
}

TEST_CASE(
    "shipped model: the word-level sets, above the floors and above both baselines' figures") {
    const std::vector<train::MaskedItem> words =
        train::read_masked_set(source("tests/data/everyday/zh-words.tsv"));
    const std::vector<train::MaskedItem> content =
        train::read_masked_set(source("tests/data/everyday/en-content.tsv"));
    REQUIRE(words.size() >= 300);
    REQUIRE(content.size() >= 300);
    const train::SetScore w = train::score_model(shipped()->params, shipped()->vocabulary, words,
                                                 shipped()->packed.get());
    const train::SetScore c = train::score_model(shipped()->params, shipped()->vocabulary, content,
                                                 shipped()->packed.get());
    MESSAGE("zh inside a word: top-1 " << w.top1_share() << ", top-5 " << w.top5_share()
                                       << "; en content words: top-1 " << c.top1_share()
                                       << ", top-5 " << c.top5_share());
    CHECK(w.top5_share() >= kWordsTop5Floor);
    CHECK(c.top5_share() >= kContentTop5Floor);
}

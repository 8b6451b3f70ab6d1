// npm run train: learns the vocabulary from build/corpus/, trains the encoder
// by masked-language modelling, evaluates it on the held-out lines, writes
// the checkpoint, the vocabulary and a report, and prints what each head does
// on the article's sentence. Every step is deterministic for --seed.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "attention/heads.hpp"
#include "attention/model_file.hpp"
#include "checkpoint.hpp"
#include "corpus.hpp"
#include "evaluate.hpp"
#include "report.hpp"
#include "session.hpp"
#include "train_options.hpp"
#include "wordpiece.hpp"

using namespace attention;
using namespace attention::train;

namespace {

// The corpus's lines of both languages: part is "train", "heldout",
// "everyday.train" or "everyday.heldout".
std::vector<std::string> both(const std::string& corpus, const std::string& part) {
    std::vector<std::string> lines = read_lines(corpus + "/zh." + part + ".txt");
    for (std::string& line : read_lines(corpus + "/en." + part + ".txt"))
        lines.push_back(std::move(line));
    return lines;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// A vocabulary's tokens in id order.
std::vector<std::string> tokens_of(const Vocabulary& vocabulary) {
    std::vector<std::string> tokens;
    for (std::size_t id = 0; id < vocabulary.size(); ++id)
        tokens.push_back(vocabulary.token(static_cast<std::int32_t>(id)));
    return tokens;
}

// A model file from disk (load_model() checks it).
TrainedModel read_model_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                          std::istreambuf_iterator<char>());
    return load_model(bytes.data(), bytes.size());
}

// The vocabulary with the traditional characters it aliases (the corpus's
// zh-hant.aliases.txt, "typed\tsimplified" lines from OpenCC's table).
Vocabulary with_aliases(const Vocabulary& vocabulary, const Options& o) {
    std::vector<std::string> tokens = tokens_of(vocabulary);
    std::vector<Vocabulary::Alias> aliases;
    for (const std::string& line : read_lines(o.corpus + "/zh-hant.aliases.txt")) {
        const std::size_t tab = line.find('\t');
        if (tab != std::string::npos)
            aliases.emplace_back(line.substr(0, tab), line.substr(tab + 1));
    }
    Vocabulary out(std::move(tokens), aliases);
    std::printf(
        "aliases: %zu traditional characters stand for simplified tokens (of %zu in the table)\n",
        out.aliases().size(), aliases.size());
    return out;
}

// Writes the model file (the vocabulary with its aliases) and measures what it
// holds (its int8 params, not the float ones) on the held-out lines.
void write_model_file(const EncoderParams<float>& params, const Vocabulary& plain, const Options& o,
                      const std::string& file) {
    const Vocabulary vocabulary = with_aliases(plain, o);
    const std::vector<std::uint8_t> bytes =
        save_model(params, vocabulary, o.levels, o.embedding_levels);
    std::ofstream(file, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()),
               static_cast<std::streamsize>(bytes.size()));
    const TrainedModel shipped = load_model(bytes.data(), bytes.size());
    const Sequences heldout =
        make_sequences(make_stream(both(o.corpus, "heldout"), shipped.vocabulary), o.length);
    const Evaluation e = evaluate(shipped.params, heldout, 64, 7);
    std::printf(
        "%s: %zu bytes (levels %d, embeddings %d); held out: loss %.3f, top-1 %.1f %%, top-5 %.1f "
        "%%\n",
        file.c_str(), bytes.size(), o.levels, o.embedding_levels ? o.embedding_levels : o.levels,
        e.loss, 100 * e.top1, 100 * e.top5);
    const EverydaySets sets(o.eval_sets);
    print_scores("the file", sets, [&](const auto& items) {
        return score_model(shipped.params, shipped.vocabulary, items, shipped.packed.get());
    });
    print_final_masks(shipped.params, shipped.vocabulary, sets.zh, "everyday zh",
                      shipped.packed.get());
    print_final_masks(shipped.params, shipped.vocabulary, sets.learner, "learner en",
                      shipped.packed.get());
    std::printf(
        "the file's top guess agrees with the float model's on %.1f %% of the held-out masked "
        "tokens\n",
        100 * top1_agreement(params, shipped.params, heldout, 64, 7));
}

}  // namespace

int main(int argc, char** argv) {
    if (argc >= 3 &&
        std::string(argv[1]) ==
            "--inspect") {  // a trained model in a folder: its heads, and guesses for texts
        const std::string dir = argv[2];
        inspect(load_checkpoint(dir + "/encoder.bin"), Vocabulary(read_lines(dir + "/vocab.txt")),
                std::vector<std::string>(argv + 3, argv + argc));
        return 0;
    }
    if (argc >= 3 && std::string(argv[1]) == "--score") {  // a model file on the evaluation sets
        const Options o = parse_options(argc - 2, argv + 2);
        const TrainedModel model = read_model_file(argv[2]);
        const EverydaySets sets(o.eval_sets);
        print_scores(argv[2], sets, [&](const auto& items) {
            return score_model(model.params, model.vocabulary, items, model.packed.get());
        });
        print_final_masks(model.params, model.vocabulary, sets.zh, "everyday zh",
                          model.packed.get());
        print_final_masks(model.params, model.vocabulary, sets.learner, "learner en",
                          model.packed.get());
        std::printf("%.3f tokens per English word of the everyday set, %.3f of the learner set\n",
                    tokens_per_word(model.vocabulary, sets.en),
                    tokens_per_word(model.vocabulary, sets.learner));
        return 0;
    }
    if (argc >= 4 &&
        std::string(argv[1]) == "--export") {  // a trained model in a folder → the model file
        const std::string dir = argv[2];
        const Options o = parse_options(argc - 3, argv + 3);
        const TrainedModel model{Vocabulary(read_lines(dir + "/vocab.txt")),
                                 load_checkpoint(dir + "/encoder.bin"), nullptr};
        write_model_file(model.params, model.vocabulary, o, argv[3]);
        return 0;
    }
#if defined(__GLIBC__)
    // Keep freed blocks in the heap: each step allocates the same large
    // matrices again, and returning them to the system costs a page fault per
    // page on the next step (a third of the time on two threads).
    mallopt(M_MMAP_THRESHOLD, 1 << 30);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
    const Options o = parse_options(argc, argv);
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<std::string> train_lines = both(o.corpus, "train");
    const std::vector<std::string> heldout_lines = both(o.corpus, "heldout"),
                                   everyday = both(o.corpus, "everyday.train");
    WordPieceOptions wp;
    wp.vocab_size = static_cast<std::size_t>(o.vocab);
    wp.max_cjk = static_cast<std::size_t>(o.cjk);
    wp.whole_words = static_cast<std::size_t>(o.whole_words);
    // --init: go on from a model file, with its vocabulary.
    const std::optional<TrainedModel> start =
        o.init.empty() ? std::nullopt : std::optional<TrainedModel>(read_model_file(o.init));
    const LearnedVocabulary learned = [&] {
        if (start) {
            LearnedVocabulary given;
            given.tokens = tokens_of(start->vocabulary);
            return given;
        }
        std::vector<std::string> lines = train_lines;
        for (int k = 0; k < o.vocab_weight; ++k)
            lines.insert(lines.end(), everyday.begin(), everyday.end());
        return learn_wordpiece(lines, wp);
    }();
    const Vocabulary vocabulary(learned.tokens);
    train_lines.insert(train_lines.end(), everyday.begin(), everyday.end());
    const std::vector<std::string> usage =
        both(o.corpus,
             "usage.train");  // where words are used: in the text and the units, not the vocabulary
    train_lines.insert(train_lines.end(), usage.begin(), usage.end());
    const TokenStream train = make_stream(train_lines, vocabulary);
    // The sentence units of each language (everyday sentences, the learner-register ones
    // learner_weight times). Chinese also the lexicon's words, lexicon_weight times, each a unit of
    // its own.
    const auto units_of = [&](const std::string& language) {
        std::vector<std::string> lines =
            read_lines(o.corpus + "/" + language + ".everyday.train.txt");
        for (std::string& line : read_lines(o.corpus + "/" + language + ".usage.train.txt"))
            lines.push_back(std::move(line));
        const std::vector<std::string> learner =
            read_lines(o.corpus + "/" + language + ".learner.train.txt");
        for (int k = 1; k < (language == "zh" ? o.zh_learner_weight : o.learner_weight); ++k)
            lines.insert(lines.end(), learner.begin(), learner.end());
        if (language == "zh" && o.lexicon_weight > 0) {
            const std::vector<std::string> words = read_lines(o.corpus + "/zh.lexicon.train.txt");
            // make_units takes each line on its own: the words' units are counted alone.
            const std::size_t lexicon = make_units(words, vocabulary, o.length - 2).count() *
                                        static_cast<std::size_t>(o.lexicon_weight);
            for (int k = 0; k < o.lexicon_weight; ++k)
                lines.insert(lines.end(), words.begin(), words.end());
            SentenceUnits units = make_units(lines, vocabulary, o.length - 2);
            std::printf("the lexicon's words: %zu of the %zu Chinese units (%.1f %%)\n", lexicon,
                        units.count(),
                        100.0 * static_cast<double>(lexicon) / static_cast<double>(units.count()));
            return units;
        }
        return make_units(lines, vocabulary, o.length - 2);
    };
    const SentenceUnits zh_units = units_of("zh"), en_units = units_of("en");
    const Sequences heldout = make_sequences(make_stream(heldout_lines, vocabulary), o.length);
    const EverydaySets sets(o.eval_sets);
    std::printf(
        "vocabulary %zu tokens (%zu CJK, %zu whole words, %zu merges; %.3f tokens per English word "
        "of the everyday set, "
        "%.3f of the learner set); %zu training tokens, %zu sentence units, %zu held-out windows "
        "of %d; [UNK] %.2f %%; %.0f s\n",
        vocabulary.size(), learned.cjk, learned.whole_words, learned.merges,
        tokens_per_word(vocabulary, sets.en), tokens_per_word(vocabulary, sets.learner),
        train.ids.size(), zh_units.count() + en_units.count(), heldout.count(), o.length,
        100.0 * static_cast<double>(train.unknown) / static_cast<double>(train.ids.size()),
        seconds_since(t0));
    {
        const NeighbourCounts counts(train_lines,
                                     vocabulary);  // over the same lines and tokens as the model
        print_scores("neighbour counts (baseline)", sets,
                     [&](const auto& items) { return score_baseline(counts, vocabulary, items); });
    }
    print_lexicon_baseline(o, vocabulary, sets);
    if (o.only == "baseline") return 0;

    // The training lab's session, on the corpus: the same schedule, batch mix and AdamW step, with
    // two pools of sentence units (Chinese, English), windows of three lengths, both cores, no
    // measures.
    SpecialIds special;
    if (!o.mask_final_punctuation) {
        special.unmasked_before_sep.resize(vocabulary.size());
        for (std::size_t id = 0; id < vocabulary.size(); ++id)
            special.unmasked_before_sep[id] =
                is_punctuation(vocabulary.token(static_cast<std::int32_t>(id)));
    }
    SessionSettings settings;
    settings.layers = o.layers, settings.heads = o.heads, settings.d_model = o.d_model,
    settings.d_ff = o.d_ff, settings.embedding = o.embedding;
    settings.length = o.length, settings.batch = o.batch, settings.steps = o.steps,
    settings.lr = o.lr;
    settings.token_sd = o.token_sd, settings.init_scale = 0.02, settings.seed = o.seed,
    settings.scaled = true;
    TrainingSession session(
        TrainingData{vocabulary, train, {zh_units, en_units}, heldout}, settings,
        StepOptions{o.warmup, BatchMix{o.sentences, o.zh_share, true}, special, o.threads, false});
    if (start) session.start_from(start->params);
    const EncoderParams<float>& params = session.params();
    double window = 0;
    const auto train_start = std::chrono::steady_clock::now();
    for (int step = 1; step <= o.steps; ++step) {
        const StepReport report = session.step();
        window += report.loss;
        if (step % 100 == 0) {
            const double s = seconds_since(train_start);
            std::printf("step %5d  loss %.3f  lr %.2e  %.0f tokens/s  %.0f s\n", step, window / 100,
                        report.lr, static_cast<double>(step) * o.batch * o.length / s, s);
            std::fflush(stdout);
            window = 0;
        }
        if (step % o.eval_every == 0 || step == o.steps) {
            const Evaluation e = evaluate(params, heldout, 64, 7);
            std::printf(
                "held out at step %d: loss %.3f, top-1 %.1f %%, top-5 %.1f %% (%zu masked "
                "tokens)\n",
                step, e.loss, 100 * e.top1, 100 * e.top5, e.masked);
            print_scores("  model", sets,
                         [&](const auto& items) { return score_model(params, vocabulary, items); });
            std::fflush(stdout);
        }
    }

    std::system(("mkdir -p '" + o.out + "'").c_str());
    save_checkpoint(params, o.out + "/encoder.bin");
    std::ofstream(o.out + "/vocab.txt") << [&] {
        std::string text;
        for (const std::string& t : learned.tokens) text += t + "\n";
        return text;
    }();
    write_model_file(params, vocabulary, o, o.model_file);
    inspect(params, vocabulary);
    std::printf("done in %.0f s\n", seconds_since(t0));
    return 0;
}

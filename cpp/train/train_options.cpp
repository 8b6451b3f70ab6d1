#include "train_options.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <map>
#include <type_traits>

namespace attention::train {

namespace {

[[noreturn]] void usage_error(const std::string& message) {
    std::fprintf(stderr, "train_encoder: %s\n", message.c_str());
    std::exit(2);
}

template <class T>
T number_of(const std::string& name, const std::string& text) {
    const char* begin = text.c_str();
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(begin, &end);
    if (text.empty() || end != begin + text.size() || errno == ERANGE || !std::isfinite(v)) {
        usage_error(name + " needs a number, got \"" + text + "\"");
    }
    if constexpr (std::is_integral_v<T>) {
        if (v != std::floor(v) || v < double(std::numeric_limits<T>::min()) ||
            v > double(std::numeric_limits<T>::max())) {
            usage_error(name + " needs a whole number, got \"" + text + "\"");
        }
    }
    return static_cast<T>(v);
}

}  // namespace

Options parse_options(int argc, char** argv) {
    Options o;
    std::map<std::string, std::function<void(const std::string&)>> options;
    const auto text = [&](const char* name, std::string& field) {
        options[name] = [&field](const std::string& v) { field = v; };
    };
    const auto num = [&](const char* name, auto& field) {
        options[name] = [&field, name](const std::string& v) {
            field = number_of<std::remove_reference_t<decltype(field)>>(name, v);
        };
    };
    text("--corpus", o.corpus), text("--out", o.out), text("--model-file", o.model_file),
        text("--eval-sets", o.eval_sets), text("--only", o.only), text("--init", o.init);
    num("--vocab", o.vocab), num("--d-model", o.d_model), num("--heads", o.heads),
        num("--d-ff", o.d_ff);
    num("--embedding", o.embedding), num("--layers", o.layers), num("--length", o.length),
        num("--batch", o.batch), num("--steps", o.steps);
    num("--eval-every", o.eval_every), num("--lr", o.lr), num("--seed", o.seed),
        num("--threads", o.threads);
    num("--levels", o.levels), num("--embedding-levels", o.embedding_levels), num("--cjk", o.cjk),
        num("--whole-words", o.whole_words), num("--vocab-weight", o.vocab_weight);
    num("--learner-weight", o.learner_weight), num("--zh-learner-weight", o.zh_learner_weight),
        num("--lexicon-weight", o.lexicon_weight), num("--zh-share", o.zh_share);
    num("--sentences", o.sentences), num("--warmup", o.warmup), num("--token-sd", o.token_sd);
    num("--mask-final-punctuation", o.mask_final_punctuation);
    for (int k = 1; k < argc; k += 2) {
        const std::string name = argv[k];
        const auto option = options.find(name);
        if (option == options.end()) {
            std::string known;
            for (const auto& [n, _] : options) known += " " + n;
            usage_error("unknown option \"" + name + "\"; the options are" + known);
        }
        if (k + 1 >= argc) usage_error(name + " needs a value");
        option->second(argv[k + 1]);
    }
    if (o.only != "" && o.only != "baseline")
        usage_error("--only takes \"baseline\", got \"" + o.only + "\"");
    return o;
}

}  // namespace attention::train

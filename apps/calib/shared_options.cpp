// The input and thread options shared by the analysis subcommands (shared_options.hpp).
#include "shared_options.hpp"

#include "usage_error.hpp"

#include <calib/estimators.hpp>

#include <omp.h>

namespace calib::cli {

const std::vector<OptionSpec> shared_option_specs = {
    {"family", true}, {"input", true},   {"one-based-labels", false},
    {"logits", false}, {"threads", true}, {"help", false},
};

InputOptions take_input_options(Args& args) {
    InputOptions input;
    input.family = parse_family(args.take_required("family", family_choices));
    input.path = args.take_required("input", "FILE.csv");
    for (const char* flag : {"one-based-labels", "logits"})
        if (args.has(flag) && input.family != Family::categorical)
            throw usage_error(std::string("option --") + flag +
                              " applies only to --family categorical, not " +
                              to_string(input.family));
    input.csv.one_based_labels = args.take_flag("one-based-labels");
    input.csv.logits = args.take_flag("logits");
    return input;
}

int take_threads(Args& args) {
    const auto text = args.take("threads");
    return text ? static_cast<int>(parse_integer("threads", *text, 0, INT_MAX)) : 0;
}

int resolved_threads(int requested) { return requested > 0 ? requested : omp_get_max_threads(); }

std::size_t BlockSizeChoice::resolve(std::size_t n) const { return given ? *given : sqrt_block_size(n); }

BlockSizeChoice take_block_size(Args& args, const char* fallback) {
    const std::string size =
        fallback ? args.take("block-size", fallback) : args.take_required("block-size", "B|sqrt");
    BlockSizeChoice choice;
    if (size != "sqrt") choice.given = static_cast<std::size_t>(parse_integer("block-size", size, 2));
    return choice;
}

}  // namespace calib::cli

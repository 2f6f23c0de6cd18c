// The input, reading and thread options shared by the analysis subcommands (shared_options.hpp).
#include "shared_options.hpp"

#include "usage_error.hpp"

#include <calib/errors.hpp>
#include <calib/estimators.hpp>
#include <calib/parallel.hpp>

namespace calib::cli {

const std::vector<OptionSpec> reading_option_specs = {
    {"labels", true},          {"targets", true},          {"header", true},     {"delimiter", true},
    {"one-based-labels", false}, {"logits", false},        {"simplex-tolerance", true}, {"renormalize", false},
};

const std::vector<OptionSpec> shared_option_specs = [] {
    std::vector<OptionSpec> specs = {{"family", true}, {"input", true}, {"threads", true}, {"quiet", false},
                                     {"help", false}};
    specs.insert(specs.end(), reading_option_specs.begin(), reading_option_specs.end());
    return specs;
}();

namespace {

template <class Parse>
auto parse_choice(const std::string& option, const std::string& value, Parse parse) {
    try {
        return parse(value);
    } catch (const invalid_argument&) {
        throw usage_error("option --" + option + " " + value + ", expected " +
                          (option == "header" ? "auto, yes or no" : "auto, comma, tab, semicolon or whitespace"));
    }
}

}  // namespace

ReadOptions take_reading_options(Args& args, Family family) {
    ReadOptions read;
    if (args.has("labels") && args.has("targets"))
        throw usage_error("options --labels and --targets are the same option; give one of them");
    read.labels = args.take("labels").value_or(args.take("targets").value_or(""));
    read.text.header = parse_choice("header", args.take("header", "auto"), parse_header_mode);
    read.text.delimiter = parse_choice("delimiter", args.take("delimiter", "auto"), parse_delimiter);
    for (const char* flag : {"one-based-labels", "logits"})
        if (args.has(flag) && family != Family::categorical)
            throw usage_error(std::string("option --") + flag + " applies only to --family categorical, not " +
                              to_string(family));
    read.one_based_labels = args.take_flag("one-based-labels");
    read.logits = args.take_flag("logits");
    const bool simplex = family == Family::categorical || family == Family::mixture_normal;
    for (const char* option : {"simplex-tolerance", "renormalize"}) {
        if (!args.has(option)) continue;
        if (!simplex)
            throw usage_error(std::string("option --") + option +
                              " applies only to --family categorical and mixture-normal (rows on the simplex), not " +
                              to_string(family));
        if (read.logits)
            throw usage_error(std::string("option --") + option +
                              " does not apply with --logits (the softmax of logits is on the simplex)");
    }
    if (const auto tolerance = args.take("simplex-tolerance")) {
        const double t = parse_double("simplex-tolerance", *tolerance);
        if (!(t >= 0 && t < 1))
            throw usage_error("option --simplex-tolerance = '" + *tolerance + "', must be in [0, 1)");
        read.simplex.tolerance = t;
    }
    read.simplex.renormalize = args.take_flag("renormalize");
    return read;
}

InputOptions take_input_options(Args& args) {
    InputOptions input;
    input.family = parse_family(args.take_required("family", family_choices));
    input.path = args.take_required("input", "FILE (.csv, .txt, .npy; - for stdin)");
    input.read = take_reading_options(args, input.family);
    return input;
}

int take_threads(Args& args) {
    const auto text = args.take("threads");
    return text ? static_cast<int>(parse_integer("threads", *text, 0, calib::max_num_threads())) : 0;
}

std::size_t BlockSizeChoice::resolve(std::size_t n) const { return given ? *given : sqrt_block_size(n); }

BlockSizeChoice take_block_size(Args& args, const char* fallback) {
    const std::string size =
        fallback ? args.take("block-size", fallback) : args.take_required("block-size", "B|sqrt");
    BlockSizeChoice choice;
    if (size != "sqrt") choice.given = static_cast<std::size_t>(parse_integer("block-size", size, 2));
    return choice;
}

}  // namespace calib::cli

// `calib rank`: models evaluated on the same labelled data, ranked by calibration errors, with
// paired bootstrap intervals for the differences.
#include "commands.hpp"

#include "args.hpp"
#include "ckce_options.hpp"
#include "dataset.hpp"
#include "ece_options.hpp"
#include "progress_bar.hpp"
#include "rank_output.hpp"
#include "run_output.hpp"
#include "shared_options.hpp"
#include "usage_error.hpp"

#include <calib/compare.hpp>
#include <calib/errors.hpp>
#include <calib/hypothesis.hpp>

#include <algorithm>
#include <iostream>

namespace calib::cli {

namespace {

const char* const rank_estimator_choices = "ckce, skce-unbiased, ece";

std::vector<OptionSpec> rank_option_specs() {
    std::vector<OptionSpec> specs = {{"family", true},     {"threads", true}, {"quiet", false},  {"help", false},
                                     {"estimators", true}, {"replicates", true}, {"level", true}, {"format", true}};
    specs.insert(specs.end(), reading_option_specs.begin(), reading_option_specs.end());
    specs.insert(specs.end(), ckce_option_specs.begin(), ckce_option_specs.end());
    specs.insert(specs.end(), ece_option_specs.begin(), ece_option_specs.end());
    return specs;
}

// Splits off the model files: every argument after --input up to the next option (--input may be
// given more than once); the rest goes to the option parser.
std::vector<std::string> take_inputs(const std::vector<std::string>& arguments, std::vector<std::string>& rest) {
    std::vector<std::string> files;
    for (std::size_t i = 0; i < arguments.size(); ++i) {
        const std::string& a = arguments[i];
        if (a == "--input" || a.rfind("--input=", 0) == 0) {
            if (a != "--input") files.push_back(a.substr(8));
            while (i + 1 < arguments.size() && arguments[i + 1].rfind("--", 0) != 0) files.push_back(arguments[++i]);
            continue;
        }
        rest.push_back(a);
    }
    for (const std::string& f : files)
        if (f.empty()) throw usage_error("option --input has an empty file name");
    if (files.size() < 2)
        throw usage_error("calib rank needs at least two model files: --input MODEL1.csv MODEL2.csv ... (got " +
                          std::to_string(files.size()) + ")");
    return files;
}

std::vector<std::string> parse_estimators(const std::string& text) {
    std::vector<std::string> names;
    for (std::size_t start = 0;;) {
        const std::size_t comma = text.find(',', start);
        const std::string name = text.substr(start, comma == std::string::npos ? comma : comma - start);
        if (name != "ckce" && name != "skce-unbiased" && name != "ece")
            throw usage_error("option --estimators: unknown estimator '" + name + "', expected a comma-separated list of " +
                              rank_estimator_choices);
        for (const std::string& seen : names)
            if (seen == name) throw usage_error("option --estimators: '" + name + "' is listed twice");
        names.push_back(name);
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return names;
}

// The same n, the same classes and the same labels in every file, checked here to name the files
// (compare_models checks it too, by model index).
void check_same_labels(const std::vector<CategoricalData>& models, const std::vector<std::string>& files) {
    const CategoricalData& first = models.front();
    for (std::size_t k = 1; k < models.size(); ++k) {
        const CategoricalData& d = models[k];
        const std::string same = "; calib rank compares models evaluated on the same labelled data";
        if (d.size() != first.size())
            throw invalid_argument(files[k] + " has " + std::to_string(d.size()) + " observations but " + files[0] +
                                   " has " + std::to_string(first.size()) + same);
        if (d.num_classes() != first.num_classes())
            throw invalid_argument(files[k] + " has " + std::to_string(d.num_classes()) + " classes but " + files[0] +
                                   " has " + std::to_string(first.num_classes()) + same);
        for (std::size_t i = 0; i < d.size(); ++i)
            if (d.labels()[i] != first.labels()[i])
                throw invalid_argument(files[k] + ": observation " + std::to_string(i + 1) + " has label " +
                                           std::to_string(d.labels()[i]) + " but " + files[0] + " has label " +
                                           std::to_string(first.labels()[i]) + same,
                                       static_cast<long>(i));
    }
}

}  // namespace

int run_rank(const std::vector<std::string>& arguments, Stage stage) {
    if (wants_help(arguments)) {
        std::cout << rank_help;
        return 0;
    }
    std::vector<std::string> rest;
    RankPlan plan;
    plan.files = take_inputs(arguments, rest);
    Args args(rest, rank_option_specs(), "rank");
    plan.family = parse_family(args.take_required("family", "categorical|binary"));
    if (!is_categorical(plan.family))
        throw usage_error("calib rank applies to --family categorical or binary, not " + to_string(plan.family));
    const ReadOptions read = take_reading_options(args, plan.family);
    plan.threads = take_threads(args);
    plan.estimators = parse_estimators(args.take("estimators", "ckce,skce-unbiased,ece"));
    plan.replicates = static_cast<std::size_t>(
        parse_integer("replicates", args.take("replicates", "200"), 1, calib::max_replicates));
    plan.level = parse_double("level", args.take("level", "0.95"));
    if (!(plan.level > 0 && plan.level < 1)) throw usage_error("option --level must be in (0, 1)");
    plan.format = args.take("format", "json");
    if (plan.format != "json" && plan.format != "table")
        throw usage_error("option --format " + plan.format + ", expected json or table");
    const bool kernel = plan.uses("ckce") || plan.uses("skce-unbiased");
    plan.ckce = take_ckce_options(args, false);
    if (!plan.uses("ckce"))
        for (const char* option : {"ckce-method", "lambda", "lambda-power", "features", "rank", "tolerance"})
            if (args.has(option)) throw usage_error(std::string("option --") + option + " applies only to the ckce estimator");
    if (!kernel && args.has("lengthscale"))
        throw usage_error("option --lengthscale applies only to the ckce and skce-unbiased estimators");
    if (plan.uses("ece")) plan.ece = take_ece_options(args, "uniform:3", "l1");
    plan.seed = plan.ckce.options.seed;
    const bool quiet = args.take_flag("quiet");
    std::string listed;
    for (const std::string& name : plan.estimators) listed += (listed.empty() ? "" : ",") + name;
    args.reject_unused("calib rank --estimators " + listed);
    if (stage == Stage::options) return 0;

    std::vector<CategoricalData> models;
    for (const std::string& file : plan.files) {
        models.push_back(std::get<CategoricalData>(read_dataset(plan.family, file, read, &plan.read)));
        plan.max_simplex_deviation = std::max(plan.max_simplex_deviation, models.back().max_simplex_deviation());
    }
    check_same_labels(models, plan.files);
    plan.n = models.front().size();

    ProgressBar bar("calib rank", !quiet);
    const ParallelOptions parallel{plan.threads, &bar};
    ComparisonOptions options;
    options.estimators.clear();
    for (const std::string& name : plan.estimators) options.estimators.push_back(parse_compared_estimator(name));
    for (const CategoricalData& d : models) {
        plan.resolved.push_back(resolve_ckce(plan.ckce, d, parallel));
        options.ckce.push_back(plan.resolved.back().options);
    }
    options.ece = plan.ece.options;
    options.replicates = plan.replicates;
    options.level = plan.level;
    options.seed = plan.seed;
    options.parallel = parallel;
    const Stopwatch stopwatch;
    const ModelComparison comparison = compare_models(models, options);
    plan.compute_seconds = stopwatch.seconds();
    bar.finish();
    if (plan.format == "json")
        std::cout << rank_json(plan, comparison).dump() << '\n';
    else
        std::cout << rank_table(plan, comparison);
    return 0;
}

}  // namespace calib::cli

// `calib rank`: models evaluated on the same labelled data, ranked by calibration errors, with
// paired bootstrap intervals for the differences (the registry's ComparisonSetup; compare.hpp).
#include "commands.hpp"

#include "args.hpp"
#include "progress_bar.hpp"
#include "rank_output.hpp"
#include "run_output.hpp"
#include "setup_options.hpp"
#include "shared_options.hpp"
#include "usage_error.hpp"

#include <calib/errors.hpp>
#include <calib/registry.hpp>

#include <algorithm>
#include <iostream>

namespace calib::cli {

namespace {

std::vector<OptionSpec> rank_option_specs() {
    std::vector<OptionSpec> specs = {{"family", true}, {"threads", true}, {"quiet", false}, {"help", false},
                                     {"format", true}};
    specs.insert(specs.end(), reading_option_specs.begin(), reading_option_specs.end());
    add_option_specs(specs, ComparisonSetup().options());
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
        std::cout << rank_help();
        return 0;
    }
    std::vector<std::string> rest;
    RankRun run;
    run.files = take_inputs(arguments, rest);
    Args args(rest, rank_option_specs(), "rank");
    run.family = &take_family(args);
    if (!run.family->classes)
        throw usage_error("calib rank applies to --family categorical or binary, not " + run.family->name);
    const ReadOptions read = take_reading_options(args, *run.family);
    run.threads = take_threads(args);
    const OutputFormat format = take_format(args);
    ComparisonSetup setup;
    take_setup_options(args, setup);
    run.setup = &setup;
    const bool quiet = args.take_flag("quiet");
    std::string listed;
    for (const std::string& name : setup.estimators()) listed += (listed.empty() ? "" : ",") + name;
    reject_unused(args, {&setup}, "calib rank --estimators " + listed);
    if (stage == Stage::options) return 0;

    std::vector<CategoricalData> models;
    InputOptions input{run.family, "", read};
    for (const std::string& file : run.files) {
        input.path = file;
        models.push_back(std::get<CategoricalData>(read_input(input, &run.read)));
        run.max_simplex_deviation = std::max(run.max_simplex_deviation, models.back().max_simplex_deviation());
    }
    check_same_labels(models, run.files);
    run.n = models.front().size();

    ProgressBar bar("calib rank", !quiet);
    const Stopwatch stopwatch;
    run.comparison = setup.run(models, ParallelOptions{run.threads, &bar});
    run.compute_seconds = stopwatch.seconds();
    bar.finish();
    if (format == OutputFormat::json)
        std::cout << rank_json(run).dump() << '\n';
    else
        std::cout << rank_table(run);
    return 0;
}

}  // namespace calib::cli

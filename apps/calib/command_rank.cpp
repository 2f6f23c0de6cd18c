// `calib rank`: models evaluated on the same labelled data, ranked by calibration errors, with
// paired bootstrap intervals for the differences (the registry's ComparisonSetup; compare.hpp).
#include "commands.hpp"

#include "args.hpp"
#include "model_files.hpp"
#include "progress_bar.hpp"
#include "rank_output.hpp"
#include "run_output.hpp"
#include "setup_options.hpp"
#include "shared_options.hpp"

#include <calib/registry.hpp>

#include <algorithm>
#include <iostream>

namespace calib::cli {

namespace {

std::vector<OptionSpec> rank_option_specs() {
    std::vector<OptionSpec> specs = command_option_specs("rank");
    add_option_specs(specs, ComparisonSetup().options());
    return specs;
}

}  // namespace

int run_rank(const std::vector<std::string>& arguments, Stage stage) {
    if (wants_help(arguments)) {
        std::cout << rank_help();
        return 0;
    }
    std::vector<std::string> rest;
    RankRun run;
    run.files = take_model_files(arguments, rest, "rank");
    Args args(rest, rank_option_specs(), "rank");
    run.family = &take_family(args);
    check_classes("calib rank", *run.family);
    const ReadOptions read = take_reading_options(args, *run.family);
    const CommandOptions command = take_command_options(args, "rank").values();
    run.threads = command.threads;
    const OutputFormat format = output_format(command);
    ComparisonSetup setup;
    take_setup_options(args, setup);
    reject_unused(args, {&setup}, message_context(setup));
    if (stage == Stage::options) return 0;

    std::vector<CategoricalData> models;
    InputOptions input{run.family, "", read};
    for (const std::string& file : run.files) {
        input.path = file;
        models.push_back(std::get<CategoricalData>(read_input(input, &run.read)));
        run.max_simplex_deviation = std::max(run.max_simplex_deviation, models.back().max_simplex_deviation());
    }
    check_same_labels(models, run.files, "calib rank");

    ProgressBar bar("calib rank", !command.quiet);
    run.comparison = setup.run(models, ParallelOptions{run.threads, &bar});
    bar.finish();
    if (format == OutputFormat::json)
        std::cout << json_output(rank_json(run)) << '\n';
    else
        std::cout << rank_table(run);
    return 0;
}

}  // namespace calib::cli

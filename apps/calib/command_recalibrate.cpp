// `calib recalibrate fit|apply`: a recalibration map fitted on a validation file (RecalibrationSetup::run,
// with --holdout judged on a held-out split) and written as JSON; and a map file applied to new
// predictions.
#include "commands.hpp"

#include "args.hpp"
#include "run_output.hpp"
#include "setup_options.hpp"
#include "shared_options.hpp"
#include "usage_error.hpp"

#include <calib/recalibration.hpp>
#include <calib/registry.hpp>
#include <calib/tool/recalibration_json.hpp>
#include <calib/version.hpp>

#include <fstream>
#include <iostream>
#include <sstream>

namespace calib::cli {

namespace {

std::vector<OptionSpec> fit_specs() {
    std::vector<OptionSpec> specs = command_option_specs("recalibrate fit");
    specs.push_back({"features", true});
    for (const char* family : {"categorical", "normal"})
        add_option_specs(specs, RecalibrationSetup(find_family(family)).options());
    return specs;
}

std::string read_text_file(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file) throw invalid_argument(path + ": cannot be opened");
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
}

int run_recalibrate_fit(const std::vector<std::string>& arguments, Stage stage) {
    Args args(arguments, fit_specs(), "recalibrate fit");
    InputOptions input = take_input_options(args);
    RecalibrationSetup setup(*input.family);
    take_setup_options(args, setup);
    const std::optional<std::string> features_path = args.take("features");
    setup.check_features(features_path.has_value());
    const RecalibrationMethod method = setup.method();
    const RecalibrationOptions options = setup.fit_options();
    const bool categorical = input.family->name == "categorical";
    const bool mmd = options.objective == RecalibrationObjective::nll_mmd;
    const CommandSetup command = take_command_options(args, "recalibrate fit");
    const std::string map_path = command.values().out;
    reject_unused(args, {&setup}, message_context(setup));
    if (stage == Stage::options) return 0;
    check_writable(map_path);  // before the fit, not after it

    RunRecord run;
    run.threads = command.values().threads;
    JsonObject out;
    out.set("command", "recalibrate fit").set("method", to_string(method)).set("objective", to_string(options.objective));
    if (mmd) out.set("lambda", options.lambda).set("notion", to_string(options.notion));
    RecalibrationData data;
    if (categorical) {
        CategoricalScores scores = read_categorical_scores(input.path, input.read, &run.files);
        warn_if_one_based(scores.labels, scores.scores.cols(), input);
        data.data = std::move(scores);
    } else {
        data.data = std::get<NormalData>(read_input(input, &run.files));
        if (features_path) {
            FileSummary summary;
            data.features = read_table(*features_path, input.read.text, &summary);
            run.files.push_back(summary);
        }
    }
    out.set("n", data.size());
    const RecalibrationRun fitted = setup.run(data, ParallelOptions{run.threads});
    if (!fitted.holdout.empty()) out.set("holdout", JsonObject().merge(fitted.holdout));
    const RecalibrationFit& fit = fitted.fit;
    run.compute_seconds = fitted.compute_seconds;
    write_file(map_path, to_json(fit));
    const RecalibrationMap& map = fit.map;
    const FitSummary& summary = fit.summary;
    out.set("parameters", parameters_json(map));  // by name, as in the map file
    out.set("objective_before", summary.objective_before).set("objective_after", summary.objective_after);
    if (mmd) out.set("mmd_block_size", map.mmd_block_size).set("mmd_lengthscale", map.mmd_lengthscale);
    if (mmd && !categorical) {
        out.set("kernel_y", to_string(map.mmd_target));
        if (map.mmd_target_lengthscale > 0) out.set("mmd_target_lengthscale", map.mmd_target_lengthscale);
        if (map.mmd_target == GaussianTarget::sign) out.set("mmd_threshold", map.mmd_threshold);
        if (map.mmd_marginalisation != MmdMarginalisation::analytic)
            out.set("mmd_samples", map.mmd_samples).set("mmd_seed", map.mmd_seed);
    }
    out.set("iterations", summary.iterations).set("evaluations", summary.evaluations);
    out.set("status", to_string(summary.termination));
    add_options(out, fitted.options);
    out.set("map", map_path);
    print_with_run_fields(out, input, run);
    return 0;
}

int run_recalibrate_apply(const std::vector<std::string>& arguments, Stage stage) {
    std::vector<OptionSpec> specs = {{"input", true}, {"help", false}};
    add_option_specs(specs, CommandSetup("recalibrate apply").options());
    Args args(arguments, specs, "recalibrate apply");
    const std::string input = args.take_required("input", "FILE (.csv, .txt, .npy; - for stdin)");
    const CommandSetup command = take_command_options(args, "recalibrate apply");
    const CommandOptions& o = command.values();
    const std::string& map_path = o.map;
    const std::string& output = o.output;
    reject_unused(args, {&command}, "calib recalibrate apply");
    if (stage == Stage::options) return 0;
    check_writable(output);

    RecalibrationMap map;
    try {
        map = recalibration_fit_from_json(read_text_file(map_path)).map;
    } catch (const invalid_argument& e) {  // the file's name before the reader's message
        throw invalid_argument(map_path + ": " + e.what());
    }
    check_apply_features(map, command.given("features"));
    const Matrix table = read_table(input, o.text);
    const Matrix features = command.given("features") ? read_table(o.features, o.text) : Matrix();
    const bool categorical = is_categorical(map.method);
    const Eigen::Index width = categorical ? map.num_classes : 2;
    if (table.cols() != width && table.cols() != width + 1)  // the file's form: the map's columns and the targets
        throw invalid_argument(input + ": found " + std::to_string(table.cols()) + " columns, expected " +
                               std::to_string(width) + (categorical ? " (the map's classes)" : " (mu, sigma)") +
                               " or one more (the targets, copied)");
    Matrix result(table.rows(), table.cols());
    std::vector<std::string> names;
    if (categorical) {
        result.leftCols(width) = apply_recalibration(map, Matrix(table.leftCols(width)));
        for (Eigen::Index k = 0; k < width; ++k) names.push_back("p_" + std::to_string(k + 1));
    } else {
        result.leftCols(2) = apply_recalibration(map, table.col(0), table.col(1), features);
        names = {"mu", "sigma"};
    }
    if (table.cols() > width) {
        result.col(width) = table.col(width);
        names.push_back(categorical ? "label" : "y");
    }
    write_table(output, result, names);
    JsonObject out;
    out.set("command", "recalibrate apply").set("method", to_string(map.method)).set("map", map_path);
    out.set("input", input).set("output", output).set("n", static_cast<std::size_t>(table.rows()));
    out.set("columns", static_cast<std::size_t>(result.cols())).set("calib_version", std::string(version));
    std::cout << json_output(out) << '\n';
    return 0;
}

}  // namespace

int run_recalibrate(const std::vector<std::string>& arguments, Stage stage) {
    if (wants_help(arguments)) {
        std::cout << recalibrate_help();
        return 0;
    }
    if (arguments.empty()) throw usage_error("calib recalibrate needs a subcommand: fit or apply (see 'calib recalibrate --help')");
    const std::vector<std::string> rest(arguments.begin() + 1, arguments.end());
    if (arguments.front() == "fit") return run_recalibrate_fit(rest, stage);
    if (arguments.front() == "apply") return run_recalibrate_apply(rest, stage);
    throw usage_error("unknown subcommand 'recalibrate " + arguments.front() + "' (fit or apply)");
}

}  // namespace calib::cli

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

#include <iostream>

namespace calib::cli {

namespace {

std::vector<OptionSpec> fit_specs() {
    std::vector<OptionSpec> specs = command_option_specs("recalibrate fit");
    specs.push_back({"features", true, "", true});
    for (const char* family : {"categorical", "normal"})
        add_option_specs(specs, RecalibrationSetup(find_family(family)).options());
    return specs;
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
    check_output(args, "out", map_path);  // before the fit, not after it

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
    if (!fitted.warnings.empty()) {
        std::vector<std::string> said;
        for (const std::string& warning : fitted.warnings) {
            warn(warning);
            said.push_back(command_line_message(warning));
        }
        out.set("warnings", said);
    }
    add_options(out, fitted.options);
    out.set("map", map_path);
    print_with_run_fields(out, input, run);
    return 0;
}

int run_recalibrate_apply(const std::vector<std::string>& arguments, Stage stage) {
    std::vector<OptionSpec> specs = {{"input", true, "", true}, {"help", false}};
    add_option_specs(specs, CommandSetup("recalibrate apply").options());
    Args args(arguments, specs, "recalibrate apply");
    const std::string input = args.take_required("input", "FILE (.csv, .txt, .npy; - for stdin)");
    const CommandSetup command = take_command_options(args, "recalibrate apply");
    const CommandOptions& o = command.values();
    const std::string& map_path = o.map;
    const std::string& output = o.output;
    reject_unused(args, {&command}, "calib recalibrate apply");
    if (stage == Stage::options) return 0;
    check_output(args, "output", output);

    const std::string map_text = read_map_text(map_path);  // its errors name the file
    RecalibrationMap map;
    try {
        map = recalibration_fit_from_json(map_text).map;
    } catch (const invalid_argument& e) {  // the file's name before the parser's message
        throw invalid_argument(map_path + ": " + e.what());
    }
    check_apply_options(map, command, command.given("features"));
    // The input as the family's reader reads it: the map's columns, and with --labelled the labels (or y)
    // checked as calib estimate checks them; they are copied to the output as given.
    const bool categorical = is_categorical(map.method);
    ReadOptions read = o.read;
    read.classes = categorical ? map.num_classes : 0;
    read.logits = map.logits;
    Matrix predictions;
    Vector targets;
    if (categorical && o.labelled) {
        const CategoricalScores scores = read_categorical_scores(input, read);
        predictions = scores.scores;
        targets.resize(static_cast<Eigen::Index>(scores.labels.size()));
        for (Eigen::Index i = 0; i < targets.size(); ++i)
            targets[i] = scores.labels[static_cast<std::size_t>(i)] + (read.one_based_labels ? 1 : 0);
    } else if (categorical) {
        predictions = read_class_predictions(input, read);
    } else if (o.labelled) {
        const NormalData forecasts = read_normal(input, read);
        predictions.resize(forecasts.size(), 2);
        predictions.col(0) = forecasts.mean();
        predictions.col(1) = forecasts.stddev();
        targets = forecasts.targets();
    } else {
        predictions = read_table(input, read.text);
        if (predictions.cols() != 2)
            throw invalid_argument(input + ": found " + std::to_string(predictions.cols()) +
                                   " columns, expected 2 (mu, sigma; with `labelled`, 3: mu, sigma, y)");
    }
    const Matrix features = command.given("features") ? read_table(o.features, read.text) : Matrix();
    const Eigen::Index width = predictions.cols();
    Matrix result(predictions.rows(), targets.size() ? width + 1 : width);
    std::vector<std::string> names;
    if (categorical) {
        result.leftCols(width) = apply_recalibration(map, predictions);
        for (Eigen::Index k = 0; k < width; ++k) names.push_back("p_" + std::to_string(k + 1));
    } else {
        result.leftCols(2) = apply_recalibration(map, predictions.col(0), predictions.col(1), features);
        names = {"mu", "sigma"};
    }
    if (targets.size()) {
        result.col(width) = targets;
        names.push_back(categorical ? "label" : "y");
    }
    write_table(output, result, names);
    JsonObject out;
    out.set("command", "recalibrate apply").set("method", to_string(map.method)).set("map", map_path);
    out.set("input", input).set("output", output).set("n", static_cast<std::size_t>(result.rows()));
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

// `calib recalibrate fit|apply`: a recalibration map fitted on a validation file (the operation
// `recalibrate fit`, with --holdout judged on a held-out split) and written as JSON; and a map file
// applied to new predictions.
#include "commands.hpp"

#include "args.hpp"
#include "operation_call.hpp"
#include "run_output.hpp"
#include "setup_options.hpp"
#include "shared_options.hpp"
#include "usage_error.hpp"

#include <calib/recalibration.hpp>
#include <calib/registry.hpp>
#include <calib/version.hpp>

#include <any>
#include <iostream>
#include <memory>

namespace calib::cli {

namespace {

// The library's operation `recalibrate fit` called as every operation is (operation_call.hpp); the map,
// the record's product, written to --out, and the record printed as one JSON object with the map's path.
int run_recalibrate_fit(const std::vector<std::string>& arguments, Stage stage) {
    OperationCall call(find_operation("recalibrate fit"), arguments);
    const std::string map_path = call.command.values().out;
    if (stage == Stage::options) return 0;
    check_output(call.args, "out", map_path);  // before the fit, not after it

    RunRecord run;
    run.threads = call.command.values().threads;
    const std::vector<ModelData> models = call.read_models(run);
    const OperationRecord record = call.configured->run(models, {}, ParallelOptions{run.threads});
    run.compute_seconds = record.compute_seconds;
    write_file(map_path, to_json(*std::any_cast<std::shared_ptr<const RecalibrationFit>>(record.product)));
    for (const std::string& warning : record.warnings) warn(warning);
    JsonObject out = operation_json(record);
    out.set("map", map_path);
    print_with_run_fields(out, call.input, run);
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

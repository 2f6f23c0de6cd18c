// `calib recalibrate fit|apply`: the library's operations `recalibrate fit` (a map fitted on a validation
// file, with --holdout judged on a held-out split, written as JSON) and `recalibrate apply` (a map file
// applied to new predictions, written as a table), called as every operation is (operation_call.hpp).
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

// The library's operation `recalibrate apply`, its product (the recalibrated predictions, with the
// labels or targets when --labelled) written to --output with a header line of their names, and a
// venn-abers map's intervals of p_2 to --intervals: a file of their own, so that --output is always a
// table of predictions that calib reads back.
int run_recalibrate_apply(const std::vector<std::string>& arguments, Stage stage) {
    OperationCall call(find_operation("recalibrate apply"), arguments);
    const std::string output = call.command.values().output;
    const bool intervals = call.command.given("intervals");
    if (stage == Stage::options) return 0;
    check_output(call.args, "output", output);
    if (intervals) check_output(call.args, "intervals", call.command.values().intervals);
    const PredictionReading reading = *call.configured->reading();  // the map read: refused before the work
    if (intervals && !reading.intervals)
        throw usage_error("--intervals applies only to a venn-abers map, not to " + reading.method);

    RunRecord run;
    const std::vector<ModelData> models = call.read_models(run);
    const OperationRecord record = call.configured->run(models, {}, ParallelOptions{});
    run.compute_seconds = record.compute_seconds;
    const Predictions& predictions = *std::any_cast<std::shared_ptr<const Predictions>>(record.product);
    const bool classes = call.input.family->name == "categorical";
    std::vector<std::string> names;
    for (Eigen::Index k = 0; k < predictions.values.cols(); ++k)
        names.push_back(classes ? "p_" + std::to_string(k + 1) : k == 0 ? "mu" : "sigma");
    Matrix table(predictions.values.rows(), predictions.values.cols() + (predictions.observations.size() ? 1 : 0));
    table.leftCols(predictions.values.cols()) = predictions.values;
    if (predictions.observations.size()) {
        table.rightCols(1) = predictions.observations;
        names.push_back(classes ? "label" : "y");
    }
    if (intervals) write_table(call.command.values().intervals, predictions.intervals, {"lower", "upper"});
    write_table(output, table, names);
    JsonObject out = operation_json(record);
    out.set("output", output);
    if (intervals) out.set("intervals", call.command.values().intervals);
    print_with_run_fields(out, call.input, run);
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

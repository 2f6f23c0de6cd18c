// An operation called from the command line (operation_call.hpp).
#include "operation_call.hpp"

#include "model_files.hpp"
#include "setup_options.hpp"

#include <calib/recalibration.hpp>

#include <algorithm>

namespace calib::cli {

namespace {

// An operation that reads predictions alone takes its reading options itself, and no family (the
// command's input is --input FILE, its reading the operation's).
std::vector<OptionSpec> operation_option_specs(const Operation& operation) {
    std::vector<OptionSpec> specs = operation.info().reads == ModelKind::predictions
                                        ? std::vector<OptionSpec>{{"input", true, "", true}, {"help", false}}
                                        : command_option_specs(operation.info().name);
    if (operation.info().reads == ModelKind::predictions)
        add_option_specs(specs, CommandSetup(operation.info().name).options());
    add_option_specs(specs, operation.options());
    return specs;
}

// The arguments but the model files; several models: the files after --input, put in `files`
// (take_model_files); one: --input FILE is an option as any other.
std::vector<std::string> without_model_files(const OperationInfo& info, const std::vector<std::string>& arguments,
                                             std::vector<std::string>& files) {
    if (info.max_models == 1) return arguments;
    std::vector<std::string> rest;
    files = take_model_files(arguments, rest, info);
    return rest;
}

}  // namespace

OperationCall::OperationCall(const Operation& op, const std::vector<std::string>& arguments)
    : operation(op),
      args(without_model_files(op.info(), arguments, model_files), operation_option_specs(op), op.info().name),
      command(op.info().name) {
    const OperationInfo& info = operation.info();
    if (info.reads == ModelKind::predictions) {  // read as the operation says (reading(): read_models)
        input.family = &families().front();
        input.path = args.take_required("input", "FILE (.csv, .txt, .npy; - for stdin)");
        model_files = {input.path};
    } else if (info.max_models > 1) {
        input.family = &take_family(args);
        check_family(info, *input.family, model_files.size());
        input.read = take_reading_options(args, *input.family);
    } else {
        input = take_input_options(args);
        check_family(info, *input.family, 1);
        model_files = {input.path};
    }
    command = take_command_options(args, info.name);
    ArgumentOptions given(args);
    configured = operation.configure(*input.family, given);
}

std::vector<ModelData> OperationCall::read_models(RunRecord& run, std::vector<std::vector<std::string>>* paths) {
    std::vector<ModelData> models;
    for (const std::string& file : model_files) {
        input.path = file;
        const std::size_t before = run.files.size();
        if (operation.info().reads == ModelKind::predictions) {
            const PredictionReading reading = *configured->reading();  // reads the operation's own inputs
            input.family = reading.family;
            input.read = reading.read;
            models.push_back({file, read_predictions(file, reading, &run.files)});
        } else if (operation.info().reads == ModelKind::scores && input.family->name == "categorical") {
            CategoricalScores scores = read_categorical_scores(file, input.read, &run.files);
            warn_if_one_based(scores.labels, scores.scores.cols(), input);
            models.push_back({file, std::move(scores)});
        } else {
            models.push_back({file, read_input(input, &run.files)});
        }
        if (paths) {
            paths->emplace_back();
            for (std::size_t f = before; f < run.files.size(); ++f) paths->back().push_back(run.files[f].path);
        }
        if (const auto* data = std::get_if<AnyData>(&models.back().value))
            if (const auto deviation = max_simplex_deviation(*data))
                run.max_simplex_deviation = std::max(run.max_simplex_deviation.value_or(0), *deviation);
    }
    if (models.size() > 1) run.inputs = model_files;
    return models;
}

DataSets OperationCall::read_inputs(RunRecord& run) {
    DataSets inputs;
    for (const InputRequest& request : configured->inputs())
        inputs.emplace(request.option, read_data_set(input, request.source, &run.files));
    return inputs;
}

}  // namespace calib::cli

// The input, reading, thread and format options shared by the analysis subcommands (shared_options.hpp).
#include "shared_options.hpp"

#include "processes.hpp"
#include "setup_options.hpp"
#include "usage_error.hpp"

#include <calib/errors.hpp>
#include <calib/options.hpp>
#include <calib/parallel.hpp>
#include <calib/recalibration.hpp>

#include <algorithm>
#include <iostream>

namespace calib::cli {

const std::vector<OptionSpec> reading_option_specs = [] {
    std::vector<OptionSpec> specs;
    add_option_specs(specs, reading_options(true));
    specs.push_back({"targets", true, "labels", true});
    return specs;
}();

std::vector<OptionSpec> command_option_specs(const std::string& command) {
    std::vector<OptionSpec> specs = {{"family", true}, {"input", true, "", true}, {"help", false}};
    specs.insert(specs.end(), reading_option_specs.begin(), reading_option_specs.end());
    add_option_specs(specs, CommandSetup(command).options());
    return specs;
}

void check_output(const Args& args, const std::string& option, const std::string& path,
                  const std::vector<std::string>& model_files) {
    std::vector<FileOption> inputs;
    for (FileOption& given : args.given_files())
        if (given.option != option) inputs.push_back(std::move(given));
    for (const std::string& file : model_files) inputs.push_back({"input", file});
    check_not_an_input({option, path}, inputs);
    check_writable(path);
}

const FamilyInfo& take_family(Args& args) {
    return find_family(args.take_required("family", family_names()));
}

ReadOptions take_reading_options(Args& args, const FamilyInfo& family) {
    ReadingSetup reading(family, true);
    take_setup_options(args, reading);
    for (std::string name : args.unused()) {
        std::replace(name.begin(), name.end(), '-', '_');
        if (const std::string why = reading_option_message(name, reading); !why.empty())
            throw usage_error(command_line_message(why));
    }
    return reading.read_options();
}

InputOptions take_input_options(Args& args) {
    InputOptions input;
    input.family = &take_family(args);
    input.path = args.take_required("input", "FILE (.csv, .txt, .npy; - for stdin)");
    input.read = take_reading_options(args, *input.family);
    return input;
}

CommandSetup take_command_options(Args& args, const std::string& command) {
    CommandSetup setup(command);
    take_setup_options(args, setup);
    return setup;
}

OutputFormat output_format(const CommandOptions& options) {
    return options.format == "table" ? OutputFormat::table : OutputFormat::json;
}

void warn(const std::string& message) {
    std::cerr << "calib: warning: " << render_message(message, NameStyle::command_line) << '\n';
}

namespace {

// A likely 1-based file read as 0-based (zero_label_warning), said once with the labels' file.
void warn_if_one_based(const std::vector<int>& labels, long num_classes, const std::string& path,
                       const ReadOptions& options) {
    const std::string warning = zero_label_warning(labels, num_classes, options.one_based_labels);
    if (warning.empty()) return;
    const std::string file = options.labels.empty() ? path : options.labels;
    warn((file == "-" ? "stdin" : file) + ": " + warning);
}

// The family's reader on `path` and read.labels, from rank 0's bytes under MPI (processes.hpp).
// Warns of likely 1-based labels (the file names as the user gave them).
AnyData read_family(const FamilyInfo& family, const std::string& path, const ReadOptions& read,
                    std::vector<FileSummary>* files) {
    const SharedInput input(path), labels(read.labels);
    ReadOptions shared = read;
    shared.labels = labels.path();
    AnyData data = family.read(input.path(), shared, files);
    if (family.labels_options) {
        const auto& categorical = std::get<CategoricalData>(data);
        warn_if_one_based(categorical.labels(), categorical.num_classes(), path, read);
    }
    return data;
}

}  // namespace

void warn_if_one_based(const std::vector<int>& labels, long num_classes, const InputOptions& input) {
    warn_if_one_based(labels, num_classes, input.path, input.read);
}

AnyData read_input(const InputOptions& input, std::vector<FileSummary>* files) {
    return read_family(*input.family, input.path, input.read, files);
}

// Their labels are in their last column, whatever --labels says for the input; the methods check that
// they live in the predictions' space (the same classes or dimension), for every front-end.
AnyData read_data_set(const InputOptions& input, const std::string& path, std::vector<FileSummary>* files) {
    ReadOptions own = input.read;
    own.labels.clear();
    return read_family(*input.family, path, own, files);
}

Predictions read_predictions(const std::string& path, const PredictionReading& reading, std::vector<FileSummary>* files) {
    const ReadOptions& read = reading.read;
    Predictions out;
    if (reading.family->name == "categorical") {
        if (!reading.labelled) {
            FileSummary summary;
            out.values = read_class_predictions(path, read, files ? &summary : nullptr);
            if (files) files->push_back(std::move(summary));
            return out;
        }
        CategoricalScores scores = read_categorical_scores(path, read, files);
        out.values = std::move(scores.scores);
        out.observations.resize(static_cast<Eigen::Index>(scores.labels.size()));
        for (Eigen::Index i = 0; i < out.observations.size(); ++i)
            out.observations[i] = scores.labels[static_cast<std::size_t>(i)] + (read.one_based_labels ? 1 : 0);
        return out;
    }
    if (reading.labelled) {
        const NormalData forecasts = read_normal(path, read, files);
        out.values.resize(forecasts.size(), 2);
        out.values.col(0) = forecasts.mean();
        out.values.col(1) = forecasts.stddev();
        out.observations = forecasts.targets();
        return out;
    }
    FileSummary summary;
    out.values = read_table(path, read.text, files ? &summary : nullptr);
    if (files) files->push_back(std::move(summary));
    if (out.values.cols() != 2)
        throw invalid_argument(path + ": found " + std::to_string(out.values.cols()) +
                               " columns, expected 2 (mu, sigma; with `labelled`, 3: mu, sigma, y)");
    return out;
}

}  // namespace calib::cli

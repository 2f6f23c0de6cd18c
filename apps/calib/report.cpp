// The readable reports of `calib estimate` and `calib test` (report.hpp).
#include "report.hpp"

#include "usage_error.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>

namespace calib::cli {

OutputFormat take_format(Args& args) {
    const std::string format = args.take("format", "json");
    if (format == "json") return OutputFormat::json;
    if (format == "table") return OutputFormat::table;
    throw usage_error("option --format " + format + ", expected json or table");
}

Report& Report::line(const std::string& label, const std::string& text) {
    lines_.emplace_back(label, text);
    return *this;
}

std::string Report::str() const {
    std::size_t width = 0;
    for (const auto& [label, text] : lines_) width = std::max(width, label.size());
    std::string out = title_ + "\n";
    for (const auto& [label, text] : lines_)
        out += "  " + label + std::string(width - label.size() + 2, ' ') + text + "\n";
    return out;
}

std::string readable(double x, int digits) {
    if (!std::isfinite(x)) return std::isnan(x) ? "nan" : x > 0 ? "inf" : "-inf";
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, x);
    return buffer;
}

namespace {

std::string shown_path(const std::string& path) { return path == "-" ? "stdin" : path; }

}  // namespace

std::string describe_data(const InputOptions& input, const Dataset& data) {
    std::string files = shown_path(input.path);
    if (!input.read.labels.empty()) files += " + " + shown_path(input.read.labels);
    std::string what = std::to_string(size_of(data)) + " observations, ";
    if (const auto* c = std::get_if<CategoricalData>(&data))
        what += input.family == Family::binary ? "binary predictions"
                                               : std::to_string(c->num_classes()) + " classes (categorical)";
    else if (const auto* mv = std::get_if<MvNormalData>(&data))
        what += std::string(mv->is_diagonal() ? "diagonal " : "") + "multivariate normal predictions of dimension " +
                std::to_string(mv->dimension());
    else if (const auto* mix = std::get_if<MixtureNormalData>(&data))
        what += "mixtures of " + std::to_string(mix->num_components()) + " normals";
    else
        what += to_string(input.family) + " predictions";
    return files + ": " + what;
}

std::string describe_kernel(const KernelOptions& options, const Kernel& kernel) {
    const PredictionKernel& p = kernel.prediction;
    const std::string d = to_string(p.metric);
    std::string text = p.shape == PredictionKernelShape::exp ? "exp(-" + d + "/l)" : "exp(-" + d + "^2/(2 l^2))";
    text += " x " + to_string(kernel.target.type);
    if (kernel.target.type != TargetKernelType::white)
        text += " (lengthscale " + readable(kernel.target.lengthscale) + ")";
    text += ", l = " + readable(p.lengthscale);
    if (!options.median) return text + " (given)";
    text += options.median->variant == MedianVariant::pairs
                ? " (median of the distances between predictions"
                : " (median of the distances over all n^2 pairs, diagonal included";
    if (options.median->subsample) text += ", on a subsample of " + std::to_string(options.median->subsample);
    return text + ")";
}

std::string describe_run(const RunRecord& run) {
    return readable(seconds_since_start(), 3) + " s in all, " + readable(run.compute_seconds, 3) + " s computing, " +
           std::to_string(calib::resolve_num_threads(run.threads)) + " thread(s)";
}

void print_result(OutputFormat format, JsonObject& out, Report& report, const InputOptions& input,
                  const RunRecord& run) {
    if (format == OutputFormat::json) return print_with_run_fields(out, input, run);
    report.line("time", describe_run(run));
    std::cout << report.str();
}

std::string describe_p_value(const TestResult& result) {
    const bool resampled = result.method == "bootstrap" || result.method == "spectral" ||
                           result.method == "consistency";
    if (resampled && result.p_value == 0) {
        const double r = result.detail("replicates");
        return "< " + readable(1 / r, 3) + " (no replicate of " + readable(r) +
               " reached the statistic; more replicates resolve smaller p-values)";
    }
    return readable(result.p_value, 4);
}

std::string describe_verdict(const TestResult& result, double alpha, bool alpha_given) {
    const std::string level = "alpha = " + readable(alpha) + (alpha_given ? "" : " (the default; --alpha changes it)");
    if (result.p_value < alpha) return "NOT CALIBRATED: calibration is rejected at " + level;
    return "consistent with calibration: not rejected at " + level;
}

}  // namespace calib::cli

// The readable form of numbers and results (operation.hpp), the same in every front-end: the command
// line's tables and HTML report, the operations' words.
#include <calib/operation.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace calib {

std::string readable(double x, int digits) {
    if (!std::isfinite(x)) return std::isnan(x) ? "nan" : x > 0 ? "inf" : "-inf";
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, x);
    return buffer;
}

std::string describe_record(const Record& record) {
    std::string out;
    for (const Field& f : record) {
        const auto* x = std::get_if<double>(&f.value);
        out += (out.empty() ? "" : ", ") + f.name + " " + (x ? readable(*x) : to_text(f.value));
    }
    return out;
}

std::string describe_kernel(const KernelSetup& setup, const Kernel& kernel) {
    const PredictionKernel& p = kernel.prediction;
    const std::string d = to_string(p.metric);
    std::string text = p.shape == PredictionKernelShape::exp ? "exp(-" + d + "/l)" : "exp(-" + d + "^2/(2 l^2))";
    text += " x " + to_string(kernel.target.type);
    if (kernel.target.type != TargetKernelType::white)
        text += " (lengthscale " + readable(kernel.target.lengthscale) + ")";
    text += ", l = " + readable(p.lengthscale);
    const std::string rule = to_text(setup.get("lengthscale"));
    if (rule != "median" && rule != "median-full") return text + " (given)";
    text += rule == "median" ? " (median of the distances between predictions"
                             : " (median of the distances over all n^2 pairs, diagonal included";
    if (setup.given("median_subsample")) text += ", on a subsample of " + to_text(setup.get("median_subsample"));
    return text + ")";
}

std::string describe_p_value(const TestResult& result) {
    const Record r = result.record();
    const auto replicates = std::find_if(r.begin(), r.end(), [](const Field& f) { return f.name == "replicates"; });
    if (replicates != r.end() && result.p_value == 0) {
        const double count = to_double(replicates->value);
        return "< " + readable(1 / count, 3) + " (no replicate of " + readable(count) +
               " reached the statistic; more replicates resolve smaller p-values)";
    }
    return readable(result.p_value, 4);
}

std::string describe_verdict(const TestResult& result, double alpha, bool alpha_given) {
    const std::string level = "alpha = " + readable(alpha) + (alpha_given ? "" : " (the default; `alpha` changes it)");
    if (result.p_value < alpha) return "NOT CALIBRATED: calibration is rejected at " + level;
    const std::string note = low_power_note(result);
    return "consistent with calibration: not rejected at " + level + (note.empty() ? "" : "; but little power: " + note);
}

}  // namespace calib

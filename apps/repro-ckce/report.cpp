// Output pieces of repro-ckce (report.hpp).
#include "report.hpp"

#include <calib/version.hpp>

#include <omp.h>

#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace repro {

int RunContext::resolved_threads() const { return threads > 0 ? threads : omp_get_max_threads(); }

CsvFile::CsvFile(const std::string& path, const std::string& header) : path_(path), out_(path) {
    if (!out_) throw std::runtime_error("cannot write " + path);
    out_ << header << '\n';
}

void CsvFile::row(const std::vector<std::string>& cells) {
    for (std::size_t i = 0; i < cells.size(); ++i) out_ << (i ? "," : "") << cells[i];
    out_ << '\n';
}

void CsvFile::close() {
    out_.close();
    if (!out_) throw std::runtime_error("cannot write " + path_);
}

std::string num(double x) {
    if (std::isnan(x)) return "NaN";
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.17g", x);
    return buffer;
}

Interval wilson(double s, double n, double z) {
    if (n <= 0) return {0, 1};
    const double p = s / n, z2 = z * z, d = 1 + z2 / n;
    const double centre = (p + z2 / (2 * n)) / d;
    const double half = z / d * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n));
    // The interval contains p̂; rounding must not make it miss p̂ = 0 or 1 by an ulp.
    return {std::min(p, std::max(0.0, centre - half)), std::max(p, std::min(1.0, centre + half))};
}

std::string git_revision() {
    FILE* pipe = popen("git rev-parse HEAD 2>/dev/null", "r");
    if (!pipe) return "unknown";
    char buffer[128] = {};
    const bool got = std::fgets(buffer, sizeof buffer, pipe) != nullptr;
    const int status = pclose(pipe);
    std::string rev = got ? buffer : "";
    while (!rev.empty() && (rev.back() == '\n' || rev.back() == '\r')) rev.pop_back();
    return status == 0 && rev.size() == 40 ? rev : "unknown";
}

void write_sidecar(const RunContext& ctx, const std::string& name, const std::string& description,
                   const calib::JsonObject& parameters, int reps, const std::vector<std::string>& outputs,
                   double seconds) {
    calib::JsonObject j;
    j.set("experiment", name)
        .set("paper", "Moskvichev & Sejdinovic, All models are miscalibrated, but some less so: comparing "
                      "calibration with conditional mean operators")
        .set("description", description)
        .set("parameters", parameters)
        .set("seed", ctx.seed)
        .set("reps", reps)
        .set("quick", ctx.quick)
        .set("outputs", outputs)
        .set("calib_version", calib::version)
        .set("git_revision", git_revision())
        .set("compiler", __VERSION__)
        .set("threads", ctx.resolved_threads())
        .set("wall_time_seconds", seconds);
    std::ofstream out(ctx.path(name + ".json"));
    out << j.dump(2) << '\n';
    if (!out) throw std::runtime_error("cannot write " + ctx.path(name + ".json"));
}

}  // namespace repro

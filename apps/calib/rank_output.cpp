// The readable layouts of a ranking (rank_output.hpp).
#include "rank_output.hpp"

#include "run_output.hpp"

#include <calib/version.hpp>

#include <algorithm>
#include <cstdio>

namespace calib::cli {

namespace {

std::string format(const char* pattern, double x) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, pattern, x);
    return buffer;
}

std::string pad(const std::string& s, std::size_t width) {
    return s.size() >= width ? s : s + std::string(width - s.size(), ' ');
}

template <class T>
const T& field(const Record& record, const std::string& name) {
    return std::get<T>(find(record, name));
}

}  // namespace

std::string rank_table(const OperationRecord& record) {
    const Record& result = record.result;
    const auto& names = field<std::vector<std::string>>(result, "models");
    const Record& results = field<Record>(result, "results");
    const std::string level = format("%g%%", 100 * to_double(find(result, "level")));
    std::size_t width = 5;
    for (const std::string& f : names) width = std::max(width, f.size());
    std::string out = "calib rank: " + std::to_string(names.size()) + " models, n = " + std::to_string(record.n) +
                      " observations with the same labels, " + to_text(find(result, "replicates")) +
                      " paired bootstrap replicates (seed " + to_text(find(result, "seed")) + "), " + level +
                      " percentile intervals of the differences.\nLower is better calibrated.\n";
    for (const std::string& estimator : field<std::vector<std::string>>(result, "estimators")) {
        const Record& r = field<Record>(results, estimator);
        out += "\n" + estimator + " (" + field<std::string>(r, "description") + ")\n";
        out += "  rank  " + pad("model", width) + "  estimate      bootstrap s.e.\n";
        std::size_t place = 1;
        for (const RankedModel& m : ranked_models(result, estimator))
            out += "  " + pad(std::to_string(place++), 4) + "  " + pad(names[m.model], width) + "  " +
                   pad(format("%.6g", m.estimate), 12) + "  " + format("%.3g", m.std_error) + "\n";
        out += "  differences (first - second):\n";
        for (const Record& c : field<std::vector<Record>>(r, "comparisons"))
            out += "    " + field<std::string>(c, "first") + " - " + field<std::string>(c, "second") + " = " +
                   format("%.4g", to_double(find(c, "difference"))) + "  " + level + " interval [" +
                   format("%.4g", to_double(find(c, "lower"))) + ", " + format("%.4g", to_double(find(c, "upper"))) +
                   "]  P(first lower) = " + format("%.3f", to_double(find(c, "probability_first_lower"))) + "  -> " +
                   field<std::string>(c, "verdict") + "\n";
    }
    out += "\n(" + format("%.3f", seconds_since_start()) + " s, calib " + version + ")\n";
    return out;
}

}  // namespace calib::cli

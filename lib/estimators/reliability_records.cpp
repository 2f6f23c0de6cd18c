// The records of the diagrams' data (reliability.hpp): one field order for the report's JSON and the
// Python module.
#include <calib/reliability.hpp>

#include <algorithm>
#include <cmath>

namespace calib {

Record ReliabilityDiagram::record() const {
    std::vector<Record> bin_records;
    for (const ReliabilityBin& b : bins)
        bin_records.push_back({{"lower", b.lower},
                               {"upper", b.upper},
                               {"count", std::uint64_t{b.count}},
                               {"events", std::uint64_t{b.events}},
                               {"mean_confidence", b.mean_confidence},
                               {"frequency", b.frequency},
                               {"interval_lower", b.interval_lower},
                               {"interval_upper", b.interval_upper}});
    Record out{{"event", event},
               {"n", std::uint64_t{n}},
               {"level", level},
               {"binning", to_string(binning)},
               {"bins", std::move(bin_records)}};
    if (!smooth.probability.empty())
        out.push_back({"smooth", Record{{"bandwidth", smooth.bandwidth},
                                        {"probability", smooth.probability},
                                        {"frequency", smooth.frequency},
                                        {"lower", smooth.lower},
                                        {"upper", smooth.upper}}});
    return out;
}

Record defined_bins(Record diagram) {
    for (Field& f : diagram)
        if (auto* bins = std::get_if<std::vector<Record>>(&f.value))
            for (Record& bin : *bins)
                bin.erase(std::remove_if(bin.begin(), bin.end(),
                                         [](const Field& g) {
                                             const double* x = std::get_if<double>(&g.value);
                                             return x && std::isnan(*x);
                                         }),
                          bin.end());
    return diagram;
}

Record PitHistogram::record() const {
    return {{"n", std::uint64_t{n}},
            {"level", level},
            {"counts", std::vector<std::uint64_t>(counts.begin(), counts.end())},
            {"band_lower", std::uint64_t{band_lower}},
            {"band_upper", std::uint64_t{band_upper}}};
}

Record CoverageCurve::record() const {
    return {{"n", std::uint64_t{n}}, {"level", level}, {"nominal", nominal},
            {"observed", observed},  {"lower", lower}, {"upper", upper}};
}

}  // namespace calib

// Parsing the ECE options (ece_options.hpp).
#include "ece_options.hpp"

#include "usage_error.hpp"

#include <climits>

namespace calib::cli {

const std::vector<OptionSpec> ece_option_specs = {
    {"binning", true}, {"distance", true}, {"mode", true}};

namespace {

int binning_count(const std::string& binning, const std::string& count) {
    try {
        return static_cast<int>(parse_integer("binning", count, 1, INT_MAX));
    } catch (const usage_error&) {
        throw usage_error("option --binning " + binning + ": '" + count +
                          "' must be an integer >= 1");
    }
}

// uniform:NBINS or median-variance:MINSIZE[:MAXBINS].
void parse_binning(const std::string& text, EceOptions& ece) {
    const std::size_t colon = text.find(':');
    const std::string scheme = text.substr(0, colon);
    std::vector<std::string> numbers;
    for (std::size_t start = colon; start != std::string::npos;) {
        const std::size_t next = text.find(':', start + 1);
        numbers.push_back(text.substr(start + 1, next == std::string::npos ? next : next - start - 1));
        start = next;
    }
    if (scheme == "uniform" && numbers.size() == 1) {
        ece.binning = BinningScheme::uniform;
        ece.nbins = binning_count(text, numbers[0]);
    } else if (scheme == "median-variance" && (numbers.size() == 1 || numbers.size() == 2)) {
        ece.binning = BinningScheme::median_variance;
        ece.minsize = binning_count(text, numbers[0]);
        if (numbers.size() == 2) ece.maxbins = binning_count(text, numbers[1]);
    } else {
        throw usage_error("option --binning " + text +
                          ", expected uniform:NBINS or median-variance:MINSIZE[:MAXBINS]");
    }
}

}  // namespace

EceChoice take_ece_options(Args& args, const char* default_binning, const char* default_distance) {
    EceChoice choice;
    choice.binning = args.take("binning", default_binning);
    parse_binning(choice.binning, choice.options);
    const std::string distance = args.take("distance", default_distance);
    if (distance != "tv" && distance != "l1" && distance != "euclidean" && distance != "sqeuclidean")
        throw usage_error("option --distance " + distance +
                          ", expected tv, l1, euclidean or sqeuclidean");
    choice.options.distance = parse_ece_distance(distance);
    const std::string mode = args.take("mode", "canonical");
    if (mode != "canonical" && mode != "top-label")
        throw usage_error("option --mode " + mode + ", expected canonical or top-label");
    choice.options.mode = parse_ece_mode(mode);
    return choice;
}

void add_ece_fields(JsonObject& out, const EceChoice& choice) {
    out.set("binning", choice.binning)
        .set("distance", to_string(choice.options.distance))
        .set("mode", to_string(choice.options.mode));
}

}  // namespace calib::cli

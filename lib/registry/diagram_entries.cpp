// The options of the diagrams (registry.hpp, DiagramSetup): the reliability diagram, the PIT histogram and
// the coverage of central intervals, with the bounds of reliability.hpp's functions, said before the data
// are read.
#include "core/check.hpp"
#include "registry/common_options.hpp"
#include "registry/models.hpp"

#include <climits>
#include <cmath>

namespace calib {

namespace detail {

namespace {

using O = DiagramOptions;

bool in_unit_interval(double x) { return x > 0 && x < 1; }

Option<O> reliability_level_option() {
    return nested(&O::reliability,
                  OptionList<ReliabilityOptions>{level_option(&ReliabilityOptions::level,
                                                              "the Clopper-Pearson intervals (and bands)")})
        .front();
}

Option<O> bins_option(std::uint64_t max, const std::string& help) {
    return nested(&O::reliability, OptionList<ReliabilityOptions>{integer_option(
                                       &ReliabilityOptions::bins, info("bins", "B", "10", help), 1, max)})
        .front();
}

OptionList<O> diagram_options(const std::string& diagram) {
    if (diagram == "reliability_diagram") {
        using R = ReliabilityOptions;
        return OptionList<O>{
                   custom_option<O>(info("k", "K", "",
                                         "the class of a class-wise diagram (p_ik against 1{y_i = k}); default: "
                                         "top-label, the confidence max_k p_ik against whether the label is that class"),
                                    [](O& o, const Value& v) {
                                        o.k = static_cast<int>(unsigned_value("k", v, 0, INT_MAX));
                                    },
                                    [](const O& o) { return o.k ? Value(std::uint64_t(*o.k)) : Value(std::string()); }),
               } +
               nested(&O::reliability,
                      OptionList<R>{
                          enum_option(&R::binning,
                                      info("binning", "", "uniform",
                                           "uniform: the ECE's bins [0, 1/B], (1/B, 2/B], ...; equal-mass: B bins of "
                                           "equal counts (B <= n)"),
                                      named<ReliabilityBinning>(
                                          {ReliabilityBinning::uniform, ReliabilityBinning::equal_mass})),
                      }) +
               OptionList<O>{bins_option(max_histogram_bins, "the number of bins"), reliability_level_option()} +
               nested(&O::reliability,
                      OptionList<R>{integer_option(
                          &R::smooth_points,
                          info("smooth_points", "P", "0",
                               "with P > 0 also the reliability curve without bins at P points: a Gaussian kernel "
                               "smoother of the events against the logit of the probability, bandwidth by Silverman's "
                               "rule, with a pointwise Wilson band at the level"),
                          0, 100000)});
    }
    if (diagram == "pit_histogram")
        return {bins_option(max_histogram_bins, "equal bins of [0, 1]"), reliability_level_option()};
    if (diagram == "interval_coverage")
        return {custom_option<O>(info("nominal", "T1,T2,...", "0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,0.95",
                                      "the nominal levels of the central intervals, each in (0, 1)"),
                                 [](O& o, const Value& v) {
                                     std::vector<double> levels;
                                     for (const std::string& part : split(text_value(v), ','))
                                         levels.push_back(real_value("nominal", part, in_unit_interval,
                                                                     "a comma-separated list of levels in (0, 1)"));
                                     o.nominal = std::move(levels);
                                 },
                                 [](const O& o) {
                                     std::string text;
                                     for (const double t : o.nominal) text += (text.empty() ? "" : ",") + to_text(Value(t));
                                     return Value(text);
                                 }),
                reliability_level_option()};
    throw invalid_argument("unknown diagram '" + diagram + "', expected reliability_diagram, pit_histogram or "
                           "interval_coverage");
}

class DiagramEntry final : public WithOptions<SetupModel, O> {
public:
    explicit DiagramEntry(const std::string& diagram)
        : WithOptions<SetupModel, O>({diagram, diagram, diagram, false}, diagram_options(diagram), {}) {}
    using WithOptions<SetupModel, O>::values;
    std::shared_ptr<SetupModel> clone() const override { return std::make_shared<DiagramEntry>(*this); }
};

}  // namespace

}  // namespace detail

DiagramSetup::DiagramSetup(const std::string& diagram) : Setup(std::make_shared<detail::DiagramEntry>(diagram)) {}

const DiagramOptions& DiagramSetup::values() const { return static_cast<const detail::DiagramEntry&>(*model_).values(); }

}  // namespace calib

// The diagrams (registry.hpp, DiagramSetup), one row each of the diagram kinds' table: the CORP reliability
// diagram, the binned reliability diagram, the PIT histogram and the coverage of central intervals, with
// their options (the bounds of corp.hpp's and reliability.hpp's functions, said before the data are read)
// and each one's call on a data set.
#include "core/check.hpp"
#include "registry/common_options.hpp"
#include "registry/models.hpp"

#include <climits>
#include <cmath>

namespace calib {

namespace detail {

namespace {

using O = DiagramOptions;

// The options as set: the public ones, and the binary event of the CORP diagram.
struct DiagramValues {
    O options;
    BinaryEvent event;
};
using V = DiagramValues;

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

OptionList<V> corp_options() {
    using C = CorpDiagramOptions;
    return OptionList<V>{custom_option<V>(
               info("event", "auto|top-label|class:K|class-wise", "auto",
                    "the binary event of class predictions: auto (two classes: class 1), top-label (the confidence "
                    "against whether the top class is right), class:K (class K against the rest, 0-based) or "
                    "class-wise (a diagram of every class against the rest)"),
               [](V& v, const Value& value) { v.event = binary_event_value(value, true); },
               [](const V& v) { return Value(to_text(v.event)); })} +
           nested(&V::options,
                  nested(&O::corp,
                         OptionList<C>{
                             real_option(&C::level, info("level", "L", "0.9", "the level of the pointwise bands, in (0, 1)"),
                                         in_unit_interval, "in (0, 1)"),
                             integer_option(&C::replicates,
                                            info("replicates", "R", "100",
                                                 "the resampling replicates of the consistency and confidence bands; "
                                                 "0: the curve and the decomposition alone"),
                                            0, 1000000),
                             integer_option(&C::seed, info("seed", "S", std::to_string(default_seed),
                                                           "the seed of the replicates' draws"),
                                            0),
                             integer_option(&C::band_points,
                                            info("band_points", "P", "1000",
                                                 "the band points: every distinct prediction when there are at most P, "
                                                 "else P of them evenly spaced in rank"),
                                            2, 1000000),
                             enum_option(&C::score,
                                         info("score", "", "brier",
                                              "the proper score decomposed: brier ((p - y)^2) or log (the negative "
                                              "log-likelihood)"),
                                         named<CorpScore>({CorpScore::brier, CorpScore::log}))}));
}

OptionList<V> reliability_options() {
    using R = ReliabilityOptions;
    const OptionList<O> k = {custom_option<O>(
        info("k", "K", "",
             "the class of a class-wise diagram (p_ik against 1{y_i = k}); default: top-label, the confidence "
             "max_k p_ik against whether the label is that class"),
        [](O& o, const Value& v) { o.k = static_cast<int>(unsigned_value("k", v, 0, INT_MAX)); },
        [](const O& o) { return o.k ? Value(std::uint64_t(*o.k)) : Value(std::string()); })};
    const OptionList<O> binning = nested(
        &O::reliability,
        OptionList<R>{enum_option(&R::binning,
                                  info("binning", "", "uniform",
                                       "uniform: the ECE's bins [0, 1/B], (1/B, 2/B], ...; equal-mass: B bins of "
                                       "equal counts (B <= n)"),
                                  named<ReliabilityBinning>({ReliabilityBinning::uniform, ReliabilityBinning::equal_mass}))});
    const OptionList<O> smooth = nested(
        &O::reliability,
        OptionList<R>{integer_option(&R::smooth_points,
                                     info("smooth_points", "P", "0",
                                          "with P > 0 also the reliability curve without bins at P points: a Gaussian "
                                          "kernel smoother of the events against the logit of the probability, "
                                          "bandwidth by Silverman's rule, with a pointwise Wilson band at the level"),
                                     0, 100000)});
    return nested(&V::options, k + binning +
                                   OptionList<O>{bins_option(max_histogram_bins, "the number of bins"),
                                                 reliability_level_option()} +
                                   smooth);
}

OptionList<V> pit_options() {
    return nested(&V::options,
                  OptionList<O>{bins_option(max_histogram_bins, "equal bins of [0, 1]"), reliability_level_option()});
}

OptionList<V> coverage_options() {
    const Option<O> nominal = custom_option<O>(
        info("nominal", "T1,T2,...", "0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,0.95",
             "the nominal levels of the central intervals, each in (0, 1)"),
        [](O& o, const Value& v) {
            std::vector<double> levels;
            for (const std::string& part : split(text_value(v), ','))
                levels.push_back(real_value("nominal", part, in_unit_interval, "a comma-separated list of levels in (0, 1)"));
            o.nominal = std::move(levels);
        },
        [](const O& o) {
            std::string text;
            for (const double t : o.nominal) text += (text.empty() ? "" : ",") + to_text(Value(t));
            return Value(text);
        });
    return nested(&V::options, OptionList<O>{nominal, reliability_level_option()});
}

// The CORP diagram of the event's binary predictions, the event first; class-wise: one per class.
Record corp_record(const AnyData& data, const V& v, const ParallelOptions& parallel) {
    CorpDiagramOptions o = v.options.corp;
    o.parallel = parallel;
    const auto of = [&](const CategoricalData& binary, const BinaryEvent& event) {
        Record r = corp_diagram(binary, o).record();
        r.insert(r.begin(), {"event", to_text(event)});
        return r;
    };
    if (v.event.kind != BinaryEvent::Kind::class_wise) return of(binary_of("corp", data, v.event), v.event);
    const CategoricalData& d = classes_of("corp", data);
    std::vector<Record> classes;
    for (int k = 0; k < d.num_classes(); ++k) classes.push_back(of(d.class_event(k), {BinaryEvent::Kind::one_class, k}));
    return {{"event", to_text(v.event)}, {"classes", std::move(classes)}};
}

// The binned diagram: top-label, or class k's against the rest.
Record reliability_record(const AnyData& data, const V& v, const ParallelOptions&) {
    const CategoricalData& d = classes_of("the reliability diagram", data);
    const O& o = v.options;
    return (o.k ? class_reliability_diagram(d, *o.k, o.reliability) : reliability_diagram(d, o.reliability)).record();
}

// The checks of predictive distributions (of the squared Mahalanobis distance's PIT for multivariate
// normals, with their dimension), refused for class predictions.
PredictiveChecks predictive_checks_of(const std::string& diagram, const AnyData& data, const O& o) {
    if (std::holds_alternative<CategoricalData>(data))
        throw invalid_argument("`diagram` " + diagram + " is of predictive distributions, not of class predictions "
                               "(`diagram` corp or reliability)");
    return predictive_checks(data, o.reliability.bins, o.nominal, o.reliability.level);
}

Record with_dimension(Record r, const PredictiveChecks& c) {
    if (c.dimension) r.push_back({"dimension", std::uint64_t(c.dimension)});
    return r;
}

Record pit_record(const AnyData& data, const V& v, const ParallelOptions&) {
    const PredictiveChecks c = predictive_checks_of("pit", data, v.options);
    return with_dimension(c.pit.record(), c);
}

Record coverage_record(const AnyData& data, const V& v, const ParallelOptions&) {
    const PredictiveChecks c = predictive_checks_of("coverage", data, v.options);
    return with_dimension(c.coverage.record(), c);
}

// A diagram: what it is, its options, its call on a data set. diagram_methods() lists the infos.
struct DiagramKind {
    MethodInfo info;
    OptionList<V> (*options)();
    Record (*run)(const AnyData& data, const V& values, const ParallelOptions& parallel);
};

const std::vector<DiagramKind>& diagram_kinds() {
    static const std::vector<DiagramKind> all{
        {{"corp", "the CORP reliability diagram: the PAV-recalibrated probabilities with consistency and confidence "
                  "bands, and the score decomposition (Dimitriadis, Gneiting & Jordan 2021)",
          "CORP reliability diagram", true},
         corp_options, corp_record},
        {{"reliability", "the binned reliability diagram: each bin's event frequency with its Clopper-Pearson interval",
          "reliability diagram", true},
         reliability_options, reliability_record},
        {{"pit", "the histogram of the probability integral transform, with a band for uniformity", "PIT histogram"},
         pit_options, pit_record},
        {{"coverage", "the coverage of central prediction intervals at nominal levels, with Clopper-Pearson intervals",
          "coverage of central intervals"},
         coverage_options, coverage_record}};
    return all;
}

const DiagramKind& diagram_kind(const std::string& diagram) {
    std::string known;
    for (const DiagramKind& kind : diagram_kinds()) {
        if (kind.info.name == diagram) return kind;
        known += (known.empty() ? "" : ", ") + kind.info.name;
    }
    throw invalid_argument("unknown diagram '" + diagram + "', expected " + known);
}

class DiagramEntry final : public WithOptions<SetupModel, V> {
public:
    explicit DiagramEntry(const DiagramKind& kind) : WithOptions<SetupModel, V>(kind.info, kind.options(), {}), kind_(&kind) {}
    using WithOptions<SetupModel, V>::values;
    std::shared_ptr<SetupModel> clone() const override { return std::make_shared<DiagramEntry>(*this); }

    Record run(const AnyData& data, const ParallelOptions& parallel) const { return kind_->run(data, values(), parallel); }

private:
    const DiagramKind* kind_;
};

}  // namespace

}  // namespace detail

const std::vector<MethodInfo>& diagram_methods() {
    static const std::vector<MethodInfo> all = [] {
        std::vector<MethodInfo> infos;
        for (const detail::DiagramKind& kind : detail::diagram_kinds()) infos.push_back(kind.info);
        return infos;
    }();
    return all;
}

DiagramSetup::DiagramSetup(const std::string& diagram)
    : Setup(std::make_shared<detail::DiagramEntry>(detail::diagram_kind(diagram))) {}

const DiagramOptions& DiagramSetup::values() const {
    return static_cast<const detail::DiagramEntry&>(*model_).values().options;
}

Record DiagramSetup::run(const AnyData& data, const ParallelOptions& parallel) const {
    return static_cast<const detail::DiagramEntry&>(*model_).run(data, parallel);
}

}  // namespace calib

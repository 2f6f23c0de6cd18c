// The operation `diagram` (operation.hpp): the numbers of one diagram of a model (DiagramSetup, chosen by
// the option `diagram`: corp, reliability, pit, coverage), its record the diagram's, with its summary in
// words.
#include "core/stopwatch.hpp"
#include "registry/models.hpp"
#include "registry/option_table.hpp"

#include <calib/operation.hpp>

#include <cmath>

namespace calib::detail {

namespace {

struct DiagramChoice {
    std::string diagram;  // empty: the family's default
};

OptionList<DiagramChoice> choice_options() {
    std::string names;
    for (const MethodInfo& m : diagram_methods()) names += (names.empty() ? "" : "|") + m.name;
    return {custom_option<DiagramChoice>(
        info("diagram", names, "",
             "the diagram; default: corp for class predictions, pit for predictive distributions"),
        [](DiagramChoice& c, const Value& v) { c.diagram = text_value(v); },
        [](const DiagramChoice& c) { return Value(c.diagram); })};
}

std::size_t count_of(const Record& record, const std::string& name) {
    return std::get<std::vector<double>>(find(record, name)).size();
}

// How many band points have the CORP value outside the consistency band.
std::size_t outside_band(const Record& points) {
    const auto& value = std::get<std::vector<double>>(find(points, "recalibrated"));
    const auto& lower = std::get<std::vector<double>>(find(points, "consistency_lower"));
    const auto& upper = std::get<std::vector<double>>(find(points, "consistency_upper"));
    std::size_t out = 0;
    for (std::size_t i = 0; i < lower.size(); ++i) out += value[i] < lower[i] || value[i] > upper[i];
    return out;
}

// `event`: the event's name before the labels ("top-label score"), empty for the automatic one.
void corp_words(const Record& r, const std::string& event, OperationRecord& out) {
    const std::string label = event.empty() ? "score" : event + " score";
    const std::string band = event.empty() ? "band" : event + " band";
    const std::string score = to_text(find(r, "score"));
    const double mean = to_double(find(r, "mean_score"));
    out.words.emplace_back(label, "mean " + score + " score " + readable(mean) + " = MCB " +
                                      readable(to_double(find(r, "mcb"))) + " - DSC " + readable(to_double(find(r, "dsc"))) +
                                      " + UNC " + readable(to_double(find(r, "unc"))) + ", PAV curve of " +
                                      std::to_string(count_of(std::get<Record>(find(r, "curve")), "lower")) + " pieces");
    const Record& points = std::get<Record>(find(r, "points"));
    const std::size_t replicates = std::get<std::uint64_t>(find(r, "replicates"));
    if (replicates > 0)
        out.words.emplace_back(band, "the curve leaves the " + readable(100 * to_double(find(r, "level"))) +
                                                    " % consistency band at " + std::to_string(outside_band(points)) +
                                                    " of " + std::to_string(count_of(points, "x")) +
                                                    " band points (pointwise, from " + std::to_string(replicates) +
                                                    " replicates)");
    if (std::isinf(mean))
        out.warnings.push_back((event.empty() ? "" : event + ": ") + "the mean log score and MCB are infinite: a prediction of 0 or 1 was "
                                       "contradicted by its outcome (`score` brier is finite)");
}

void words_of(const std::string& diagram, const Record& r, OperationRecord& out) {
    if (diagram == "corp") {
        if (to_text(find(r, "event")) == "class-wise")
            for (const Record& c : std::get<std::vector<Record>>(find(r, "classes"))) corp_words(c, to_text(find(c, "event")), out);
        else
            corp_words(r, to_text(find(r, "event")) == "auto" ? "" : to_text(find(r, "event")), out);
    } else if (diagram == "reliability") {
        out.words.emplace_back("event", to_text(find(r, "event")));
        out.words.emplace_back("bins", std::to_string(std::get<std::vector<Record>>(find(r, "bins")).size()) + " (" +
                                           to_text(find(r, "binning")) + ")");
    } else if (diagram == "pit") {
        const auto& counts = std::get<std::vector<std::uint64_t>>(find(r, "counts"));
        const auto lower = std::get<std::uint64_t>(find(r, "band_lower")), upper = std::get<std::uint64_t>(find(r, "band_upper"));
        std::size_t outside = 0;
        for (const std::uint64_t c : counts) outside += c < lower || c > upper;
        out.words.emplace_back("bins outside the band", std::to_string(outside) + " of " + std::to_string(counts.size()));
    } else {
        const auto& nominal = std::get<std::vector<double>>(find(r, "nominal"));
        const auto& observed = std::get<std::vector<double>>(find(r, "observed"));
        for (std::size_t i = 0; i < nominal.size(); ++i)
            out.words.emplace_back("coverage at " + readable(nominal[i]), readable(observed[i]));
    }
}

class ConfiguredDiagram final : public ConfiguredOperation {
public:
    explicit ConfiguredDiagram(DiagramSetup setup) : setup_(std::move(setup)) {}
    const std::string& method_name() const override { return setup_.info().name; }

    OperationRecord run(const std::vector<ModelData>& models, const DataSets&, const ParallelOptions& parallel) const override {
        const AnyData& data = models.front().data();
        const Stopwatch timer;
        OperationRecord out;
        const std::string& diagram = setup_.info().name;
        out.title = "the " + setup_.info().title;
        out.result = {{"command", std::string("diagram")}, {"diagram", diagram}};
        out.n = data_size(data);
        out.details = setup_.run(data, parallel);
        if (diagram == "reliability") out.details = defined_bins(std::move(out.details));  // JSON has no NaN
        out.options = setup_.record(out.n);
        words_of(diagram, out.details, out);
        out.compute_seconds = timer.seconds();
        return out;
    }

private:
    DiagramSetup setup_;
};

class DiagramOperation final : public Operation {
public:
    DiagramOperation() {
        for (const Option<DiagramChoice>& o : choice_options()) own_.push_back(o.info);
    }
    const OperationInfo& info() const override { return info_; }
    const std::vector<OptionInfo>& own_options() const override { return own_; }
    std::vector<OptionInfo> options() const override {
        std::vector<OptionInfo> out = own_;
        for (const MethodInfo& m : diagram_methods()) append_new_options(out, DiagramSetup(m.name).options());
        return out;
    }
    std::unique_ptr<ConfiguredOperation> configure(const FamilyInfo& family, GivenOptions& given) const override {
        OptionsSetup<DiagramChoice> own({info_.name, info_.summary, info_.name}, choice_options(), {});
        set_given_options(own, given);
        std::string diagram = own.values().diagram;
        if (diagram.empty()) diagram = family.classes ? "corp" : "pit";
        DiagramSetup setup(diagram);
        if (setup.info().classes_only) check_classes("`diagram` " + diagram, family);
        else if (family.classes)
            throw invalid_argument("`diagram` " + diagram + " is of predictive distributions, not of `family` " +
                                   family.name + " (class predictions: `diagram` corp or reliability)");
        set_given_options(setup, given);
        reject_unused(given, {&setup}, "`diagram` " + diagram);
        return std::make_unique<ConfiguredDiagram>(std::move(setup));
    }

private:
    OperationInfo info_{"diagram",
                        "the numbers of a diagram: CORP or binned reliability diagram, PIT histogram, coverage",
                        "diagram", false};
    std::vector<OptionInfo> own_;
};

}  // namespace

const Operation& diagram_operation() {
    static const DiagramOperation operation;
    return operation;
}

}  // namespace calib::detail

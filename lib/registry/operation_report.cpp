// The operation `report` (operation.hpp, report.hpp): one or more models' calibration report — the
// verdict of the test recommended for the data size beside the other tests, the calibration errors
// with bootstrap intervals, the reliability diagrams (or the PIT and the coverage), and for several
// models on the same labels the ranking of `rank` from the same comparison. Its record's result is the
// report's numbers (report_record.cpp), its product the ReportData a front-end draws its page from.
#include "registry/models.hpp"
#include "registry/report_models.hpp"

#include "core/stopwatch.hpp"

#include <algorithm>
#include <limits>
#include <memory>

namespace calib {

namespace detail {

Record report_record(const ReportData& report);  // report_record.cpp

namespace {

struct ReportOptions {
    double alpha = default_alpha;
    std::size_t bins = 10;
    std::string name;
};

OptionList<ReportOptions> report_options() {
    using O = ReportOptions;
    return {alpha_option(&O::alpha, "the level of the verdict, in (0, 1)"),
            integer_option(&O::bins, info("bins", "B", "10", "bins of the reliability diagrams and the ECEs, in [1, 1000]"),
                           1, 1000),
            custom_option<O>(info("name", "NAME", "", "the report's title (default: the model's name, or \"N models\")"),
                             [](O& o, const Value& v) { o.name = text_value(v); },
                             [](const O& o) { return Value(o.name); })};
}

// The intervals' and the ranking's options: the comparison's (rank's), with the report's words.
const std::vector<std::pair<std::string, std::string>> interval_options{
    {"replicates", "bootstrap replicates of the intervals and of the ranking"},
    {"level", "the level of the intervals, in (0, 1)"},
    {"seed", "seed of the intervals, the ranking and the bootstrap test"}};

std::vector<OptionInfo> interval_option_infos() {
    std::vector<OptionInfo> out;
    const ComparisonSetup comparison;  // alive while its options are read
    for (const OptionInfo& o : comparison.options())
        for (const auto& [name, help] : interval_options)
            if (o.name == name) {
                out.push_back(o);
                out.back().help = help;
            }
    return out;
}

class ConfiguredReport final : public ConfiguredOperation {
public:
    ConfiguredReport(const OperationInfo& info, const FamilyInfo& family, ReportOptions options, ComparisonSetup comparison)
        : info_(info), family_(family), options_(std::move(options)), comparison_(std::move(comparison)) {}

    OperationRecord run(const std::vector<ModelData>& models, const DataSets&, const ParallelOptions& parallel) const override {
        const Stopwatch stopwatch;
        check_family(info_, family_, models.size());  // as a front-end has, for a caller that did not
        std::vector<std::string> names;
        std::vector<CategoricalData> classes;
        for (const ModelData& m : models) {
            names.push_back(m.name);
            if (const auto* c = std::get_if<CategoricalData>(&m.data())) classes.push_back(*c);
        }
        if (classes.size() > 1) check_same_labels(classes, names, "calib report");
        auto report = std::make_shared<ReportData>();
        const std::size_t n = data_size(models.front().data());
        report->title = !options_.name.empty() ? options_.name
                        : models.size() == 1   ? models.front().name
                                               : std::to_string(models.size()) + " models";
        report->family = family_.name;
        report->n = n;
        report->alpha = options_.alpha;
        ReportSettings settings;
        settings.bins = options_.bins;
        settings.intervals.replicates = static_cast<std::size_t>(to_double(comparison_.get("replicates")));
        settings.intervals.level = to_double(comparison_.get("level"));
        settings.intervals.seed = std::stoull(to_text(comparison_.get("seed")));
        settings.intervals.parallel = parallel;
        settings.bootstrap_test = {{"seed", comparison_.get("seed")}};
        report->replicates = settings.intervals.replicates;
        report->level = settings.intervals.level;
        report->seed = settings.intervals.seed;

        // The CKCE with its intervals, and for several models the whole ranking, from one comparison.
        std::optional<ComparisonRun> compared;
        const EstimatorComparison* ckce = nullptr;
        if (!classes.empty()) {
            ComparisonSetup comparison = comparison_;
            if (models.size() == 1) comparison.set("estimators", Value(std::string("ckce")));  // its intervals only
            report->classes = classes.front().num_classes();
            if (n > report_exact_ckce_limit) comparison.set("ckce_method", Value(std::string("lowrank")));
            if (n > report_gamma_limit) comparison.set("median_subsample", Value(std::to_string(linear_median_subsample)));
            compared = comparison.run(classes, parallel);
            const std::vector<std::string>& estimators = compared->estimators;
            ckce = &compared->comparison.results[static_cast<std::size_t>(
                std::find(estimators.begin(), estimators.end(), "ckce") - estimators.begin())];
            if (classes.size() > 1) report->ranking = compared->record(names);
            report->figures = class_figures(classes, settings.bins);
            report->corp = corp_figure(classes, settings);
        } else {
            const PredictiveChecks checks = predictive_checks(models.front().data(), settings.bins, DiagramOptions().nominal);
            report->dimension = checks.dimension;
            report->pit = checks.pit;
            report->coverage = checks.coverage;
        }
        for (std::size_t k = 0; k < models.size(); ++k) {
            report->models.push_back(evaluate_model(models[k].data(), family_, settings, ckce, k));
            report->models.back().name = models.size() == 1 && !options_.name.empty() ? options_.name : names[k];
        }

        OperationRecord out;
        out.title = "the calibration report of " + report->title;
        out.result = report_record(*report);
        out.n = n;
        out.options = {{"alpha", options_.alpha},
                       {"bins", static_cast<std::uint64_t>(options_.bins)},
                       {"replicates", comparison_.get("replicates")},
                       {"level", comparison_.get("level")},
                       {"seed", comparison_.get("seed")}};
        if (!options_.name.empty()) out.options.push_back({"name", options_.name});
        for (const ModelReport& m : report->models) {
            const ReportTest& chosen = m.tests.front();
            out.words.emplace_back(m.name, std::string(rejected(m, options_.alpha) ? "not calibrated" : "consistent with calibration") +
                                               " at alpha = " + readable(options_.alpha) + ": " + chosen.method + " p " +
                                               (chosen.p_value == 0 ? "" : "= ") + chosen.p_text);
        }
        out.product = std::shared_ptr<const ReportData>(std::move(report));
        out.compute_seconds = stopwatch.seconds();
        return out;
    }

private:
    const OperationInfo& info_;
    const FamilyInfo& family_;
    ReportOptions options_;
    ComparisonSetup comparison_;
};

class ReportOperation final : public Operation {
public:
    ReportOperation() {
        for (const Option<ReportOptions>& o : report_options()) own_.push_back(o.info);
        for (const OptionInfo& o : interval_option_infos()) own_.push_back(o);
    }
    const OperationInfo& info() const override { return info_; }
    const std::vector<OptionInfo>& own_options() const override { return own_; }
    std::vector<OptionInfo> options() const override { return own_; }
    std::unique_ptr<ConfiguredOperation> configure(const FamilyInfo& family, GivenOptions& given) const override {
        OptionsSetup<ReportOptions> own({info_.name, info_.summary, info_.name}, report_options(), {});
        set_given_options(own, given);
        // The intervals' replicates, level and seed: the options of rank, checked by its entry.
        ComparisonSetup comparison;
        for (const OptionInfo& o : interval_option_infos())
            if (const std::optional<Value> v = given.take(o)) comparison.set(o.name, *v);
        reject_unused(given, {&own}, "calib report");
        comparison.check();
        return std::make_unique<ConfiguredReport>(info_, family, own.values(), std::move(comparison));
    }

private:
    OperationInfo info_{"report", "a one-page calibration report of one or more models", "", false, 1,
                        std::numeric_limits<std::size_t>::max(), false, true};
    std::vector<OptionInfo> own_;
};

}  // namespace

const Operation& report_operation() {
    static const ReportOperation operation;
    return operation;
}

}  // namespace detail

const ReportData& report_content(const OperationRecord& record) {
    const auto* report = std::any_cast<std::shared_ptr<const ReportData>>(&record.product);
    if (!report || !*report) throw invalid_argument("report_content: the record is not a report's");
    return **report;
}

}  // namespace calib

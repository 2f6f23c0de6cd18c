// The report's numbers (calib/report.hpp), for the operation `report` (operation_report.cpp): one
// model's part, and the reliability diagrams of class predictions.
#pragma once

#include <calib/compare.hpp>
#include <calib/families.hpp>
#include <calib/registry.hpp>
#include <calib/report.hpp>

#include <cstddef>
#include <utility>
#include <vector>

namespace calib::detail {

struct ReportSettings {
    std::size_t bins = 10;       // `bins` of the reliability diagrams and the binned ECEs
    IntervalOptions intervals;   // replicates, level, seed and threads of the bootstrap intervals
    std::vector<std::pair<std::string, Value>> bootstrap_test;  // the bootstrap test's options (its seed)
};

// `ckce`: the model comparison's CKCE result (compare_models), whose entry `index` is this model's; null
// for predictive distributions.
ModelReport evaluate_model(const AnyData& data, const FamilyInfo& family, const ReportSettings& settings,
                           const EstimatorComparison* ckce, std::size_t index);

// The reliability diagrams of the class predictions, each with one diagram per model: top-label with
// equal-width and equal-count bins, then P(Y = 1) for binary predictions or one per class for
// m ≤ report_class_diagrams_limit. The equal-count top-label diagram and the class diagrams of
// probabilities that crowd near 0 or 1 (report_crowded_margin) are drawn on the logit scale, the class
// diagrams then with equal-count bins (the equal-width top-label diagram stays on the usual scale, as
// the other diagrams' reference).
std::vector<ReportFigure> class_figures(const std::vector<CategoricalData>& models, std::size_t bins);
// The CORP diagrams of the class predictions (ReportCorp), bands by settings.intervals' replicates, level
// and seed.
ReportCorp corp_figure(const std::vector<CategoricalData>& models, const ReportSettings& settings);

}  // namespace calib::detail

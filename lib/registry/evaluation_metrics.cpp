// Every evaluation metric of the paper that applies to a data set, in one record, and their
// descriptions (metrics.hpp): what `calib metrics` and the Python module's calib.metrics return; and
// their options for a family (registry.hpp, MetricsSetup).
#include <calib/metrics.hpp>
#include <calib/registry.hpp>
#include <calib/reliability.hpp>

#include "core/check.hpp"
#include "core/stopwatch.hpp"
#include "registry/common_options.hpp"
#include "registry/models.hpp"

#include <cmath>
#include <type_traits>

namespace calib {

using detail::fail;

const std::vector<MetricInfo>& metric_descriptions() {
    static const std::vector<MetricInfo> all = {
        {"accuracy", "fraction of labels equal to the predicted class (argmax, first on ties)", true},
        {"ece_top_label", "top-label ECE over equal-width confidence bins: sum_b (n_b/n)|mean confidence - accuracy|", true},
        {"entropy", "mean Shannon entropy of the predictions (natural log; the paper's sharpness)", true},
        {"nll", "mean negative log-likelihood of the true class (natural log; null when a label has probability 0, "
                "unless --nll-clip)", true},
        {"kce", "kernel calibration error: unbiased MMD^2, RBF on the features (median lengthscale) x delta on labels (with --features)", true},
        {"nll", "mean negative log-likelihood of the targets (natural log)", false},
        {"qce", "quantile calibration error: (1/2) sum_b |f_b - 1/B| over B bins of the PIT (--qce-binning)", false},
        {"qce_squared", "Kuleshov et al.'s sum_j (j/B - fraction of PIT <= j/B)^2, j = 1..B", false},
        {"dce", "decision calibration error, eq. (19), of the decision sign(y - c): in [0, sqrt 2]", false},
        {"lce_total_mean", "mean over the observations of LCE_total, the local calibration error (with --features)", false},
        {"kce", "kernel calibration error (normal): unbiased MMD^2, RBF on the features x RBF on y (with --features)", false},
    };
    return all;
}

namespace {

Record class_metrics(const CategoricalData& d, const MetricsOptions& o) {
    if (o.lce_lengthscale != 0)
        fail("evaluation_metrics", "lce_lengthscale applies only to univariate predictions (the LCE), not to class predictions");
    Record r{{"accuracy", accuracy(d)},
             {"ece_top_label", top_label_ece(d, static_cast<int>(o.bins))},
             {"entropy", mean_entropy(d)},
             {"nll", mean_nll(d, o.nll_clip)}};
    if (o.nll_clip > 0) r.push_back({"nll_clip", o.nll_clip});
    if (o.features) {
        const KceResult kce = kernel_calibration_error(d, *o.features, o.parallel);
        r.push_back({"kce", kce.estimate});
        r.push_back({"kce_lengthscale", kce.lengthscale});
    }
    r.push_back({"bins", static_cast<std::uint64_t>(o.bins)});
    return r;
}

template <class Data>
Record univariate_metrics(const Data& d, const MetricsOptions& o) {
    if (o.nll_clip != 0)
        fail("evaluation_metrics", "nll_clip applies only to class predictions, not to univariate distributions");
    if (o.threshold && !std::isfinite(*o.threshold))
        fail("evaluation_metrics", "threshold = ", detail::format_value(*o.threshold), ", must be finite");
    const bool median = !o.threshold;
    const double c = median ? median_target(d) : *o.threshold;
    const std::vector<double> u = pit(d);
    Record r{{"nll", mean_nll(d)},
             {"qce", quantile_calibration_error(u, o.bins, o.qce_binning)},
             {"qce_squared", quantile_calibration_error_squared(u, o.bins)},
             {"dce", decision_calibration_error(d, c)},
             {"threshold", c},
             {"threshold_rule", std::string(median ? "median" : "given")}};
    if (o.features) {
        LceOptions lce_options;
        lce_options.levels = o.bins;
        lce_options.lengthscale = o.lce_lengthscale;
        lce_options.parallel = o.parallel;
        const LceResult lce = local_calibration_error(d, *o.features, lce_options);
        r.push_back({"lce_total_mean", lce.mean});
        r.push_back({"lce_lengthscale", lce.lengthscale});
        r.push_back({"lce_lengthscale_rule", std::string(lce.median_heuristic ? "median" : "given")});
        if constexpr (std::is_same_v<Data, NormalData>) {  // the MMD's closed forms are for normal forecasts
            const KceResult kce = kernel_calibration_error(d, *o.features, 1.0, o.parallel);
            r.push_back({"kce", kce.estimate});
            r.push_back({"kce_lengthscale", kce.lengthscale});
            r.push_back({"kce_lengthscale_y", 1.0});
        }
    }
    r.push_back({"bins", static_cast<std::uint64_t>(o.bins)});
    r.push_back({"qce_binning", to_string(o.qce_binning)});
    return r;
}

}  // namespace

Record evaluation_metrics(const AnyData& data, const MetricsOptions& options) {
    detail::check_bins("evaluation_metrics", "bins", options.bins);
    return std::visit(
        [&](const auto& d) -> Record {
            using Data = std::decay_t<decltype(d)>;
            if constexpr (std::is_same_v<Data, CategoricalData>) return class_metrics(d, options);
            else if constexpr (is_univariate_v<Data>) return univariate_metrics(d, options);
            else fail("evaluation_metrics", "the paper's metrics are defined for class predictions and univariate "
                      "distributions (normal, laplace, mixture-normal), not for multivariate normals");
        },
        data);
}

namespace detail {

namespace {

struct MetricsSpec {
    MetricsOptions options;
    std::string features;                         // the file, when given
    std::shared_ptr<const Matrix> feature_table;  // or the table (Setup::set_table)
};

bool univariate(const FamilyInfo& family) {
    if (family.classes || family.univariate) return family.univariate;
    std::string names;
    for (const FamilyInfo& f : families())
        if (f.univariate) names += (names.empty() ? "" : ", ") + f.name;
    throw invalid_argument("the paper's metrics are defined for class predictions and univariate distributions (" +
                           names + "), not for family " + family.name);
}

OptionList<MetricsSpec> metrics_options(bool univariate) {
    Option<MetricsSpec> features = table_option(
        info("features", "FILE", "",
             "n rows of features x_i (text or .npy): adds the KCE, the unbiased MMD^2 with the kernel "
             "exp(-|x - x'|^2 / (2 l^2)) on the features (l: the median heuristic; class predictions and normal "
             "forecasts), and for univariate families the LCE with that kernel"),
        &MetricsSpec::features, &MetricsSpec::feature_table);
    OptionList<MetricsSpec> list = nested(
        &MetricsSpec::options,
        OptionList<MetricsOptions>{integer_option(
            &MetricsOptions::bins, info("bins", "B", "20", "bins of the QCE and the ECE, levels of the LCE (the paper's)"),
            1, max_histogram_bins)});
    list.push_back(std::move(features));
    if (!univariate)
        return list + nested(&MetricsSpec::options,
                             OptionList<MetricsOptions>{real_option(
                                 &MetricsOptions::nll_clip,
                                 info("nll_clip", "EPS", "0",
                                      "> 0: the NLL's probabilities are taken into [EPS, 1 - EPS] and each row "
                                      "renormalised, as scikit-learn's log_loss clips (its eps auto is 2.2e-16 for "
                                      "float64): finite when a label has probability 0; 0: exact (inf then)"),
                                 [](double e) { return e >= 0 && e < 0.5; }, "in [0, 0.5)")});
    const OptionList<MetricsOptions> own = {
        enum_option(&MetricsOptions::qce_binning,
                    info("qce_binning", "", "floor",
                         "the PIT's bin: floor(u B), or round(u B) clamped to B - 1 as the paper's code (whose QCE "
                         "is about 0.025, not 0, when calibrated)"),
                    named<QceBinning>({QceBinning::floor, QceBinning::round})),
        custom_option<MetricsOptions>(
            info("threshold", "C|median", "median", "the DCE's decision threshold c, or the median of the targets"),
            [](MetricsOptions& o, const Value& v) {
                if (text_value(v) == "median") o.threshold.reset();
                else o.threshold = real_value("threshold", v, {}, "");
            },
            [](const MetricsOptions& o) { return o.threshold ? Value(*o.threshold) : Value(std::string("median")); }),
        real_option(&MetricsOptions::lce_lengthscale,
                    info("lce_lengthscale", "L", "",
                         "the LCE's l > 0 (default: the median of the pairwise feature distances)", {"features", {}}),
                    [](double x) { return x > 0 && std::isfinite(x); }, "finite and > 0"),
    };
    return list + nested(&MetricsSpec::options, own);
}

class MetricsEntry final : public WithOptions<SetupModel, MetricsSpec> {
public:
    explicit MetricsEntry(bool univariate)
        : WithOptions<SetupModel, MetricsSpec>({"metrics", "the evaluation metrics of Marx et al. (2023)",
                                                "evaluation metrics", false},
                                               metrics_options(univariate), {}) {}
    using WithOptions<SetupModel, MetricsSpec>::values;
    std::shared_ptr<SetupModel> clone() const override { return std::make_shared<MetricsEntry>(*this); }
};

}  // namespace

}  // namespace detail

MetricsSetup::MetricsSetup(const FamilyInfo& family)
    : Setup(std::make_shared<detail::MetricsEntry>(detail::univariate(family))), family_(family.name) {}

Timed<Record> MetricsSetup::run(const AnyData& data, const ParallelOptions& parallel) const {
    const detail::Stopwatch stopwatch;
    check();
    const detail::MetricsSpec& spec = static_cast<const detail::MetricsEntry&>(*model_).values();
    MetricsOptions options = spec.options;
    options.parallel = parallel;
    Matrix features;
    if (spec.feature_table || !spec.features.empty()) {
        features = detail::observation_table("features", spec.features, spec.feature_table, data_size(data));
        options.features = &features;
    }
    Record metrics = evaluation_metrics(data, options);
    return {std::move(metrics), stopwatch.seconds()};
}

std::string message_context(const MetricsSetup& setup) { return "`family` " + setup.family(); }

}  // namespace calib

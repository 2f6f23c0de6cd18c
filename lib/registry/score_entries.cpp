// The registry entries of the proper scores and base-rate summaries (score_entries.hpp).
#include "registry/score_entries.hpp"

#include "registry/common_options.hpp"

#include <calib/scores.hpp>

#include <optional>

namespace calib::detail {

namespace {

struct NoOptions {};

struct EventEntry {
    BinaryEvent event;
};

struct NormalizedEntropyEntry {
    BinaryEvent event;
    std::optional<double> base_rate;  // empty: the data's event frequency
};

}  // namespace

std::vector<Registered<MethodModel<EstimateResult>>> score_estimators() {
    std::vector<Registered<MethodModel<EstimateResult>>> all;
    all.push_back(estimator_entry<NoOptions>(
        univariate_method("crps",
                          "mean continuous ranked probability score (CRPS), closed form, O(n) (mixtures O(n K^2))",
                          "the mean continuous ranked probability score (CRPS)"),
        {}, {},
        {always<NoOptions>(KernelUse::none), nullptr, nullptr,
         [](const AnyData& data, const Kernel*, const AnyData*, const NoOptions&, const ParallelOptions&) {
             const double value = std::visit(
                 [](const auto& d) -> double {
                     using D = std::decay_t<decltype(d)>;
                     if constexpr (std::is_same_v<D, NormalData> || std::is_same_v<D, LaplaceData> ||
                                   std::is_same_v<D, MixtureNormalData>)
                         return mean_crps(d);
                     else
                         fail("crps", "the CRPS is defined here for univariate distributions only");
                 },
                 data);
             return EstimateResult{"crps", value, data_size(data), {}, {}};
         }}));
    all.push_back(estimator_entry<EventEntry>(
        binary_method("calibration-ratio",
                      "calibration ratio: the sum of the predicted probabilities over the number of events, O(n)",
                      "the calibration ratio (sum of predictions / sum of outcomes)"),
        OptionList<EventEntry>{event_option(&EventEntry::event)}, {},
        {always<EventEntry>(KernelUse::none), nullptr, nullptr,
         [](const AnyData& data, const Kernel*, const AnyData*, const EventEntry& e, const ParallelOptions&) {
             const CalibrationRatio r = calibration_ratio(binary_of("calibration-ratio", data, e.event));
             return EstimateResult{"calibration-ratio", r.ratio, r.n,
                                   Record{{"sum_predictions", r.sum_predictions}, {"events", r.events}}, {}};
         }}));
    all.push_back(estimator_entry<NormalizedEntropyEntry>(
        binary_method("normalized-entropy",
                      "normalised entropy: the mean log loss over the entropy of the base rate (He et al. 2014), O(n)",
                      "the normalised entropy (log loss / entropy of the base rate)"),
        OptionList<NormalizedEntropyEntry>{
            event_option(&NormalizedEntropyEntry::event),
            custom_option<NormalizedEntropyEntry>(
                info("base_rate", "data|R", "data",
                     "the base rate r whose entropy divides the log loss: data (the event frequency of the data "
                     "given) or a number in (0, 1), such as the training data's"),
                [](NormalizedEntropyEntry& s, const Value& v) {
                    if (text_value(v) == "data")
                        s.base_rate.reset();
                    else
                        s.base_rate = real_value("base_rate", v, [](double r) { return r > 0 && r < 1; },
                                                 "data or a number in (0, 1)");
                },
                [](const NormalizedEntropyEntry& s) {
                    return s.base_rate ? Value(*s.base_rate) : Value(std::string("data"));
                })},
        {},
        {always<NormalizedEntropyEntry>(KernelUse::none), nullptr, nullptr,
         [](const AnyData& data, const Kernel*, const AnyData*, const NormalizedEntropyEntry& e,
            const ParallelOptions&) {
             const NormalizedEntropy r =
                 normalized_entropy(binary_of("normalized-entropy", data, e.event), e.base_rate);
             return EstimateResult{"normalized-entropy", r.value, r.n,
                                   Record{{"log_loss", r.log_loss},
                                          {"base_rate_used", r.base_rate},
                                          {"base_entropy", r.base_entropy}},
                                   {}};
         }}));
    return all;
}

}  // namespace calib::detail

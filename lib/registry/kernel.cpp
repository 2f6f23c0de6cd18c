// The kernel options of the SKCE, the UCME and their tests (registry.hpp, KernelSetup): the family's
// default kernel unless told otherwise, and the median heuristic for the prediction lengthscale.
#include "registry/common_options.hpp"
#include "registry/models.hpp"

#include <calib/seed.hpp>

namespace calib {

namespace detail {

namespace {

// A kernel as asked for: the lengthscale may be a median rule, resolved on the data.
struct KernelSpec {
    PredictionKernelShape shape = PredictionKernelShape::exp;
    Metric metric = Metric::tv;
    LengthscaleChoice lengthscale;       // a number, median or median-full
    std::size_t median_subsample = 0;    // 0: the exact median over all observations
    std::uint64_t median_seed = default_seed;
    TargetKernelType target = TargetKernelType::white;
    double target_lengthscale = 1.0;
};


OptionList<KernelSpec> kernel_options(const FamilyInfo& family) {
    std::vector<TargetKernelType> targets;  // the gram target needs a matrix: from C++ only
    for (const TargetKernelType t : family.targets)
        if (t != TargetKernelType::gram) targets.push_back(t);
    std::string metrics;
    for (const Metric m : family.metrics) metrics += (metrics.empty() ? "" : "|") + to_string(m);
    return OptionList<KernelSpec>{
        enum_option(&KernelSpec::shape,
                    info("kernel_p", "exp|sqexp", "exp", "the prediction kernel k_P = exp(-d/l) or exp(-d^2/(2 l^2))"),
                    named<PredictionKernelShape>({PredictionKernelShape::exp, PredictionKernelShape::sqexp})),
        enum_option(&KernelSpec::metric,
                    info("metric", metrics, to_string(family.metrics.front()),
                         "the distance d between predictions: tv (half L1), l1 or euclidean for class "
                         "predictions; w2 (2-Wasserstein; MW2 for mixtures) for distributions"),
                    named(family.metrics), "for the " + family.name + " family"),
        lengthscale_option(&KernelSpec::lengthscale,
                           info("lengthscale", "", "median",
                                "l > 0, or the median of the distances d(p_i, p_j) over the pairs i < j (median) or "
                                "over all n^2 ordered pairs with the zero diagonal (median-full); the median is exact "
                                "at every n"),
                           {"median", "median-full"}),
    } + median_subsample_options(&KernelSpec::median_subsample, &KernelSpec::median_seed, {"median", "median-full"}) +
    OptionList<KernelSpec>{
        enum_option(&KernelSpec::target,
                    info("kernel_y", "", to_string(targets.front()),
                         "the target kernel: white (delta) for labels; sqexp exp(-(y-y')^2/(2 l^2)) or exp "
                         "exp(-|y-y'|/l) for real targets; each family supports its own"),
                    named(targets), "for the " + family.name + " family"),
        real_option(&KernelSpec::target_lengthscale,
                    info("lengthscale_y", "L", "1", "the lengthscale of the sqexp and exp target kernels",
                         {"kernel_y", {"sqexp", "exp"}}),
                    [](double x) { return x > 0; }, "a number > 0"),
    };
}

class KernelEntry final : public WithOptions<KernelModel, KernelSpec> {
public:
    explicit KernelEntry(const FamilyInfo& family)
        : WithOptions<KernelModel, KernelSpec>({"kernel", "the kernel of the SKCE and the UCME", "kernel", false},
                                               kernel_options(family), defaults(family)) {}

    Kernel resolve(const AnyData& data, const ParallelOptions& parallel) const override {
        const KernelSpec& k = values();
        Kernel kernel{{k.shape, k.metric, k.lengthscale.value}, {k.target, k.target_lengthscale, {}}};
        if (!k.lengthscale.given()) {
            MedianOptions median;
            median.variant = k.lengthscale.rule == "median" ? MedianVariant::pairs : MedianVariant::full;
            median.subsample = k.median_subsample;
            median.seed = k.median_seed;
            median.parallel = parallel;
            try {
                kernel.prediction.lengthscale =
                    std::visit([&](const auto& d) { return median_distance(d, k.metric, median); }, data);
            } catch (const invalid_argument& e) {
                // Name the option that asked for the median (e.g. all predictions equal: median 0).
                throw invalid_argument("`lengthscale` " + k.lengthscale.rule + ": " + e.what());
            }
        }
        std::visit([&](const auto& d) { validate_kernel(d, kernel, "kernel"); }, data);
        return kernel;
    }

    Record record_with(const Kernel& kernel) const override {
        const KernelSpec& k = values();
        Record r{{"lengthscale", kernel.prediction.lengthscale},
                 {"lengthscale_rule", k.lengthscale.rule}};
        if (!k.lengthscale.given() && given("median_subsample"))
            r.insert(r.end(), {{"median_subsample", std::uint64_t(k.median_subsample)}, {"median_seed", k.median_seed}});
        Record target{{"type", to_string(kernel.target.type)}};
        if (kernel.target.type != TargetKernelType::white) target.push_back({"lengthscale", kernel.target.lengthscale});
        r.push_back({"kernel", Record{{"prediction", Record{{"shape", to_string(kernel.prediction.shape)},
                                                           {"metric", to_string(kernel.prediction.metric)},
                                                           {"lengthscale", kernel.prediction.lengthscale}}},
                                      {"target", target}}});
        return r;
    }

    std::shared_ptr<SetupModel> clone() const override { return std::make_shared<KernelEntry>(*this); }

private:
    static KernelSpec defaults(const FamilyInfo& family) {
        KernelSpec k;
        k.metric = family.metrics.front();
        k.target = family.targets.front();
        return k;
    }
};

}  // namespace

std::shared_ptr<KernelModel> make_kernel_model(const FamilyInfo& family) {
    return std::make_shared<KernelEntry>(family);
}

}  // namespace detail

}  // namespace calib

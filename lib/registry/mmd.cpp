// The conditional MMD's options and their resolution on the data (registry/mmd.hpp).
#include "registry/mmd.hpp"

#include <calib/io.hpp>

#include <cmath>

namespace calib::detail {

namespace {

const std::vector<std::string> conditioned_notions = {"canonical", "top-label", "class-wise", "individual"};
const std::vector<std::string> all_notions = {"canonical", "top-label", "class-wise", "group", "individual", "marginal"};

OptionInfo required(OptionInfo i) {
    i.required = true;
    return i;
}

// K_T of the RBF exp(−‖e_a − e_b‖²/(2ℓ²)) on one-hot vectors: 1 on the diagonal, exp(−1/ℓ²) off it.
Matrix one_hot_rbf_gram(Eigen::Index size, double lengthscale) {
    Matrix k = Matrix::Constant(size, size, std::exp(-1 / (lengthscale * lengthscale)));
    k.diagonal().setOnes();
    return k;
}

}  // namespace

OptionList<MmdChoice> mmd_options(Condition notion_condition) {
    std::vector<std::pair<MmdNotion, std::string>> notions;
    for (const std::string& name : all_notions) notions.emplace_back(parse_mmd_notion(name), name);
    return {
        enum_option(&MmdChoice::notion,
                    info("notion", "", "canonical",
                         "the notion of calibration: Y given Z = q (canonical), 1{Y = argmax q} given max q "
                         "(top-label), 1{Y = c} given q_c for every class c (class-wise, their sum), Y given a group "
                         "(group), Y given features x (individual), or Y alone (marginal)",
                         std::move(notion_condition)),
                    notions),
        enum_option(&MmdChoice::shape,
                    info("kernel_p", "exp|sqexp", "sqexp",
                         "the conditioning kernel k_Z = exp(-d/l) or exp(-d^2/(2 l^2)) (the RBF; its bandwidth in "
                         "the paper's code is 2 l^2)",
                         {"notion", conditioned_notions}),
                    {{PredictionKernelShape::exp, "exp"}, {PredictionKernelShape::sqexp, "sqexp"}}),
        enum_option(&MmdChoice::metric,
                    info("metric", "tv|l1|euclidean", "euclidean",
                         "the distance d between the conditioning values: tv (half L1), l1 or euclidean between "
                         "predictions (canonical), l1 or euclidean between features (individual)",
                         {"notion", {"canonical", "individual"}}),
                    {{Metric::tv, "tv"}, {Metric::l1, "l1"}, {Metric::euclidean, "euclidean"}}),
        lengthscale_option(&MmdChoice::lengthscale,
                           info("lengthscale", "", "median",
                                "l > 0 of k_Z, or the exact median of the distances d(z_i, z_j) over the pairs i < j "
                                "(median; class-wise: one per class) or over all n^2 ordered pairs (median-full)",
                                {"notion", conditioned_notions}),
                           {"median", "median-full"}),
        integer_option(&MmdChoice::median_subsample,
                       info("median_subsample", "K", "",
                            "take the median on K observations drawn without replacement instead of all",
                            {"lengthscale", {"median", "median-full"}}),
                       2),
        integer_option(&MmdChoice::median_seed,
                       info("median_seed", "S", std::to_string(default_seed), "the seed of the median's subsample",
                            {"median_subsample", {}}),
                       0),
        enum_option(&MmdChoice::target,
                    info("kernel_y", "white|sqexp", "white",
                         "the target kernel: white (delta) on the labels, or sqexp, the RBF exp(-|e_y - e_y'|^2/(2 "
                         "l^2)) on one-hot labels (the paper's code); binary targets for top-label and class-wise",
                         {"notion", all_notions}),
                    {{TargetKernelType::white, "white"}, {TargetKernelType::sqexp, "sqexp"}}),
        real_option(&MmdChoice::target_lengthscale,
                    info("lengthscale_y", "L", "1", "the lengthscale of the sqexp target kernel",
                         {"kernel_y", {"sqexp"}}),
                    [](double x) { return x > 0; }, "a number > 0"),
        custom_option<MmdChoice>(
            required(info("features", "FILE", "",
                          "the features x_i of the individual notion, one row per observation (.npy or delimited "
                          "text)",
                          {"notion", {"individual"}})),
            [](MmdChoice& c, const Value& v) { c.features = text_value(v); },
            [](const MmdChoice& c) { return Value(c.features); }),
        custom_option<MmdChoice>(
            required(info("groups", "FILE", "",
                          "the group id (an integer) of each observation for the group notion, one per row",
                          {"notion", {"group"}})),
            [](MmdChoice& c, const Value& v) { c.groups = text_value(v); },
            [](const MmdChoice& c) { return Value(c.groups); }),
    };
}

MmdSpec resolve_mmd(const MmdChoice& choice, const CategoricalData& data, const ParallelOptions& parallel,
                    Record& record) {
    const std::size_t n = data.size();
    MmdSpec spec;
    spec.notion = choice.notion;
    spec.conditioning = {choice.shape, choice.metric, choice.lengthscale.value};
    const bool binary = spec.notion == MmdNotion::top_label || spec.notion == MmdNotion::class_wise;
    if (choice.target == TargetKernelType::sqexp)
        spec.target_gram = one_hot_rbf_gram(binary ? 2 : data.num_classes(), choice.target_lengthscale);
    const auto check_rows = [&](const std::string& option, const std::string& path, std::size_t rows) {
        if (rows != n)
            throw invalid_argument("`" + option + "` " + path + " has " + std::to_string(rows) +
                                   " rows, but the input has n = " + std::to_string(n) +
                                   " observations; give one row per observation");
    };
    if (spec.notion == MmdNotion::individual) {
        spec.features = read_features(choice.features);
        check_rows("features", choice.features, static_cast<std::size_t>(spec.features.rows()));
    }
    if (spec.notion == MmdNotion::group) {
        spec.groups = read_groups(choice.groups);
        check_rows("groups", choice.groups, spec.groups.size());
    }
    const bool conditioned = spec.notion != MmdNotion::group && spec.notion != MmdNotion::marginal;
    std::vector<double> lengthscales;
    if (conditioned && !choice.lengthscale.given()) {
        MedianOptions median;
        median.variant = choice.lengthscale.rule == "median" ? MedianVariant::pairs : MedianVariant::full;
        median.subsample = choice.median_subsample;
        median.seed = choice.median_seed;
        median.parallel = parallel;
        try {
            lengthscales = mmd_median_lengthscales(data, spec, median);
        } catch (const invalid_argument& e) {
            throw invalid_argument("`lengthscale` " + choice.lengthscale.rule + ": " + e.what());
        }
        if (spec.notion == MmdNotion::class_wise)
            spec.class_lengthscales = lengthscales;
        else
            spec.conditioning.lengthscale = lengthscales[0];
    }
    validate_mmd(data, spec, "mmd");

    record.push_back({"notion", to_string(spec.notion)});
    Record conditioning;
    if (conditioned) {
        conditioning.push_back({"shape", to_string(spec.conditioning.shape)});
        if (spec.notion == MmdNotion::canonical || spec.notion == MmdNotion::individual)
            conditioning.push_back({"metric", to_string(spec.conditioning.metric)});
        if (spec.class_lengthscales.empty()) {
            conditioning.push_back({"lengthscale", spec.conditioning.lengthscale});
        } else {
            Record per_class;
            for (std::size_t c = 0; c < spec.class_lengthscales.size(); ++c)
                per_class.push_back({"class_" + std::to_string(c), spec.class_lengthscales[c]});
            conditioning.push_back({"lengthscales", per_class});
        }
    } else {
        conditioning.push_back({"shape", spec.notion == MmdNotion::group ? "delta" : "none"});
    }
    Record target{{"type", to_string(choice.target)}};
    if (choice.target == TargetKernelType::sqexp) target.push_back({"lengthscale", choice.target_lengthscale});
    record.push_back({"kernel", Record{{"conditioning", conditioning}, {"target", target}}});
    return spec;
}

}  // namespace calib::detail

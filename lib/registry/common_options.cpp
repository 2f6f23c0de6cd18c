// Options shared by several methods (common_options.hpp).
#include "registry/common_options.hpp"

#include "ckce/memory.hpp"
#include "registry/models.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <utility>

namespace calib::detail {

void check_block_size(const char* function, std::size_t block_size, std::size_t n) {
    if (block_size < 2 || block_size > n)
        fail(function, "`block_size` = ", block_size, ", must be in [2, n = ", n, "]");
}

void add_intervals(Record& details, const std::vector<std::string>& names,
                   const std::vector<BootstrapInterval>& intervals) {
    for (std::size_t k = 0; k < intervals.size(); ++k) {
        details.push_back({names.at(k) + "_lower", intervals[k].lower});
        details.push_back({names.at(k) + "_upper", intervals[k].upper});
    }
}

Matrix observation_table(const std::string& option, const std::string& file,
                         const std::shared_ptr<const Matrix>& table, std::size_t n, const TextFormat& text) {
    if (!table) {
        Matrix x = read_table(file, text);
        check_rows(option, file, static_cast<std::size_t>(x.rows()), n);
        return x;
    }
    const Matrix& x = *table;
    check_rows(option, "", static_cast<std::size_t>(x.rows()), n);
    for (Eigen::Index j = 0; j < x.cols(); ++j)
        for (Eigen::Index i = 0; i < x.rows(); ++i)
            if (!std::isfinite(x(i, j)))
                throw invalid_argument("`" + option + "`[" + std::to_string(i) + ", " + std::to_string(j) +
                                       "] = " + format_value(x(i, j)) + ", must be finite");
    return x;
}

// ---- text files ----------------------------------------------------------------------------------------

OptionList<TextFormat> text_format_options() {
    return {
        enum_option(&TextFormat::header,
                    info("header", "", "auto", "whether the first line is a header (auto: when it cannot be data: a cell is not a number and "
                         "every number is its column's, as 0,1,2,label)"),
                    named<HeaderMode>({HeaderMode::automatic, HeaderMode::yes, HeaderMode::no})),
        enum_option(&TextFormat::delimiter, info("delimiter", "", "auto", "the column separator (auto: from the first line)"),
                    named<Delimiter>({Delimiter::automatic, Delimiter::comma, Delimiter::tab, Delimiter::semicolon,
                                      Delimiter::whitespace})),
    };
}

OptionList<SimplexOptions> simplex_options(const Condition& condition) {
    return {
        custom_option<SimplexOptions>(
            info("simplex_tolerance", "T|auto", "auto",
                 "every row of probabilities (or mixture weights; not with logits) sums to 1 within T, in [0, 1), or auto: "
                 "max(1e-6, m * 2^-24), which accepts float32 softmax outputs",
                 condition),
            [](SimplexOptions& o, const Value& v) {
                if (text_value(v) == "auto")
                    o.tolerance.reset();
                else
                    o.tolerance = real_value("simplex_tolerance", v, [](double t) { return t >= 0 && t < 1; }, "in [0, 1)");
            },
            [](const SimplexOptions& o) { return o.tolerance ? Value(*o.tolerance) : Value(std::string("auto")); }),
        flag_option(&SimplexOptions::renormalize,
                    info("renormalize", "", "",
                         "divide every row of probabilities (or mixture weights; not with logits) by its sum before the check",
                         condition)),
    };
}

// ---- ECE -----------------------------------------------------------------------------------------------

void check_ece_binning(const char* function, const EceOptions& o, std::size_t n) {
    if ((o.binning == BinningScheme::equal_mass || o.binning == BinningScheme::quantile) && o.mode == EceMode::canonical)
        fail(function, "`binning` ", binning_text(o), " bins one number per observation, but `mode` canonical bins "
             "the whole probability vector; use `mode` top-label or class-wise, or a uniform or median-variance `binning`");
    if (o.binning == BinningScheme::median_variance && static_cast<std::size_t>(o.minsize) > n)
        fail(function, "`binning` ", binning_text(o), " makes bins of at least ", o.minsize,
             " observations, but n = ", n, "; give more data or a smaller minimum bin size");
}

std::string binning_text(const EceOptions& o) {
    if (o.binning == BinningScheme::uniform) return "uniform:" + std::to_string(o.nbins);
    if (o.binning == BinningScheme::equal_mass) return "equal-mass:" + std::to_string(o.nbins);
    if (o.binning == BinningScheme::quantile) return "quantile:" + std::to_string(o.nbins);
    return "median-variance:" + std::to_string(o.minsize) + (o.maxbins == INT_MAX ? "" : ":" + std::to_string(o.maxbins));
}

namespace {

// uniform:NBINS, equal-mass:NBINS, quantile:NBINS or median-variance:MINSIZE[:MAXBINS], each count an
// integer >= 1.
void parse_binning(EceOptions& ece, const Value& value) {
    const std::string text = text_value(value);
    const std::string rule = "uniform:NBINS, equal-mass:NBINS, quantile:NBINS or median-variance:MINSIZE[:MAXBINS] with counts >= 1";
    const std::vector<std::string> parts = split(text, ':');
    const std::string& scheme = parts.front();
    std::vector<int> counts;
    for (std::size_t k = 1; k < parts.size(); ++k) {
        try {
            counts.push_back(static_cast<int>(unsigned_value("binning", parts[k], 1, INT_MAX)));
        } catch (const option_error&) {
            throw option_error("binning", "'" + text + "'", rule);
        }
    }
    const std::vector<std::pair<std::string, BinningScheme>> counted = {
        {"uniform", BinningScheme::uniform}, {"equal-mass", BinningScheme::equal_mass}, {"quantile", BinningScheme::quantile}};
    const auto named_scheme = std::find_if(counted.begin(), counted.end(), [&](const auto& s) { return s.first == scheme; });
    if (named_scheme != counted.end() && counts.size() == 1) {
        ece.binning = named_scheme->second;
        ece.nbins = counts[0];
    } else if (scheme == "median-variance" && (counts.size() == 1 || counts.size() == 2)) {
        ece.binning = BinningScheme::median_variance;
        ece.minsize = counts[0];
        ece.maxbins = counts.size() == 2 ? counts[1] : INT_MAX;
    } else {
        throw option_error("binning", "'" + text + "'", rule);
    }
}

}  // namespace

EceOptions default_ece_options() {
    EceOptions o;
    o.mode = EceMode::top_label;
    return o;
}

OptionList<EceOptions> ece_options() {
    return {
        custom_option<EceOptions>(
            info("binning", "SCHEME", "uniform:10",
                 "uniform:NBINS (equal-width bins per coordinate), equal-mass:NBINS (bins of equal counts, edges "
                 "halfway between them), quantile:NBINS (edges at the quantiles, scikit-learn's quantile "
                 "strategy) — these two with modes top-label and class-wise — or median-variance:MINSIZE[:MAXBINS]"),
            parse_binning, [](const EceOptions& o) { return Value(binning_text(o)); }),
        enum_option(&EceOptions::distance,
                    info("distance", "tv|l1|euclidean|sqeuclidean", "tv",
                         "the distance between a bin's mean prediction and its label frequencies"),
                    named<EceDistance>({EceDistance::tv, EceDistance::l1, EceDistance::euclidean,
                                        EceDistance::sqeuclidean})),
        enum_option(&EceOptions::mode,
                    info("mode", "top-label|class-wise|canonical", "top-label",
                         "bin the confidence of the top label (top-label: the ECE of ML practice), each class's "
                         "probability on its own and average over the classes (class-wise, Kull et al. 2019) or the "
                         "whole probability vector (canonical, Widmann et al. 2019; its bias grows with m and "
                         "shrinks with n: docs/ece.md)"),
                    named<EceMode>({EceMode::canonical, EceMode::top_label, EceMode::class_wise})),
        enum_option(&EceOptions::aggregate,
                    info("aggregate", "mean|max|rms", "mean",
                         "how the bins' distances are combined: mean, weighted by the bins' shares of the data (the "
                         "ECE), max over the non-empty bins (the maximum calibration error, MCE) or rms, the square "
                         "root of the weighted mean of their squares (the RMS calibration error)"),
                    named<EceAggregate>({EceAggregate::mean, EceAggregate::max, EceAggregate::rms})),
    };
}

// ---- CKCE ----------------------------------------------------------------------------------------------

namespace {
std::string number_text(double x) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.17g", x);
    return buffer;
}
constexpr double paper_lambda_power = 0.25;  // λ = n^(−1/4) [ms-ckce]
}  // namespace

OptionList<CkceSpec> ckce_options(bool with_seed) {
    OptionList<CkceSpec> list = {
        lengthscale_option(&CkceSpec::lengthscale,
                           info("lengthscale", "", "median",
                                "the lengthscale G > 0 of the simplex kernel p'q + exp(-|p-q|^2/(2 G^2)), or the "
                                "median of the Euclidean distances between predictions (exact; a median of 0 falls "
                                "back as docs/ckce.md says)"),
                           {"median"}),
    };
    list = list + median_subsample_options(&CkceSpec::median_subsample, &CkceSpec::median_seed, {"median"});
    OptionList<CkceOptions> own = {
        enum_option(&CkceOptions::method,
                    info("ckce_method", "exact|eigen|rff|lowrank", "exact",
                         "exact (Cholesky, O(n^3)), eigen (eigendecomposition), rff (random Fourier features) or "
                         "lowrank (pivoted incomplete Cholesky)"),
                    named<CkceMethod>({CkceMethod::exact, CkceMethod::eigen, CkceMethod::rff, CkceMethod::lowrank})),
        integer_option(&CkceOptions::features,
                       info("features", "D", "100", "the number of random frequencies", {"ckce_method", {"rff"}}), 1,
                       1000000),
        custom_option<CkceOptions>(
            info("rank", "R", "1000", "the largest rank of the factorisation", {"ckce_method", {"lowrank"}}),
            [](CkceOptions& o, const Value& v) { o.max_rank = unsigned_value("rank", v, 1, SIZE_MAX); },
            [](const CkceOptions& o) { return Value(std::uint64_t(o.max_rank)); },
            [](Record& r, const CkceOptions& o, std::size_t) { r.push_back({"max_rank", std::uint64_t(o.max_rank)}); }),
        real_option(&CkceOptions::tolerance,
                    info("tolerance", "T", "1e-06", "stop when the residual trace is below T tr(K)",
                         {"ckce_method", {"lowrank"}}),
                    [](double x) { return x >= 0 && x < 1; }, "in [0, 1)"),
    };
    if (with_seed)
        own.push_back(integer_option(&CkceOptions::seed,
                                     info("seed", "S", std::to_string(default_seed), "the seed of the random frequencies",
                                          {"ckce_method", {"rff"}}),
                                     0));
    list = list + nested(&CkceSpec::options, own);
    list.push_back(custom_option<CkceSpec>(
        info("lambda", "L", "", "a fixed regularisation lambda > 0 (the ridge added to K is lambda n)"),
        [](CkceSpec& k, const Value& v) {
            k.lambda = real_value("lambda", v, [](double x) { return x > 0; }, "a number > 0");
        },
        [](const CkceSpec& k) { return k.lambda ? Value(*k.lambda) : Value(std::string()); },
        [](Record&, const CkceSpec&, std::size_t) {}));
    list.push_back(custom_option<CkceSpec>(
        info("lambda_power", "a", number_text(paper_lambda_power), "lambda = n^(-a), a >= 0 (the paper's n^(-1/4))"),
        [](CkceSpec& k, const Value& v) {
            k.lambda_power = real_value("lambda_power", v, [](double x) { return x >= 0; }, ">= 0");
        },
        [](const CkceSpec& k) { return Value(k.lambda_power.value_or(paper_lambda_power)); },
        [](Record& r, const CkceSpec& k, std::size_t) { r.push_back({"lambda_rule", lambda_rule(k)}); }));
    return list;
}

void check_ckce_spec(const CkceSpec& spec) {
    if (spec.lambda && spec.lambda_power)
        throw invalid_argument("`lambda` and `lambda_power` exclude each other (give one)");
}

std::string lambda_rule(const CkceSpec& spec) {
    return spec.lambda ? "given" : "n^(-" + number_text(spec.lambda_power.value_or(paper_lambda_power)) + ")";
}

ResolvedCkce resolve_ckce(const CkceSpec& spec, const CategoricalData& data, const ParallelOptions& parallel) {
    detail::check_ckce_memory("ckce", data.size(), spec.options.method);  // before the median, not after it
    ResolvedCkce r{spec.options, {}};
    r.options.regularization = spec.lambda ? Regularization::fixed(*spec.lambda)
                                           : Regularization{1.0, spec.lambda_power.value_or(paper_lambda_power)};
    if (!spec.lengthscale.given()) {
        MedianOptions median;
        median.subsample = spec.median_subsample;
        median.seed = spec.median_seed;
        median.parallel = parallel;
        r.lengthscale = simplex_median_lengthscale(data.probabilities(), median);
    } else {
        r.lengthscale.value = spec.lengthscale.value;
    }
    r.options.kernel.lengthscale = r.lengthscale.value;
    r.options.parallel = parallel;
    return r;
}

Record ckce_details(const CkceSpec& spec, const ResolvedCkce& resolved, const CkceResult* result) {
    const CkceOptions& o = resolved.options;
    Record r{{"lengthscale", o.kernel.lengthscale}};
    if (!spec.lengthscale.given()) r.push_back({"lengthscale_fallback", to_string(resolved.lengthscale.fallback)});
    r.push_back({"kernel", Record{{"type", "simplex"},
                                  {"linear", o.kernel.linear},
                                  {"gaussian", o.kernel.gaussian},
                                  {"lengthscale", o.kernel.lengthscale},
                                  {"target", to_string(o.target.type)}}});
    if (!result) return r;
    r.insert(r.end(), {{"lambda", result->lambda}, {"ridge", result->ridge}});
    if (o.method == CkceMethod::rff) r.push_back({"feature_dimension", std::uint64_t(result->rank)});
    if (o.method == CkceMethod::lowrank)
        r.insert(r.end(), {{"rank", std::uint64_t(result->rank)}, {"residual_trace", result->residual_trace}});
    return r;
}

void check_rows(const std::string& option, const std::string& source, std::size_t rows, std::size_t n) {
    if (rows != n)
        throw invalid_argument("`" + option + "` " + (source.empty() ? "" : source + " ") + "has " +
                               std::to_string(rows) + " rows, but the input has n = " + std::to_string(n) +
                               " observations; give one row per observation");
}

std::string to_text(const BinaryEvent& event) {
    switch (event.kind) {
        case BinaryEvent::Kind::top_label: return "top-label";
        case BinaryEvent::Kind::one_class: return "class:" + std::to_string(event.k);
        case BinaryEvent::Kind::class_wise: return "class-wise";
        case BinaryEvent::Kind::automatic: break;
    }
    return "auto";
}

BinaryEvent binary_event_value(const Value& value, bool class_wise) {
    const std::string text = text_value(value);
    BinaryEvent out;
    if (text == "auto") return out;
    if (class_wise && text == "class-wise") {
        out.kind = BinaryEvent::Kind::class_wise;
        return out;
    }
    if (text == "top-label") {
        out.kind = BinaryEvent::Kind::top_label;
        return out;
    }
    if (text.rfind("class:", 0) == 0) {
        out.kind = BinaryEvent::Kind::one_class;
        out.k = static_cast<int>(unsigned_value("event", Value(text.substr(6)), 0, 1000000));
        return out;
    }
    throw option_error("event", "'" + text + "'",
                       std::string(class_wise ? "auto, top-label, class:K (K a 0-based class) or class-wise"
                                              : "auto, top-label or class:K (K a 0-based class)"));
}

CategoricalData binary_of(const std::string& method, const AnyData& data, const BinaryEvent& event) {
    const CategoricalData& d = classes_of(method, data);
    switch (event.kind) {
        case BinaryEvent::Kind::top_label: return d.top_label_event();
        case BinaryEvent::Kind::one_class: return d.class_event(event.k);
        case BinaryEvent::Kind::class_wise: throw invalid_argument(method + ": `event` class-wise applies to tests");
        case BinaryEvent::Kind::automatic: break;
    }
    if (d.num_classes() != 2)
        throw invalid_argument(method + " reads binary predictions, and these predictions have " +
                               std::to_string(d.num_classes()) +
                               " classes: choose the binary event with `event` top-label or class:K");
    return d;
}

TestResult binary_test(const std::string& method, const AnyData& data, const BinaryEvent& event,
                       const std::function<TestResult(const CategoricalData&)>& test) {
    if (event.kind == BinaryEvent::Kind::class_wise) return class_wise_test(classes_of(method, data), test);
    return test(binary_of(method, data, event));
}

}  // namespace calib::detail

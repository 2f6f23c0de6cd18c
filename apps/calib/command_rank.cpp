// `calib rank`: models evaluated on the same labelled data, ranked by calibration errors, with
// paired bootstrap intervals for the differences.
#include "commands.hpp"

#include "args.hpp"
#include "ckce_options.hpp"
#include "dataset.hpp"
#include "ece_options.hpp"
#include "rank_output.hpp"
#include "run_output.hpp"
#include "shared_options.hpp"
#include "usage_error.hpp"

#include <calib/ckce.hpp>
#include <calib/errors.hpp>
#include <calib/estimators.hpp>
#include <calib/random.hpp>

#include <omp.h>

#include <exception>
#include <iostream>
#include <mutex>

namespace calib::cli {

namespace {

const char* const rank_estimator_choices = "ckce, skce-unbiased, ece";

std::vector<OptionSpec> rank_option_specs() {
    std::vector<OptionSpec> specs = {{"family", true},     {"threads", true}, {"quiet", false},  {"help", false},
                                     {"estimators", true}, {"replicates", true}, {"level", true}, {"format", true}};
    specs.insert(specs.end(), reading_option_specs.begin(), reading_option_specs.end());
    specs.insert(specs.end(), ckce_option_specs.begin(), ckce_option_specs.end());
    specs.insert(specs.end(), ece_option_specs.begin(), ece_option_specs.end());
    return specs;
}

// Splits off the model files: every argument after --input up to the next option (--input may be
// given more than once); the rest goes to the option parser.
std::vector<std::string> take_inputs(const std::vector<std::string>& arguments, std::vector<std::string>& rest) {
    std::vector<std::string> files;
    for (std::size_t i = 0; i < arguments.size(); ++i) {
        const std::string& a = arguments[i];
        if (a == "--input" || a.rfind("--input=", 0) == 0) {
            if (a != "--input") files.push_back(a.substr(8));
            while (i + 1 < arguments.size() && arguments[i + 1].rfind("--", 0) != 0) files.push_back(arguments[++i]);
            continue;
        }
        rest.push_back(a);
    }
    for (const std::string& f : files)
        if (f.empty()) throw usage_error("option --input has an empty file name");
    if (files.size() < 2)
        throw usage_error("calib rank needs at least two model files: --input MODEL1.csv MODEL2.csv ... (got " +
                          std::to_string(files.size()) + ")");
    return files;
}

std::vector<std::string> parse_estimators(const std::string& text) {
    std::vector<std::string> names;
    for (std::size_t start = 0;;) {
        const std::size_t comma = text.find(',', start);
        const std::string name = text.substr(start, comma == std::string::npos ? comma : comma - start);
        if (name != "ckce" && name != "skce-unbiased" && name != "ece")
            throw usage_error("option --estimators: unknown estimator '" + name + "', expected a comma-separated list of " +
                              rank_estimator_choices);
        for (const std::string& seen : names)
            if (seen == name) throw usage_error("option --estimators: '" + name + "' is listed twice");
        names.push_back(name);
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return names;
}

// The same n, the same classes and the same labels in every file: the models must have been
// evaluated on the same labelled data.
void check_same_labels(const std::vector<CategoricalData>& models, const std::vector<std::string>& files) {
    const CategoricalData& first = models.front();
    for (std::size_t k = 1; k < models.size(); ++k) {
        const CategoricalData& d = models[k];
        if (d.size() != first.size())
            throw invalid_argument(files[k] + " has " + std::to_string(d.size()) + " observations but " + files[0] +
                                   " has " + std::to_string(first.size()) +
                                   "; calib rank compares models evaluated on the same labelled data");
        if (d.num_classes() != first.num_classes())
            throw invalid_argument(files[k] + " has " + std::to_string(d.num_classes()) + " classes but " + files[0] +
                                   " has " + std::to_string(first.num_classes()));
        for (std::size_t i = 0; i < d.size(); ++i)
            if (d.labels()[i] != first.labels()[i])
                throw invalid_argument(files[k] + ": line " + std::to_string(i + 2) + ": label " +
                                       std::to_string(d.labels()[i]) + " differs from the label " +
                                       std::to_string(first.labels()[i]) + " of " + files[0] +
                                       "; calib rank compares models evaluated on the same labelled data",
                                       static_cast<long>(i));
    }
}

// One estimator's value on one model's data; `resolved` fixes the model's kernel (γ from the full
// data, kept for the bootstrap replicates).
double estimate(const std::string& estimator, const CategoricalData& d, const ResolvedCkce& resolved,
                const EceChoice& ece_choice, int threads) {
    if (estimator == "ece") return ece(d, ece_choice.options);
    if (estimator == "skce-unbiased") return jkce_unbiased(d, resolved.options.kernel, {}, {threads});
    CkceOptions o = resolved.options;
    o.parallel.num_threads = threads;
    return ckce(d, o).estimate;
}

}  // namespace

int run_rank(const std::vector<std::string>& arguments) {
    if (wants_help(arguments)) {
        std::cout << rank_help;
        return 0;
    }
    std::vector<std::string> rest;
    RankPlan plan;
    plan.files = take_inputs(arguments, rest);
    Args args(rest, rank_option_specs(), "rank");
    plan.family = parse_family(args.take_required("family", "categorical|binary"));
    if (!is_categorical(plan.family))
        throw usage_error("calib rank applies to --family categorical or binary, not " + to_string(plan.family));
    const ReadOptions read = take_reading_options(args, plan.family);
    plan.threads = take_threads(args);
    plan.estimators = parse_estimators(args.take("estimators", "ckce,skce-unbiased,ece"));
    plan.replicates = static_cast<std::size_t>(parse_integer("replicates", args.take("replicates", "200"), 1, 10000000));
    plan.level = parse_double("level", args.take("level", "0.95"));
    if (!(plan.level > 0 && plan.level < 1)) throw usage_error("option --level must be in (0, 1)");
    plan.format = args.take("format", "json");
    if (plan.format != "json" && plan.format != "table")
        throw usage_error("option --format " + plan.format + ", expected json or table");
    const bool kernel = plan.uses("ckce") || plan.uses("skce-unbiased");
    plan.ckce = take_ckce_options(args, false);
    if (!plan.uses("ckce"))
        for (const char* option : {"ckce-method", "lambda", "lambda-power", "features", "rank", "tolerance"})
            if (args.has(option)) throw usage_error(std::string("option --") + option + " applies only to the ckce estimator");
    if (!kernel && args.has("lengthscale"))
        throw usage_error("option --lengthscale applies only to the ckce and skce-unbiased estimators");
    if (plan.uses("ece")) plan.ece = take_ece_options(args, "uniform:3", "l1");
    plan.seed = plan.ckce.options.seed;
    const bool quiet = args.take_flag("quiet");
    std::string listed;
    for (const std::string& name : plan.estimators) listed += (listed.empty() ? "" : ",") + name;
    args.reject_unused("calib rank --estimators " + listed);

    std::vector<CategoricalData> models;
    for (const std::string& file : plan.files)
        models.push_back(std::get<CategoricalData>(read_dataset(plan.family, file, read)));
    check_same_labels(models, plan.files);
    const std::size_t n = models.front().size(), count = models.size(), e_count = plan.estimators.size();
    plan.n = n;
    for (const CategoricalData& d : models) plan.resolved.push_back(resolve_ckce(plan.ckce, d, ParallelOptions{plan.threads, nullptr}));

    const Stopwatch stopwatch;
    const int threads = resolved_threads(plan.threads);
    RankNumbers numbers;
    numbers.estimates.assign(e_count, std::vector<double>(count));
    for (std::size_t e = 0; e < e_count; ++e)
        for (std::size_t k = 0; k < count; ++k)
            numbers.estimates[e][k] = estimate(plan.estimators[e], models[k], plan.resolved[k], plan.ece, threads);
    // Replicate r resamples the observation indices once, from stream r + 1 of the seed (stream 0
    // draws the random features), and applies them to every model: the comparisons are paired.
    numbers.replicates.assign(e_count, std::vector<std::vector<double>>(count, std::vector<double>(plan.replicates)));
    std::exception_ptr error;
    std::mutex mutex;
#pragma omp parallel for schedule(dynamic) num_threads(threads) if (threads > 1)
    for (std::size_t r = 0; r < plan.replicates; ++r) {
        try {
            Rng rng = make_stream(plan.seed, r + 1);
            std::vector<std::size_t> idx(n);
            for (std::size_t& i : idx) i = uniform_index(rng, n);
            for (std::size_t k = 0; k < count; ++k) {
                const CategoricalData d = subset(models[k], idx);
                for (std::size_t e = 0; e < e_count; ++e)
                    numbers.replicates[e][k][r] = estimate(plan.estimators[e], d, plan.resolved[k], plan.ece, 1);
            }
        } catch (...) {
            const std::lock_guard<std::mutex> lock(mutex);
            if (!error) error = std::current_exception();
        }
    }
    if (error) std::rethrow_exception(error);
    plan.seconds = stopwatch.seconds();
    if (plan.format == "json")
        std::cout << rank_json(plan, numbers).dump() << '\n';
    else
        std::cout << rank_table(plan, numbers);
    return 0;
}

}  // namespace calib::cli

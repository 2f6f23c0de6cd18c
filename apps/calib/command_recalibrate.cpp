// `calib recalibrate fit|apply`: a recalibration map fitted by NLL on a validation file and written as
// JSON, optionally judged on a held-out split by the NLL and the SKCE bootstrap test (through the
// registry, as `calib test --method bootstrap` runs it); and a map file applied to new predictions.
#include "commands.hpp"

#include "args.hpp"
#include "run_output.hpp"
#include "setup_options.hpp"
#include "shared_options.hpp"
#include "usage_error.hpp"

#include <calib/recalibration.hpp>
#include <calib/registry.hpp>
#include <calib/tool/random.hpp>
#include <calib/tool/recalibration_json.hpp>
#include <calib/version.hpp>

#include <fstream>
#include <iostream>
#include <sstream>

namespace calib::cli {

namespace {

std::vector<OptionSpec> fit_specs() {
    std::vector<OptionSpec> specs = command_option_specs("recalibrate fit");
    specs.push_back({"features", true});
    for (const char* family : {"categorical", "normal"})
        add_option_specs(specs, RecalibrationSetup(find_family(family)).options());
    return specs;
}

// The split of --holdout: a seeded choice of ⌊F·n⌋ held-out rows, the rest for fitting.
struct Split {
    std::vector<std::size_t> fit, held_out;
};

// CommandSetup::validate(n) has checked that both parts hold at least 2 rows.
Split split(std::size_t n, double fraction, std::uint64_t seed) {
    Split out;
    const auto k = static_cast<std::size_t>(fraction * static_cast<double>(n));
    Rng rng = make_stream(seed, 0);
    out.held_out = sample_without_replacement(n, k, rng);
    for (std::size_t i = 0, j = 0; i < n; ++i)
        if (j < k && out.held_out[j] == i) ++j;
        else out.fit.push_back(i);
    return out;
}

// The p-value of the SKCE bootstrap test with the registry's defaults and the kernel's median rule.
double skce_p_value(const AnyData& data, const FamilyInfo& family, std::uint64_t seed, int threads) {
    TestSetup test = make_test("bootstrap");
    test.set("seed", std::to_string(seed));
    test.check();
    test.validate(data_size(data));
    const ParallelOptions parallel{threads, nullptr};
    const Kernel kernel = KernelSetup(family).resolve(data, parallel);
    return test.run(data, &kernel, nullptr, parallel).p_value;
}

// The held-out conditional MMD² before and after the map (the registry's estimator mmd, unbiased): for
// categorical maps in the objective's notion (canonical unless --notion says otherwise), for normal ones in
// the distribution notion with the PIT target. k_Z's lengthscale is the median heuristic's on the
// predictions before the map and is kept for after, so that both numbers use one kernel (as the fit's
// nll+mmd objective fixes it at the start).
void judge_mmd(const AnyData& before, const AnyData& after, MmdNotion notion, int threads, JsonObject& judged) {
    EstimatorSetup mmd = make_estimator("mmd");
    const bool normal = std::holds_alternative<NormalData>(before);
    mmd.set("notion", normal ? std::string("distribution") : to_string(notion));
    if (normal) mmd.set("kernel_y", "pit");
    mmd.check();
    const ParallelOptions parallel{threads, nullptr};
    const EstimateResult unmapped = mmd.run(before, nullptr, nullptr, parallel);
    judged.set("mmd_notion", to_text(find(unmapped.details, "notion")));
    if (notion != MmdNotion::marginal || normal) {  // marginal: no k_Z, so no lengthscale
        const auto& kernel = std::get<Record>(find(unmapped.details, "kernel"));
        const auto& conditioning = std::get<Record>(find(kernel, "conditioning"));
        // Class-wise records one lengthscale per class, all the same (docs/mmd.md).
        const double lengthscale =
            to_double(notion == MmdNotion::class_wise && !normal
                          ? std::get<Record>(find(conditioning, "lengthscales")).front().value
                          : find(conditioning, "lengthscale"));
        mmd.set("lengthscale", lengthscale);
        judged.set("mmd_lengthscale", lengthscale);
    }
    const EstimateResult mapped = mmd.run(after, nullptr, nullptr, parallel);
    judged.set("mmd_before", unmapped.estimate).set("mmd_after", mapped.estimate);
}

// The features a normal map takes when applied: affine-features' x; none for affine (whose features,
// if any, were the individual notion's Z of the fit).
Matrix map_features(const RecalibrationMap& map, const Matrix& features) {
    return map.method == RecalibrationMethod::affine_features ? features : Matrix();
}

// The held-out predictions before the map (none) or after it, as a data set the tests take.
AnyData as_data(const RecalibrationData& held_out, const RecalibrationMap* map) {
    if (const auto* scores = std::get_if<CategoricalScores>(&held_out.data)) {
        if (map) return CategoricalData(apply_recalibration(*map, scores->scores), scores->labels);
        if (scores->logits) return CategoricalData::from_logits(scores->scores, scores->labels);
        return CategoricalData(scores->scores, scores->labels);
    }
    const NormalData& normal = std::get<NormalData>(held_out.data);
    if (!map) return normal;
    const Matrix out = apply_recalibration(*map, normal.mean(), normal.stddev(), map_features(*map, held_out.features));
    return NormalData(out.col(0), out.col(1), normal.targets());
}

double nll_of(const RecalibrationMap& map, const RecalibrationData& data) {
    if (const auto* scores = std::get_if<CategoricalScores>(&data.data)) return recalibrated_nll(map, *scores);
    return recalibrated_nll(map, std::get<NormalData>(data.data), map_features(map, data.features));
}

struct FitRequest {
    const FamilyInfo* family = nullptr;
    RecalibrationMethod method = RecalibrationMethod::temperature;
    RecalibrationOptions options;  // as the setup resolved them
    std::optional<double> holdout;
    std::uint64_t seed = default_seed;
    int threads = 0;
};

// Fits on all rows, or with --holdout on the rest and reports the held-out NLL, SKCE test p-value and
// conditional MMD² before and after (under "holdout" in `out`).
RecalibrationFit fit_and_judge(const RecalibrationSetup& setup, const RecalibrationData& data, const FitRequest& request,
                               JsonObject& out) {
    if (!request.holdout) return setup.run(data);
    const Split parts = split(data.size(), *request.holdout, request.seed);
    const RecalibrationData held_out = data.rows(parts.held_out);
    const RecalibrationFit fit = setup.run(data.rows(parts.fit));
    const RecalibrationMap& map = fit.map;
    const RecalibrationMap identity = identity_map(request.method, map.num_classes, map.logits, request.options);
    JsonObject judged;
    judged.set("fraction", *request.holdout).set("seed", request.seed);
    judged.set("n_fit", parts.fit.size()).set("n_held_out", parts.held_out.size());
    judged.set("nll_before", nll_of(identity, held_out)).set("nll_after", nll_of(map, held_out));
    for (const char* when : {"before", "after"})
        judged.set(std::string("skce_bootstrap_p_value_") + when,
                   skce_p_value(as_data(held_out, when[0] == 'a' ? &map : nullptr), *request.family, request.seed,
                                request.threads));
    judge_mmd(as_data(held_out, nullptr), as_data(held_out, &map), request.options.notion, request.threads, judged);
    out.set("holdout", judged);
    return fit;
}

std::string read_text_file(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file) throw invalid_argument(path + ": cannot be opened");
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
}

int run_recalibrate_fit(const std::vector<std::string>& arguments, Stage stage) {
    Args args(arguments, fit_specs(), "recalibrate fit");
    InputOptions input = take_input_options(args);
    RecalibrationSetup setup(*input.family);
    take_setup_options(args, setup);
    const std::optional<std::string> features_path = args.take("features");
    setup.check_features(features_path.has_value());
    FitRequest request;
    request.family = input.family;
    request.method = setup.method();
    request.options = setup.fit_options();
    const bool categorical = input.family->name == "categorical";
    const bool mmd = request.options.objective == RecalibrationObjective::nll_mmd;
    const CommandSetup command = take_command_options(args, "recalibrate fit");
    request.holdout = command.values().holdout;
    request.seed = command.values().seed;
    request.threads = command.values().threads;
    const std::string map_path = command.values().out;
    reject_unused(args, {&setup}, message_context(setup));
    if (stage == Stage::options) return 0;
    check_writable(map_path);  // before the fit, not after it

    RunRecord run;
    run.threads = request.threads;
    JsonObject out;
    out.set("command", "recalibrate fit").set("method", to_string(request.method)).set("objective", to_string(request.options.objective));
    if (mmd) out.set("lambda", request.options.lambda).set("notion", to_string(request.options.notion));
    const Stopwatch stopwatch;
    RecalibrationData data;
    if (categorical) {
        data.data = read_categorical_scores(input.path, input.read, &run.files);
    } else {
        data.data = std::get<NormalData>(read_input(input, &run.files));
        if (features_path) {
            FileSummary summary;
            data.features = read_table(*features_path, input.read.text, &summary);
            run.files.push_back(summary);
            setup.check_features(data.features, data.size());  // before the held-out split takes rows of it
        }
    }
    out.set("n", data.size());
    command.validate(data.size());
    const RecalibrationFit fit = fit_and_judge(setup, data, request, out);
    run.compute_seconds = stopwatch.seconds();
    write_file(map_path, to_json(fit));
    const RecalibrationMap& map = fit.map;
    const FitSummary& summary = fit.summary;
    out.set("parameters", parameters_json(map));  // by name, as in the map file
    out.set("objective_before", summary.objective_before).set("objective_after", summary.objective_after);
    if (mmd) out.set("mmd_block_size", map.mmd_block_size).set("mmd_lengthscale", map.mmd_lengthscale);
    if (mmd && !categorical) {
        out.set("kernel_y", to_string(map.mmd_target));
        if (map.mmd_target_lengthscale > 0) out.set("mmd_target_lengthscale", map.mmd_target_lengthscale);
        if (map.mmd_target == GaussianTarget::sign) out.set("mmd_threshold", map.mmd_threshold);
        if (map.mmd_marginalisation != MmdMarginalisation::analytic)
            out.set("mmd_samples", map.mmd_samples).set("mmd_seed", map.mmd_seed);
    }
    out.set("iterations", summary.iterations).set("evaluations", summary.evaluations);
    out.set("status", to_string(summary.termination));
    out.set("map", map_path);
    print_with_run_fields(out, input, run);
    return 0;
}

int run_recalibrate_apply(const std::vector<std::string>& arguments, Stage stage) {
    std::vector<OptionSpec> specs = {{"input", true}, {"help", false}};
    add_option_specs(specs, CommandSetup("recalibrate apply").options());
    Args args(arguments, specs, "recalibrate apply");
    const std::string input = args.take_required("input", "FILE (.csv, .txt, .npy; - for stdin)");
    const CommandSetup command = take_command_options(args, "recalibrate apply");
    const CommandOptions& o = command.values();
    const std::string& map_path = o.map;
    const std::string& output = o.output;
    reject_unused(args, {&command}, "calib recalibrate apply");
    if (stage == Stage::options) return 0;
    check_writable(output);

    RecalibrationMap map;
    try {
        map = recalibration_fit_from_json(read_text_file(map_path)).map;
    } catch (const invalid_argument& e) {  // the file's name before the reader's message
        throw invalid_argument(map_path + ": " + e.what());
    }
    check_apply_features(map, command.given("features"));
    const Matrix table = read_table(input, o.text);
    const Matrix features = command.given("features") ? read_table(o.features, o.text) : Matrix();
    const bool categorical = is_categorical(map.method);
    const Eigen::Index width = categorical ? map.num_classes : 2;
    if (table.cols() != width && table.cols() != width + 1)  // the file's form: the map's columns and the targets
        throw invalid_argument(input + ": found " + std::to_string(table.cols()) + " columns, expected " +
                               std::to_string(width) + (categorical ? " (the map's classes)" : " (mu, sigma)") +
                               " or one more (the targets, copied)");
    Matrix result(table.rows(), table.cols());
    std::vector<std::string> names;
    if (categorical) {
        result.leftCols(width) = apply_recalibration(map, Matrix(table.leftCols(width)));
        for (Eigen::Index k = 0; k < width; ++k) names.push_back("p_" + std::to_string(k + 1));
    } else {
        result.leftCols(2) = apply_recalibration(map, table.col(0), table.col(1), features);
        names = {"mu", "sigma"};
    }
    if (table.cols() > width) {
        result.col(width) = table.col(width);
        names.push_back(categorical ? "label" : "y");
    }
    write_table(output, result, names);
    JsonObject out;
    out.set("command", "recalibrate apply").set("method", to_string(map.method)).set("map", map_path);
    out.set("input", input).set("output", output).set("n", static_cast<std::size_t>(table.rows()));
    out.set("columns", static_cast<std::size_t>(result.cols())).set("calib_version", std::string(version));
    std::cout << json_output(out) << '\n';
    return 0;
}

}  // namespace

int run_recalibrate(const std::vector<std::string>& arguments, Stage stage) {
    if (wants_help(arguments)) {
        std::cout << recalibrate_help();
        return 0;
    }
    if (arguments.empty()) throw usage_error("calib recalibrate needs a subcommand: fit or apply (see 'calib recalibrate --help')");
    const std::vector<std::string> rest(arguments.begin() + 1, arguments.end());
    if (arguments.front() == "fit") return run_recalibrate_fit(rest, stage);
    if (arguments.front() == "apply") return run_recalibrate_apply(rest, stage);
    throw usage_error("unknown subcommand 'recalibrate " + arguments.front() + "' (fit or apply)");
}

}  // namespace calib::cli

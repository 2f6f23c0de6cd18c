// A recalibration map as a JSON file and back (docs/recalibration.md, "The map file"). Doubles are
// written in the shortest form that reads back bitwise, so a map read back is the map written.
#include <calib/recalibration.hpp>
#include <calib/tool/json.hpp>

#include "core/check.hpp"
#include "io/json_reader.hpp"
#include "recalibration/map_kinds.hpp"
#include "recalibration/objective.hpp"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <cmath>

namespace calib {

namespace {

using detail::JsonValue;

constexpr const char* function = "recalibration_fit_from_json";

std::vector<double> values(const Vector& v, Eigen::Index start, Eigen::Index count) {
    return std::vector<double>(v.data() + start, v.data() + start + count);
}

// The named parameters of a map: (name, first index, count, is an array).
struct Slot {
    const char* name;
    Eigen::Index start, count;
    bool array;
};

std::vector<Slot> slots(RecalibrationMethod method, Eigen::Index m) {
    switch (method) {
    case RecalibrationMethod::temperature: return {{"temperature", 0, 1, false}};
    case RecalibrationMethod::temperature_bias: return {{"temperature", 0, 1, false}, {"bias", 1, m, true}};
    case RecalibrationMethod::vector: return {{"weights", 0, m, true}, {"bias", m, m, true}};
    case RecalibrationMethod::matrix:
    case RecalibrationMethod::dirichlet: return {{"matrix", 0, m * m, true}, {"bias", m * m, m, true}};
    case RecalibrationMethod::platt: return {{"a", 0, 1, false}, {"b", 1, 1, false}};
    case RecalibrationMethod::beta: return {{"a", 0, 1, false}, {"b", 1, 1, false}, {"c", 2, 1, false}};
    case RecalibrationMethod::isotonic:
    case RecalibrationMethod::top_label_isotonic:
    case RecalibrationMethod::histogram:
    case RecalibrationMethod::venn_abers: return {};  // its lists (map_kinds.hpp)
    case RecalibrationMethod::affine: return {{"a", 0, 1, false}, {"b", 1, 1, false}, {"s", 2, 1, false}};
    case RecalibrationMethod::affine_features:
        return {{"a", 0, 1, false}, {"b", 1, 1, false}, {"s0", 2, 1, false}, {"s1", 3, 1, false}};
    }
    return {};
}

const JsonValue& member(const JsonValue& object, const std::string& key, JsonValue::Kind kind, const char* kind_name,
                        const char* where = "the map") {
    const auto it = object.object.find(key);
    if (it == object.object.end()) detail::fail(function, where, " has no \"", key, "\"");
    if (it->second.kind != kind) detail::fail(function, "\"", key, "\" must be ", kind_name);
    return it->second;
}

double number(const JsonValue& object, const std::string& key) {
    const double x = member(object, key, JsonValue::Kind::number, "a number").number;
    if (!std::isfinite(x)) detail::fail(function, "\"", key, "\" = ", detail::format_value(x), ", must be finite");
    return x;
}

std::size_t count(const JsonValue& object, const std::string& key) {
    const double x = number(object, key);
    if (!(x >= 0 && x <= 1e15 && x == std::floor(x)))
        detail::fail(function, "\"", key, "\" = ", detail::format_value(x), ", must be a non-negative integer");
    return static_cast<std::size_t>(x);
}

std::string text(const JsonValue& object, const std::string& key) {
    return member(object, key, JsonValue::Kind::string, "a string").string;
}

void only_keys(const JsonValue& object, const std::vector<std::string>& keys, const char* where) {
    for (const auto& [key, value] : object.object) {
        bool known = false;
        for (const std::string& k : keys) known = known || k == key;
        if (!known) detail::fail(function, "unknown key \"", key, "\" in ", where);
    }
}

bool has_target_lengthscale(GaussianTarget t) { return t == GaussianTarget::rbf || t == GaussianTarget::pit; }

}  // namespace

std::vector<NamedParameter> named_parameters(const RecalibrationMap& map) {
    if (const detail::MapKind* kind = detail::map_kind(map.method, map.num_classes)) return kind->parameters(map);
    std::vector<NamedParameter> named;
    for (const Slot& slot : slots(map.method, map.num_classes))
        named.push_back({slot.name, values(map.parameters, slot.start, slot.count), slot.array});
    return named;
}

namespace {

// The named parameters as the map file holds them: a list for the vectors, else one number.
JsonObject parameters_json(const RecalibrationMap& map) {
    JsonObject parameters;
    for (const NamedParameter& p : named_parameters(map))
        if (p.array) parameters.set(p.name, p.values);
        else parameters.set(p.name, p.values.front());
    return parameters;
}

}  // namespace

std::string to_json(const RecalibrationFit& fit) {
    const RecalibrationMap& map = fit.map;
    const JsonObject parameters = parameters_json(map);
    JsonObject out;
    out.set("method", to_string(map.method));
    out.set("family", is_categorical(map.method) ? "categorical" : "normal");
    if (is_categorical(map.method)) {
        out.set("input", map.logits ? "logits" : "probabilities");
        out.set("num_classes", map.num_classes);
        out.set("probability_floor", map.probability_floor);
    }
    if (map.method == RecalibrationMethod::matrix || map.method == RecalibrationMethod::dirichlet)
        out.set("ridge", map.ridge);
    if (map.method == RecalibrationMethod::dirichlet) out.set("intercept_ridge", map.intercept_ridge);
    if (map.method == RecalibrationMethod::histogram)
        out.set("binning", to_string(map.histogram_binning)).set("bins", map.histogram_bins);
    out.set("parameters", parameters);
    out.set("objective", to_string(map.objective));
    if (map.objective == RecalibrationObjective::nll_mmd) {
        out.set("lambda", map.lambda).set("notion", to_string(map.notion));
        out.set("mmd_block_size", map.mmd_block_size);
        if (map.notion != MmdNotion::marginal) out.set("mmd_lengthscale", map.mmd_lengthscale);
        if (!is_categorical(map.method)) {
            out.set("mmd_target", to_string(map.mmd_target));
            if (has_target_lengthscale(map.mmd_target)) out.set("mmd_target_lengthscale", map.mmd_target_lengthscale);
            if (map.mmd_target == GaussianTarget::sign) out.set("mmd_threshold", map.mmd_threshold);
            if (map.mmd_marginalisation != MmdMarginalisation::analytic) {
                out.set("mmd_marginalisation", to_string(map.mmd_marginalisation));
                out.set("mmd_samples", map.mmd_samples).set("mmd_seed", map.mmd_seed);
            }
        }
    }
    out.set("objective_before", fit.summary.objective_before);
    out.set("objective_after", fit.summary.objective_after);
    out.set("iterations", fit.summary.iterations);
    out.set("evaluations", fit.summary.evaluations);
    out.set("status", to_string(fit.summary.termination));
    return out.dump(2) + "\n";
}

RecalibrationFit recalibration_fit_from_json(const std::string& json) {
    const JsonValue root = detail::parse_json(json, "recalibration map");
    if (root.kind != JsonValue::Kind::object) detail::fail(function, "the map must be a JSON object");
    RecalibrationFit fit;
    RecalibrationMap& map = fit.map;
    map.method = parse_recalibration_method(text(root, "method"));
    const bool categorical = is_categorical(map.method);
    const std::string family = text(root, "family");
    if (family != (categorical ? "categorical" : "normal"))
        detail::fail(function, "family = '", family, "' does not fit method = ", to_string(map.method));
    std::vector<std::string> keys = {"method", "family", "parameters", "objective", "objective_before", "objective_after",
                                     "iterations", "evaluations", "status"};
    if (categorical) {
        const std::string input = text(root, "input");
        if (input != "logits" && input != "probabilities")
            detail::fail(function, "input = '", input, "', must be logits or probabilities");
        map.logits = input == "logits";
        const std::size_t m = count(root, "num_classes");
        if (m < 2 || m > 100000) detail::fail(function, "num_classes = ", m, ", must be in [2, 100000]");
        map.num_classes = static_cast<int>(m);
        if (method_info(map.method).two_classes && m != 2)
            detail::fail(function, "num_classes = ", m, " does not fit method = ", to_string(map.method), " (m = 2)");
        map.probability_floor = number(root, "probability_floor");
        if (!(map.probability_floor > 0 && map.probability_floor < 1))
            detail::fail(function, "probability_floor = ", detail::format_value(map.probability_floor), ", must be in (0, 1)");
        keys.insert(keys.end(), {"input", "num_classes", "probability_floor"});
    }
    if (map.method == RecalibrationMethod::histogram) {
        const std::string binning = text(root, "binning");
        bool known = false;
        for (const PredictionBinning b : {PredictionBinning::equal_mass, PredictionBinning::uniform, PredictionBinning::distinct})
            if (to_string(b) == binning) map.histogram_binning = b, known = true;
        if (!known) detail::fail(function, "binning = '", binning, "', must be equal-mass, uniform or distinct");
        map.histogram_bins = count(root, "bins");
        keys.insert(keys.end(), {"binning", "bins"});
    }
    const auto read_penalty = [&](const char* key, double& value) {
        value = number(root, key);
        if (value < 0) detail::fail(function, key, " = ", detail::format_value(value), ", must be >= 0");
        keys.push_back(key);
    };
    const bool dirichlet = map.method == RecalibrationMethod::dirichlet;
    if (map.method == RecalibrationMethod::matrix || dirichlet) read_penalty("ridge", map.ridge);
    if (dirichlet) read_penalty("intercept_ridge", map.intercept_ridge);
    const std::string objective = text(root, "objective");
    if (objective != "nll" && objective != "nll+mmd")
        detail::fail(function, "objective = '", objective, "', must be nll or nll+mmd");
    map.objective = parse_recalibration_objective(objective);
    if (!is_parametric(map.method) && map.objective != RecalibrationObjective::nll)
        detail::fail(function, "objective = '", objective, "' does not fit method = ", to_string(map.method),
                     " (fitted exactly: nll)");
    if (map.objective == RecalibrationObjective::nll_mmd) {
        map.lambda = number(root, "lambda");
        if (map.lambda < 0) detail::fail(function, "lambda = ", detail::format_value(map.lambda), ", must be >= 0");
        const std::string notion = text(root, "notion");
        const std::vector<MmdNotion>& notions = recalibration_notions(categorical);
        if (std::none_of(notions.begin(), notions.end(), [&](MmdNotion v) { return to_string(v) == notion; }))
            detail::fail(function, "notion = '", notion, "', must be ", recalibration_notion_names(categorical));
        map.notion = parse_mmd_notion(notion);
        map.mmd_block_size = count(root, "mmd_block_size");
        if (map.mmd_block_size < 2) detail::fail(function, "mmd_block_size = ", map.mmd_block_size, ", must be >= 2");
        keys.insert(keys.end(), {"lambda", "notion", "mmd_block_size"});
        const auto positive = [&](const char* key) {
            const double x = number(root, key);
            if (!(x > 0)) detail::fail(function, key, " = ", detail::format_value(x), ", must be > 0");
            keys.push_back(key);
            return x;
        };
        if (map.notion != MmdNotion::marginal) map.mmd_lengthscale = positive("mmd_lengthscale");
        if (!categorical) {
            map.mmd_target = parse_gaussian_target(text(root, "mmd_target"), "the map's mmd_target");
            keys.push_back("mmd_target");
            if (has_target_lengthscale(map.mmd_target)) map.mmd_target_lengthscale = positive("mmd_target_lengthscale");
            if (map.mmd_target == GaussianTarget::sign) {
                map.mmd_threshold = number(root, "mmd_threshold");
                keys.push_back("mmd_threshold");
            }
            if (root.object.count("mmd_marginalisation")) {  // absent: analytic
                const std::string scheme = text(root, "mmd_marginalisation");
                if (scheme == "analytic")  // written only when sampled
                    detail::fail(function, "mmd_marginalisation = 'analytic' is written by leaving the key out");
                map.mmd_marginalisation = parse_mmd_marginalisation(scheme, "the map's mmd_marginalisation");
                map.mmd_samples = count(root, "mmd_samples");
                if (map.mmd_samples < 1) detail::fail(function, "mmd_samples = 0, must be >= 1");
                map.mmd_seed = static_cast<std::uint64_t>(count(root, "mmd_seed"));
                keys.insert(keys.end(), {"mmd_marginalisation", "mmd_samples", "mmd_seed"});
            }
        }
    }
    only_keys(root, keys, "the map");
    fit.summary.objective_before = number(root, "objective_before");
    fit.summary.objective_after = number(root, "objective_after");
    fit.summary.iterations = count(root, "iterations");
    fit.summary.evaluations = count(root, "evaluations");
    fit.summary.termination = parse_fit_termination(text(root, "status"));

    const JsonValue& parameters = member(root, "parameters", JsonValue::Kind::object, "an object");
    const std::string where = "parameters of method = " + to_string(map.method);
    // One list of finite numbers, `count` long unless 0 (any length).
    const auto list_of = [&](const std::string& name, Eigen::Index count) {
        const JsonValue& list = member(parameters, name, JsonValue::Kind::array, "an array", where.c_str());
        if (count > 0 && static_cast<Eigen::Index>(list.array.size()) != count)
            detail::fail(function, "parameters.", name, " has ", list.array.size(), " values, must have ", count);
        std::vector<double> out;
        for (std::size_t k = 0; k < list.array.size(); ++k) {
            const JsonValue& x = list.array[k];
            if (x.kind != JsonValue::Kind::number || !std::isfinite(x.number))
                detail::fail(function, "parameters.", name, "[", k, "] must be a finite number");
            out.push_back(x.number);
        }
        return out;
    };
    std::vector<std::string> names;
    if (const detail::MapKind* kind = detail::map_kind(map.method, map.num_classes)) {
        names = kind->parameter_names(map.num_classes);
        std::vector<std::vector<double>> lists;
        for (const std::string& name : names) lists.push_back(list_of(name, 0));
        kind->set_parameters(map, lists);
    } else {
        const std::vector<Slot> named = slots(map.method, map.num_classes);
        map.parameters = Vector::Zero(named.back().start + named.back().count);
        for (const Slot& slot : named) {
            names.push_back(slot.name);
            if (!slot.array) {
                member(parameters, slot.name, JsonValue::Kind::number, "a number", where.c_str());
                map.parameters[slot.start] = number(parameters, slot.name);
                continue;
            }
            const std::vector<double> values = list_of(slot.name, slot.count);
            std::copy(values.begin(), values.end(), map.parameters.data() + slot.start);
        }
    }
    only_keys(parameters, names, "parameters");
    const std::string problem = detail::map_parameter_problem(map);
    if (!problem.empty()) detail::fail(function, "parameters.", problem);
    // The constraint of beta calibration's fit, which a file must keep too (its free minimum may break it).
    if (map.method == RecalibrationMethod::beta)
        for (const Eigen::Index k : {0, 1})
            if (map.parameters[k] < 0)
                detail::fail(function, "parameters.", k == 0 ? "a" : "b", " = ", detail::format_value(map.parameters[k]),
                             ", must be >= 0 (the beta map is nondecreasing)");
    return fit;
}

std::string read_map_text(const std::string& path) {
    std::ifstream opened;
    if (path != "-") opened.open(path, std::ios::binary);
    std::istream& file = path == "-" ? std::cin : opened;
    if (path != "-" && !opened) throw invalid_argument(path + ": cannot be opened");
    // Read in pieces up to one byte past the bound, so that an endless device stops there.
    std::string text;
    char piece[1 << 16];
    while (file && text.size() <= max_map_file_bytes) {
        file.read(piece, sizeof piece);
        text.append(piece, static_cast<std::size_t>(file.gcount()));
    }
    if (text.size() > max_map_file_bytes)
        throw invalid_argument(path + ": is larger than " + std::to_string(max_map_file_bytes >> 30) +
                               " GiB: not a map file (a venn-abers map of 10^7 distinct scores takes 0.98 GB)");
    if (file.bad()) throw invalid_argument(path + ": cannot be read");
    // A UTF-8 byte-order mark (an editor's) before the JSON, which RFC 8259 lets a reader ignore.
    if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) text.erase(0, 3);
    return text;
}

}  // namespace calib

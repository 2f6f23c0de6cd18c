// The operation `recalibrate apply` (operation.hpp): a map of `recalibrate fit` applied to one model's
// predictions alone (ModelKind::predictions). The map is an option (a file, or Python's text of it),
// read when the front-end asks how to read the predictions (reading(): after every option is checked,
// before the predictions are read), so that it decides their family, classes and logits, and the
// options that apply only to some maps are checked against it then; the recalibrated predictions are
// the record's product, which each front-end writes (a table file, Python's arrays).
#include "core/stopwatch.hpp"
#include "registry/common_options.hpp"
#include "registry/models.hpp"
#include "registry/setup_operation.hpp"

#include <calib/operation.hpp>
#include <calib/recalibration.hpp>

#include <memory>
#include <optional>

namespace calib::detail {

namespace {

struct ApplySpec {
    std::string map;        // the map file's path, or the map's JSON text
    bool labelled = false;  // the input's last column holds the labels or targets
    std::string features;   // affine-features: the features' file (or "arrays")
    std::shared_ptr<const Matrix> feature_table;
    ReadOptions read;  // text, one_based_labels, simplex (the classes and logits come from the map)
};

// A value of `map` that is the map itself rather than a file's path: JSON text is an object, and no
// file calib writes has a name that starts with "{".
bool is_map_text(const std::string& value) { return !value.empty() && value.front() == '{'; }

OptionList<ApplySpec> apply_options() {
    const Condition labelled{"labelled", {"true"}};
    OptionList<ReadOptions> read = nested(&ReadOptions::text, text_format_options());
    read.push_back(flag_option(&ReadOptions::one_based_labels,
                               info("one_based_labels", "", "",
                                    "class maps with labelled input: the labels are 1, ..., m (copied as given)", labelled)));
    OptionInfo map = info("map", "FILE", "",
                          "a map written by recalibrate fit (JSON), or the map's JSON text itself (a value starting "
                          "with {: Python passes a dict so)");
    map.required = true;
    return OptionList<ApplySpec>{
               custom_option<ApplySpec>(
                   std::move(map), [](ApplySpec& s, const Value& v) { s.map = text_value(v); },
                   [](const ApplySpec& s) { return Value(is_map_text(s.map) ? std::string("text") : s.map); }),
               table_option(info("features", "FILE", "", "affine-features maps: one value x per row of the input (text or .npy)"),
                            &ApplySpec::features, &ApplySpec::feature_table),
               flag_option(&ApplySpec::labelled,
                           info("labelled", "", "",
                                "the input's last column holds the labels (class maps) or the targets y (normal maps): "
                                "checked as calib estimate checks them and copied to the output; without it the input "
                                "holds the map's columns only"))} +
           nested(&ApplySpec::read, read + nested(&ReadOptions::simplex, simplex_options({})));
}

using ApplySetup = OptionsSetup<ApplySpec>;

std::string message_context(const ApplySetup&) { return "recalibrate apply"; }

ApplySetup make_setup() {
    return ApplySetup({"recalibrate apply", "apply a recalibration map", "a recalibration map applied", false},
                      apply_options(), ApplySpec{});
}

// The map the option names, its errors naming the file.
RecalibrationMap read_map(const std::string& value) {
    const bool text = is_map_text(value);
    const std::string json = text ? value : read_map_text(value);  // its errors name the file
    try {
        return recalibration_fit_from_json(json).map;
    } catch (const invalid_argument& e) {  // the file's name before the parser's message
        throw invalid_argument((text ? std::string("`map`") : value) + ": " + e.what());
    }
}

// The options that apply only to some maps: `features` to affine-features (which needs it), the labels'
// base to class maps, the simplex's options to maps fitted on probabilities.
void check_against_map(const RecalibrationMap& map, const ApplySetup& setup) {
    const bool takes = map.method == RecalibrationMethod::affine_features;
    if (setup.given("features") && !takes)
        throw invalid_argument("`features` applies only to a map of `method` affine-features, not " + to_string(map.method));
    if (!setup.given("features") && takes)
        throw invalid_argument("the map is affine-features: it needs `features` (one value x per observation)");
    const bool classes = is_categorical(map.method);
    if (!classes && setup.given("one_based_labels"))
        throw invalid_argument("`one_based_labels` applies only to a map of classes, not of `method` " + to_string(map.method));
    for (const char* name : {"simplex_tolerance", "renormalize"})
        if (setup.given(name) && (!classes || map.logits))
            throw invalid_argument("`" + std::string(name) + "` applies only to a map fitted on probabilities, not " +
                                   (classes ? std::string("on logits") : "of `method` " + to_string(map.method)));
}

class ConfiguredApply final : public ConfiguredSetup<ApplySetup> {
public:
    using ConfiguredSetup::ConfiguredSetup;

    std::optional<PredictionReading> reading() const override {
        const RecalibrationMap& given_map = map();
        const bool classes = is_categorical(given_map.method);
        PredictionReading out{&find_family(classes ? "categorical" : "normal"), setup_.values().read,
                              setup_.values().labelled, given_map.method == RecalibrationMethod::venn_abers,
                              to_string(given_map.method)};
        out.read.classes = classes ? given_map.num_classes : 0;
        out.read.logits = given_map.logits;
        return out;
    }

    OperationRecord run(const std::vector<ModelData>& models, const DataSets&, const ParallelOptions&) const override {
        const RecalibrationMap& given_map = map();
        const Predictions& given = std::get<Predictions>(models.front().value);
        const ApplySpec& spec = setup_.values();
        const auto n = static_cast<std::size_t>(given.values.rows());
        const bool classes = is_categorical(given_map.method);
        Predictions out{Matrix(), given.observations, Matrix()};
        const Stopwatch timer;
        if (classes) {
            out.values = apply_recalibration(given_map, given.values);
            if (reading()->intervals) out.intervals = venn_abers_intervals(given_map, given.values);
        } else {
            const Matrix features = spec.features.empty() && !spec.feature_table
                                        ? Matrix()
                                        : observation_table("features", spec.features, spec.feature_table, n, spec.read.text);
            out.values = apply_recalibration(given_map, given.values.col(0), given.values.col(1), features);
        }
        OperationRecord record;
        record.title = "a recalibration map " + to_string(given_map.method) + " applied";
        record.result = {{"command", std::string("recalibrate apply")}, {"method", to_string(given_map.method)}};
        record.n = n;
        record.details = {{"columns", static_cast<std::uint64_t>(out.values.cols() + (out.observations.size() ? 1 : 0))}};
        record.options = setup_.record(n);
        record.compute_seconds = timer.seconds();
        record.product = std::make_shared<const Predictions>(std::move(out));
        return record;
    }

private:
    // The map, read and checked against the options once (the front-ends call reading() then run()).
    const RecalibrationMap& map() const {
        if (!map_) {
            RecalibrationMap map = read_map(setup_.values().map);
            check_against_map(map, setup_);
            map_ = std::move(map);
        }
        return *map_;
    }

    mutable std::optional<RecalibrationMap> map_;
};

class ApplyOperation final : public Operation {
public:
    const OperationInfo& info() const override { return info_; }
    std::vector<OptionInfo> options() const override { return make_setup().options(); }
    std::unique_ptr<ConfiguredOperation> configure(const FamilyInfo&, GivenOptions& given) const override {
        return std::make_unique<ConfiguredApply>(with_given_options(make_setup(), given));
    }

private:
    OperationInfo info_ = [] {
        OperationInfo i{"recalibrate apply", "apply a recalibration map to new predictions", "", false};
        i.reads = ModelKind::predictions;
        return i;
    }();
};

}  // namespace

const Operation& recalibrate_apply_operation() {
    static const ApplyOperation operation;
    return operation;
}

}  // namespace calib::detail

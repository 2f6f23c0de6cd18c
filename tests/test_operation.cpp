// The operations (operation.hpp): each configured and run as a front-end does, its record equal to the
// registry's run_method on the same setup (bitwise), its own options given, checked and refused as a
// method's, the inputs it asks for named by their options.
#include <calib/operation.hpp>
#include <calib/recalibration.hpp>
#include <calib/report.hpp>
#include <calib/tool/synthetic.hpp>

#include "map_options.hpp"
#include "support.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <any>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>

using namespace calib;
using test::MapOptions;

namespace {

const Field* field(const Record& record, const std::string& name) {
    const auto it = std::find_if(record.begin(), record.end(), [&](const Field& f) { return f.name == name; });
    return it == record.end() ? nullptr : &*it;
}

std::string words(const OperationRecord& r, const std::string& label) {
    for (const auto& [l, text] : r.words)
        if (l == label) return text;
    return "";
}

}  // namespace

TEST_CASE("operations: the table, found by name, an unknown name refused with the known ones") {
    std::vector<std::string> names;
    for (const Operation* op : operations()) names.push_back(op->info().name);
    CHECK(names == std::vector<std::string>{"estimate", "test", "metrics", "rank", "report", "diagram",
                                            "recalibrate fit", "recalibrate apply", "reproduce"});
    CHECK(is_operation("test"));
    CHECK(is_operation("rank"));
    CHECK_FALSE(is_operation("recalibrate"));
    CHECK(find_operation("test").info().spread_over_processes);
    CHECK_FALSE(find_operation("metrics").info().spread_over_processes);  // refused under mpirun -np > 1
    CHECK_THROWS_WITH_AS(find_operation("estimat"), "unknown operation 'estimat', expected one of estimate, test, metrics, rank, report, diagram, recalibrate fit, recalibrate apply, reproduce",
                         invalid_argument);
    CHECK(find_operation("test").info().method == "method");
    // Every option once, the operation's own first.
    const std::vector<OptionInfo> options = find_operation("estimate").options();
    CHECK(options.front().name == "estimator");
    std::vector<std::string> seen;
    for (const OptionInfo& o : options) seen.push_back(o.name);
    std::sort(seen.begin(), seen.end());
    CHECK(std::adjacent_find(seen.begin(), seen.end()) == seen.end());
    CHECK(std::binary_search(seen.begin(), seen.end(), "lengthscale"));  // the kernel's
    CHECK(std::binary_search(seen.begin(), seen.end(), "block_size"));   // a method's
}

TEST_CASE("estimate: the record is run_method's on the same setup, bitwise, with the options as used") {
    test::Rng rng(11);
    const CategoricalData data = synthetic::dirichlet_data(120, 3, 0.5, rng);
    const FamilyInfo& categorical = find_family("categorical");
    MapOptions given({{"estimator", Value("skce-block")}, {"block_size", Value("sqrt")}});
    const std::unique_ptr<ConfiguredOperation> op = find_operation("estimate").configure(categorical, given);
    CHECK(given.left().empty());
    CHECK(op->method_name() == "skce-block");
    CHECK(op->inputs().empty());
    const OperationRecord r = op->run({{"model", data}}, {}, {});

    MapOptions same({{"block_size", Value("sqrt")}});
    const ConfiguredMethod<EstimatorSetup> c = configure(make_estimator("skce-block"), categorical, nullptr, same);
    const MethodRun<EstimateResult> done = run_method(c.method, c.kernel_setup(), data, nullptr, {});
    REQUIRE(r.result.size() == 2);
    CHECK(to_text(r.result[0].value) == "skce-block");
    CHECK(std::get<double>(r.result[1].value) == done.result.estimate);
    CHECK(r.n == 120);
    CHECK(to_json(r.details) == to_json(done.result.details));
    CHECK(to_json(r.options) == to_json(done.options));
    CHECK(to_json(r.kernel) == to_json(done.kernel_record));
    CHECK(r.title == make_estimator("skce-block").info().title);
    CHECK(words(r, "estimate") == readable(done.result.estimate));
    CHECK(words(r, "kernel").find("median of the distances") != std::string::npos);
}

TEST_CASE("test: alpha is the operation's own option, 0.05 unless given; the verdict says which") {
    test::Rng rng(12);
    const CategoricalData data = synthetic::dirichlet_data(200, 3, 0.5, rng);
    const FamilyInfo& categorical = find_family("categorical");
    const Operation& test = find_operation("test");
    MapOptions defaults({{"method", Value("block")}});
    const OperationRecord r = test.configure(categorical, defaults)->run({{"model", data}}, {}, {});
    const double p = std::get<double>(field(r.result, "p_value")->value);
    CHECK(std::get<double>(field(r.result, "alpha")->value) == 0.05);
    CHECK(std::get<bool>(field(r.result, "reject")->value) == (p < 0.05));
    CHECK(words(r, "verdict").find("(the default; `alpha` changes it)") != std::string::npos);
    // B = 2 at n = 200 has little power: the note is a field of the result and part of the verdict.
    REQUIRE(field(r.result, "low_power") != nullptr);
    CHECK(to_text(field(r.result, "low_power")->value).find("`block_size` sqrt") != std::string::npos);

    const double alpha = p < 0.5 ? std::min(0.99, 2 * p + 0.01) : p / 2;  // one that flips nothing by accident
    MapOptions given({{"method", Value("block")}, {"alpha", Value(alpha)}});
    const OperationRecord at = test.configure(categorical, given)->run({{"model", data}}, {}, {});
    CHECK(std::get<double>(field(at.result, "alpha")->value) == alpha);
    CHECK(std::get<bool>(field(at.result, "reject")->value) == (p < alpha));
    CHECK(words(at, "verdict").find("the default") == std::string::npos);
    CHECK(std::get<double>(field(at.result, "p_value")->value) == p);

    MapOptions bad({{"method", Value("block")}, {"alpha", Value(1.5)}});
    CHECK_THROWS_WITH_AS(test.configure(categorical, bad), "option `alpha` = '1.5', must be in (0, 1)", option_error);
}

TEST_CASE("an operation's own options: required, checked, refused by the others, and the preset recorded") {
    const FamilyInfo& categorical = find_family("categorical");
    const Operation& estimate = find_operation("estimate");
    MapOptions none({});
    CHECK_THROWS_WITH_AS(estimate.configure(categorical, none), doctest::Contains("missing option `estimator`"),
                         invalid_argument);
    MapOptions alpha({{"estimator", Value("ece")}, {"alpha", Value(0.1)}});
    CHECK_THROWS_WITH_AS(estimate.configure(categorical, alpha),
                         doctest::Contains("option `alpha` does not apply to `estimator` ece"), unknown_option_error);
    MapOptions preset({{"estimator", Value("ece")}, {"preset", Value("nips")}});
    CHECK_THROWS_WITH_AS(estimate.configure(categorical, preset), doctest::Contains("neurips2019"), invalid_argument);
    test::Rng rng(13);
    const CategoricalData data = synthetic::dirichlet_data(50, 3, 0.5, rng);
    MapOptions neurips({{"estimator", Value("ece")}, {"preset", Value("neurips2019")}});
    const OperationRecord r = estimate.configure(categorical, neurips)->run({{"model", data}}, {}, {});
    REQUIRE_FALSE(r.options.empty());
    CHECK(r.options.back().name == "preset");
    CHECK(to_text(r.options.back().value) == "neurips2019");
}

TEST_CASE("the inputs an operation asks for: named by their option, run on what the front-end read") {
    test::Rng rng(14);
    const CategoricalData data = synthetic::dirichlet_data(80, 3, 0.5, rng);
    const CategoricalData locations = synthetic::dirichlet_data(4, 3, 0.5, rng);
    const FamilyInfo& categorical = find_family("categorical");
    MapOptions given({{"estimator", Value("ucme")}, {"test_locations", Value("locations.csv")}});
    const std::unique_ptr<ConfiguredOperation> op = find_operation("estimate").configure(categorical, given);
    const std::vector<InputRequest> inputs = op->inputs();
    REQUIRE(inputs.size() == 1);
    CHECK((inputs[0].option == "test_locations" && inputs[0].source == "locations.csv"));
    const OperationRecord r = op->run({{"model", data}}, {{"test_locations", locations}}, {});
    MapOptions same({{"test_locations", Value("locations.csv")}});
    const ConfiguredMethod<EstimatorSetup> c = configure(make_estimator("ucme"), categorical, nullptr, same);
    const AnyData at = locations;
    CHECK(std::get<double>(r.result[1].value) == run_method(c.method, c.kernel_setup(), data, &at, {}).result.estimate);
    CHECK_THROWS(op->run({{"model", data}}, {}, {}));  // asked for and not given

    MapOptions train({{"estimator", Value("ce-kkr")}, {"ridge_constant", Value(1.0)},
                     {"train", Value("train.csv")}, {"validation", Value("v.csv")}});
    const std::vector<InputRequest> sets = find_operation("estimate").configure(categorical, train)->inputs();
    REQUIRE(sets.size() == 2);
    CHECK((sets[0].option == "train" && sets[1].option == "validation"));
}

TEST_CASE("metrics: the record holds MetricsSetup's numbers as details, a features table set in memory") {
    test::Rng rng(15);
    const CategoricalData data = synthetic::dirichlet_data(60, 3, 0.5, rng);
    const FamilyInfo& categorical = find_family("categorical");
    const Operation& metrics = find_operation("metrics");
    MapOptions given({{"bins", Value(std::uint64_t(5))}, {"features", Value("arrays")}});
    const std::unique_ptr<ConfiguredOperation> op = metrics.configure(categorical, given);
    CHECK(op->method_name().empty());
    CHECK(op->takes_table("features"));
    Matrix x(60, 2);
    for (Eigen::Index i = 0; i < 60; ++i) x(i, 0) = std::sin(double(i)), x(i, 1) = std::cos(0.3 * double(i));
    op->set_table("features", x);
    const OperationRecord r = op->run({{"model", data}}, {}, {});

    MetricsSetup setup(categorical);
    setup.set("bins", "5");
    setup.set("features", "arrays");
    setup.set_table("features", x);
    CHECK(to_json(r.details) == to_json(setup.run(data).result));
    CHECK(field(r.details, "kce") != nullptr);
    CHECK(r.n == 60);
    REQUIRE(r.options.size() == 1);
    CHECK(to_text(r.options[0].value) == "arrays");
    MapOptions unknown({{"block_size", Value("2")}});
    CHECK_THROWS_AS(metrics.configure(categorical, unknown), unknown_option_error);
}

TEST_CASE("diagram: the record is corp_diagram's (or the chosen diagram's) on the event, with the options as used") {
    test::Rng rng(17);
    const CategoricalData data = synthetic::dirichlet_data(200, 3, 0.5, rng);
    const FamilyInfo& categorical = find_family("categorical");
    const Operation& diagram = find_operation("diagram");
    CHECK_FALSE(diagram.info().spread_over_processes);
    CHECK(diagram.info().method == "diagram");
    MapOptions given({{"event", Value("top-label")}, {"replicates", Value(std::uint64_t(20))}, {"seed", Value(std::uint64_t(5))}});
    const OperationRecord r = diagram.configure(categorical, given)->run({{"model", data}}, {}, {});
    CorpDiagramOptions o;
    o.replicates = 20;
    o.seed = 5;
    const CorpDiagram direct = corp_diagram(data.top_label_event(), o);
    Record expected = direct.record();
    expected.insert(expected.begin(), {"event", std::string("top-label")});
    CHECK(to_json(r.details) == to_json(expected));  // corp is the default for class predictions
    CHECK(to_text(find(r.result, "diagram")) == "corp");
    CHECK(r.n == 200);
    CHECK(to_text(find(r.options, "event")) == "top-label");
    CHECK(words(r, "top-label score").find("MCB") != std::string::npos);
    CHECK(words(r, "top-label band").find("of " + std::to_string(direct.x.size()) + " band points") != std::string::npos);

    // class-wise: one diagram per class, each of class:k.
    MapOptions class_wise({{"event", Value("class-wise")}, {"replicates", Value(std::uint64_t(0))}});
    const OperationRecord c = diagram.configure(categorical, class_wise)->run({{"model", data}}, {}, {});
    const auto& classes = std::get<std::vector<Record>>(find(c.details, "classes"));
    REQUIRE(classes.size() == 3);
    o = {};
    o.replicates = 0;
    Record second = corp_diagram(data.class_event(1), o).record();
    second.insert(second.begin(), {"event", std::string("class:1")});
    CHECK(to_json(classes[1]) == to_json(second));

    // The other diagrams: the registry's, on the family they read; another diagram's option refused.
    MapOptions reliability({{"diagram", Value("reliability")}, {"bins", Value(std::uint64_t(5))}});
    const OperationRecord b = diagram.configure(categorical, reliability)->run({{"model", data}}, {}, {});
    ReliabilityOptions ro;
    ro.bins = 5;
    // The empty first bin's undefined mean and frequency (NaN) left out, as JSON has no NaN.
    CHECK(to_json(b.details) == to_json(defined_bins(reliability_diagram(data, ro).record())));
    CHECK(to_json(b.details).find("null") == std::string::npos);
    MapOptions foreign({{"diagram", Value("reliability")}, {"replicates", Value(std::uint64_t(5))}});
    CHECK_THROWS_WITH_AS(diagram.configure(categorical, foreign), doctest::Contains("`diagram` reliability"),
                         invalid_argument);
    MapOptions pit_of_classes({{"diagram", Value("pit")}});
    CHECK_THROWS_WITH_AS(diagram.configure(categorical, pit_of_classes),
                         doctest::Contains("is of predictive distributions"), invalid_argument);
    MapOptions unknown({{"diagram", Value("calibration-plot")}});
    CHECK_THROWS_WITH_AS(diagram.configure(categorical, unknown),
                         "unknown diagram 'calibration-plot', expected corp, reliability, pit, coverage", invalid_argument);
}

TEST_CASE("diagram: pit and coverage of predictive distributions, pit the default") {
    Vector mean(150), stddev(150), y(150);
    for (Eigen::Index i = 0; i < 150; ++i)
        mean(i) = std::sin(double(i)), stddev(i) = 1 + 0.5 * std::cos(double(i)), y(i) = mean(i) + std::sin(7.3 * double(i));
    const NormalData data(mean, stddev, y);
    const Operation& diagram = find_operation("diagram");
    MapOptions nothing({});
    const OperationRecord r = diagram.configure(find_family("normal"), nothing)->run({{"model", data}}, {}, {});
    CHECK(to_text(find(r.result, "diagram")) == "pit");
    CHECK(to_json(r.details) == to_json(pit_histogram(pit(AnyData(data)), 10, 0.95).record()));
    MapOptions coverage({{"diagram", Value("coverage")}, {"nominal", Value("0.5,0.9")}});
    const OperationRecord c = diagram.configure(find_family("normal"), coverage)->run({{"model", data}}, {}, {});
    CHECK(to_json(c.details) == to_json(interval_coverage(pit(AnyData(data)), {0.5, 0.9}, 0.95).record()));
    CHECK(words(c, "coverage at 0.9") != "");
    MapOptions corp_of_normal({{"diagram", Value("corp")}});
    CHECK_THROWS_WITH_AS(diagram.configure(find_family("normal"), corp_of_normal), doctest::Contains("categorical"),
                         invalid_argument);
}

TEST_CASE("reproduce: the preset is its method, the row run_preset's, the family checked before any data") {
    test::Rng rng(16);
    const CategoricalData data = synthetic::dirichlet_data(300, 3, 0.5, rng);  // the dynamic ECE's bins hold 100
    const Operation& reproduce = find_operation("reproduce");
    CHECK(reproduce.info().method == "preset");
    MapOptions given({{"preset", Value("neurips2019")}});
    const std::unique_ptr<ConfiguredOperation> op = reproduce.configure(find_family("categorical"), given);
    CHECK(op->method_name() == "neurips2019");
    const OperationRecord r = op->run({{"model", data}}, {}, {});
    CHECK(to_json(r.details) == to_json(run_preset(find_preset("neurips2019"), data).result));
    CHECK(to_text(r.result[1].value) == "neurips2019");
    MapOptions none({});
    CHECK_THROWS_WITH_AS(reproduce.configure(find_family("categorical"), none), doctest::Contains("missing option `preset`"),
                         invalid_argument);
    MapOptions normal({{"preset", Value("neurips2019")}});
    CHECK_THROWS_WITH_AS(reproduce.configure(find_family("normal"), normal), doctest::Contains("class predictions"),
                         invalid_argument);
}

TEST_CASE("rank: two or more models, the record is ComparisonSetup's on the same data, bitwise") {
    const Operation& rank = find_operation("rank");
    CHECK(rank.info().min_models == 2);
    CHECK_THROWS_WITH_AS(check_model_count(rank.info(), 1), "calib rank needs at least 2 models, got 1", invalid_argument);
    CHECK_NOTHROW(check_model_count(rank.info(), 5));
    CHECK_THROWS_WITH_AS(check_model_count(find_operation("estimate").info(), 2),
                         "calib estimate takes one model (one `input`), got 2", invalid_argument);
    CHECK_THROWS_WITH_AS(check_model_count(find_operation("estimate").info(), 0), "calib estimate needs at least 1 model, got 0",
                         invalid_argument);
    CHECK_THROWS_WITH_AS(check_family(rank.info(), find_family("normal"), 2),
                         "calib rank applies only to `family` categorical or binary, not normal", invalid_argument);
    CHECK_NOTHROW(check_family(find_operation("estimate").info(), find_family("normal"), 1));
    CHECK_NOTHROW(check_family(find_operation("report").info(), find_family("normal"), 1));
    CHECK_THROWS_WITH_AS(check_family(find_operation("report").info(), find_family("normal"), 2),
                         doctest::Contains("a comparison of models"), invalid_argument);
    MapOptions none({});
    CHECK_THROWS_AS(rank.configure(find_family("normal"), none), invalid_argument);  // configure checks it too

    test::Rng rng(5);
    const CategoricalData a = synthetic::dirichlet_data(150, 3, 0.5, rng);
    Matrix sharper = a.probabilities().array().square();
    for (Eigen::Index i = 0; i < sharper.rows(); ++i) sharper.row(i) /= sharper.row(i).sum();
    const CategoricalData b(sharper, a.labels());
    MapOptions given({{"replicates", Value("30")}, {"estimators", Value("ckce,ece")}});
    const std::unique_ptr<ConfiguredOperation> op = rank.configure(find_family("categorical"), given);
    const OperationRecord r = op->run({{"a", a}, {"b", b}}, {}, {});
    ComparisonSetup setup;
    setup.set("replicates", Value("30"));
    setup.set("estimators", Value("ckce,ece"));
    const Record direct = setup.run({a, b}).record({"a", "b"});
    CHECK(to_text(field(r.result, "results")->value) == to_text(find(direct, "results")));
    CHECK(std::get<std::string>(field(r.result, "command")->value) == "rank");
    CHECK(field(r.result, "n") == nullptr);  // n is the record's own
    CHECK(r.n == 150);
    CHECK(to_text(find(r.options, "replicates")) == "30");

    // Models on different labels are refused by their names.
    std::vector<int> other = a.labels();
    other[7] = (other[7] + 1) % 3;
    const CategoricalData c(a.probabilities(), other);
    CHECK_THROWS_AS(op->run({{"a", a}, {"c", c}}, {}, {}), invalid_argument);
}

TEST_CASE("report: its options checked as a method's, its content the record's product, its numbers the registry's") {
    const Operation& report = find_operation("report");
    const FamilyInfo& categorical = find_family("categorical");
    MapOptions bad_alpha({{"alpha", Value(1.0)}});
    CHECK_THROWS_WITH_AS(report.configure(categorical, bad_alpha), "option `alpha` = '1', must be in (0, 1)", option_error);
    MapOptions bad_bins({{"bins", Value("1001")}});
    CHECK_THROWS_WITH_AS(report.configure(categorical, bad_bins), doctest::Contains("in [1, 1000]"), option_error);
    MapOptions not_the_reports({{"lengthscale", Value("0.5")}});  // rank's, not the report's
    CHECK_THROWS_AS(report.configure(categorical, not_the_reports), invalid_argument);

    test::Rng rng(3);
    const CategoricalData a = synthetic::dirichlet_data(60, 3, 0.5, rng);
    MapOptions given({{"replicates", Value("20")}, {"name", Value("toy")}, {"alpha", Value(0.1)}});
    const OperationRecord r = report.configure(categorical, given)->run({{"a.csv", a}}, {}, {});
    const ReportData& content = report_content(r);
    CHECK(content.title == "toy");
    CHECK(content.models.size() == 1);
    CHECK(content.models.front().name == "toy");  // one model: the report's name
    CHECK(content.alpha == 0.1);
    CHECK(content.replicates == 20);
    CHECK_FALSE(content.ranking);
    // The verdict's test is the bootstrap test up to report_bootstrap_limit, with the report's seed: calib test's.
    const ReportTest& chosen = content.models.front().tests.front();
    CHECK(chosen.method == "bootstrap");
    TestSetup bootstrap = make_test("bootstrap");
    const KernelSetup kernel(categorical);
    const TestResult direct = run_method(bootstrap, &kernel, AnyData(a), nullptr).result;
    CHECK(chosen.p_value == direct.p_value);
    CHECK(to_text(find(r.result, "command")) == "report");
    CHECK(r.words.size() == 1);
    CHECK(r.words.front().first == "toy");
    CHECK_THROWS_AS(report_content(OperationRecord{}), invalid_argument);

    // Several models: the ranking is rank's on the same models, and only class predictions compare.
    Matrix sharper = a.probabilities().array().square();
    for (Eigen::Index i = 0; i < sharper.rows(); ++i) sharper.row(i) /= sharper.row(i).sum();
    MapOptions twenty({{"replicates", Value("20")}});
    const OperationRecord two =
        report.configure(categorical, twenty)->run({{"a", a}, {"b", CategoricalData(sharper, a.labels())}}, {}, {});
    REQUIRE(report_content(two).ranking);
    CHECK(to_text(find(*report_content(two).ranking, "models")) == R"(["a","b"])");
    test::Rng more(4);
    const NormalData gauss = test::normal_data(40, more);
    MapOptions none({});
    CHECK_THROWS_WITH_AS(report.configure(find_family("normal"), none)->run({{"x", gauss}, {"y", gauss}}, {}, {}),
                         doctest::Contains("a comparison of models"), invalid_argument);
}

TEST_CASE("recalibrate fit: the record is RecalibrationSetup::run's, the map its product, the scores read as given") {
    test::Rng rng(31);
    const CategoricalScores scores = synthetic::tempered_logits(150, 3, 2.0, 1.5, rng);
    const Operation& fit = find_operation("recalibrate fit");
    CHECK(fit.info().reads == ModelKind::scores);
    CHECK_FALSE(fit.info().spread_over_processes);
    MapOptions given({{"method", Value("temperature")}, {"holdout", Value(0.3)}});
    const std::unique_ptr<ConfiguredOperation> c = fit.configure(find_family("categorical"), given);
    const OperationRecord r = c->run({{"model", scores}}, {}, {});
    RecalibrationSetup setup(find_family("categorical"));
    setup.set("method", "temperature");
    setup.set("holdout", Value(0.3));
    RecalibrationData data;
    data.data = scores;
    const RecalibrationRun direct = setup.run(data);
    const auto product = std::any_cast<std::shared_ptr<const RecalibrationFit>>(r.product);
    CHECK(to_json(*product) == to_json(direct.fit));
    CHECK(r.n == 150);
    CHECK(to_text(find(r.result, "method")) == "temperature");
    CHECK(to_json(std::get<Record>(find(r.details, "holdout"))) == to_json(direct.holdout));
    CHECK(to_double(find(std::get<Record>(find(r.details, "parameters")), "temperature")) ==
          direct.fit.map.parameters[0]);
    CHECK(to_json(r.options) == to_json(direct.options));
    // A data set where the operation reads scores is a front-end's mistake, not a user's.
    CHECK_THROWS_AS(ModelData({"m", scores}).data(), std::logic_error);
    // The normal maps' features are a table option: refused by the class maps, needed by affine-features.
    MapOptions features({{"method", Value("temperature")}, {"features", Value("x.csv")}});
    CHECK_THROWS_AS(fit.configure(find_family("categorical"), features), unknown_option_error);
    MapOptions missing({{"method", Value("affine-features")}});
    CHECK_THROWS_WITH_AS(fit.configure(find_family("normal"), missing),
                         "`method` affine-features needs `features` (one value x per observation)", invalid_argument);
    MapOptions binary({{"method", Value("temperature")}});
    CHECK_THROWS_AS(fit.configure(find_family("binary"), binary), invalid_argument);
}

TEST_CASE("recalibrate apply: the map an option read at configure, its reading, its product apply_recalibration's") {
    test::Rng rng(32);
    const CategoricalScores scores = synthetic::tempered_logits(40, 3, 2.0, 1.5, rng);
    RecalibrationFit fit{identity_map(RecalibrationMethod::temperature, 3, true), {}};
    fit.map.parameters[0] = 1.7;
    const std::string text = to_json(fit);
    const Operation& apply = find_operation("recalibrate apply");
    CHECK(apply.info().reads == ModelKind::predictions);
    CHECK_FALSE(apply.info().spread_over_processes);
    const FamilyInfo& any = families().front();  // the map decides the family

    MapOptions given({{"map", Value(text)}, {"labelled", Value(true)}});
    const std::unique_ptr<ConfiguredOperation> c = apply.configure(any, given);
    const std::optional<PredictionReading> reading = c->reading();
    REQUIRE(reading);
    CHECK(reading->family->name == "categorical");
    CHECK(reading->read.classes == 3);
    CHECK(reading->read.logits);
    CHECK(reading->labelled);
    Vector labels(scores.scores.rows());
    for (Eigen::Index i = 0; i < labels.size(); ++i) labels[i] = scores.labels[static_cast<std::size_t>(i)];
    const OperationRecord r = c->run({{"model", Predictions{scores.scores, labels, {}}}}, {}, {});
    const auto product = std::any_cast<std::shared_ptr<const Predictions>>(r.product);
    CHECK(product->values == apply_recalibration(fit.map, scores.scores));  // bitwise
    CHECK(product->observations == labels);                                 // copied as given
    CHECK(r.n == 40);
    CHECK(to_text(find(r.result, "method")) == "temperature");
    CHECK(to_double(find(r.details, "columns")) == 4);  // p_1..p_3 and the labels
    CHECK(to_text(find(r.options, "map")) == "text");   // not the map's whole text

    // The options that apply only to some maps are refused when the map is read: when a front-end asks
    // how to read the predictions, after every option is checked and before the predictions are read.
    MapOptions no_file({{"map", Value("no/such/map.json")}});
    const std::unique_ptr<ConfiguredOperation> later = apply.configure(any, no_file);  // no file read yet
    CHECK_THROWS_WITH_AS(later->reading(), doctest::Contains("no/such/map.json"), invalid_argument);
    MapOptions renormalize({{"map", Value(text)}, {"renormalize", Value(true)}});
    CHECK_THROWS_WITH_AS(apply.configure(any, renormalize)->reading(),
                         "`renormalize` applies only to a map fitted on probabilities, not on logits", invalid_argument);
    MapOptions features({{"map", Value(text)}, {"features", Value("x.csv")}});
    CHECK_THROWS_WITH_AS(apply.configure(any, features)->reading(),
                         "`features` applies only to a map of `method` affine-features, not temperature", invalid_argument);
    RecalibrationFit affine{identity_map(RecalibrationMethod::affine_features, 0, false), {}};
    MapOptions needs({{"map", Value(to_json(affine))}});
    CHECK_THROWS_WITH_AS(apply.configure(any, needs)->reading(), doctest::Contains("it needs `features`"), invalid_argument);
    MapOptions base({{"map", Value(to_json(affine))}, {"features", Value("x.csv")}, {"labelled", Value(true)},
                     {"one_based_labels", Value(true)}});
    CHECK_THROWS_WITH_AS(apply.configure(any, base)->reading(),
                         "`one_based_labels` applies only to a map of classes, not of `method` affine-features",
                         invalid_argument);
    MapOptions broken({{"map", Value(std::string("{\"method\": 3}"))}});
    CHECK_THROWS_WITH_AS(apply.configure(any, broken)->reading(), doctest::Contains("`map`: "), invalid_argument);
    MapOptions missing({});
    CHECK_THROWS_WITH_AS(apply.configure(any, missing), doctest::Contains("map"), invalid_argument);

    // A normal map: mu, sigma and the features (a table in memory), as apply_recalibration maps them.
    REQUIRE(affine.map.parameters.size() == 4);  // a, b, s0, s1
    affine.map.parameters << 1.5, 0.25, 0.1, 0.3;
    MapOptions normal({{"map", Value(to_json(affine))}, {"features", Value("arrays")}});
    const std::unique_ptr<ConfiguredOperation> n = apply.configure(any, normal);
    CHECK(n->reading()->family->name == "normal");
    CHECK_FALSE(n->reading()->labelled);
    Matrix forecasts(3, 2);
    forecasts << 0.5, 1.0, -1.0, 2.0, 3.0, 0.5;
    Matrix x(3, 1);
    x << 0.1, -2.0, 1.0;
    n->set_table("features", x);
    const auto mapped = std::any_cast<std::shared_ptr<const Predictions>>(n->run({{"model", Predictions{forecasts, {}, {}}}}, {}, {}).product);
    CHECK(mapped->values == apply_recalibration(affine.map, forecasts.col(0), forecasts.col(1), x));
    CHECK(mapped->observations.size() == 0);
    n->set_table("features", Matrix::Zero(2, 1));  // a row per observation
    CHECK_THROWS_WITH_AS(n->run({{"model", Predictions{forecasts, {}, {}}}}, {}, {}), doctest::Contains("has 2 rows"),
                         invalid_argument);
}

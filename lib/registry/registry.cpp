// The registry's setups: thin handles on the models (registry.hpp, registry/models.hpp).
#include "registry/models.hpp"

#include "core/stopwatch.hpp"

#include <algorithm>

namespace calib {

namespace detail {
std::shared_ptr<KernelModel> make_kernel_model(const FamilyInfo& family);
std::shared_ptr<ComparisonModel> make_comparison_model();
}  // namespace detail

// ---- Setup -----------------------------------------------------------------------------------------------

Setup::Setup(std::shared_ptr<detail::SetupModel> model) : model_(std::move(model)) {}

const MethodInfo& Setup::info() const { return model_->info(); }
const std::vector<OptionInfo>& Setup::options() const { return model_->options(); }

const OptionInfo* Setup::option(const std::string& name) const {
    for (const OptionInfo& o : options())
        if (o.name == name) return &o;
    return nullptr;
}

bool Setup::applies(const std::string& name) const { return model_->applies(name); }

// Copies share nothing: a setup is copied on its first change after a copy.
void Setup::set(const std::string& name, const Value& value) {
    if (model_.use_count() > 1) model_ = model_->clone();
    model_->set(name, value);
}

bool Setup::takes_table(const std::string& name) const { return model_->takes_table(name); }

void Setup::set_table(const std::string& name, Matrix table) {
    if (model_.use_count() > 1) model_ = model_->clone();
    model_->set_table(name, std::make_shared<const Matrix>(std::move(table)));
}

void Setup::set_given(const std::function<std::optional<Value>(const OptionInfo&)>& given) {
    for (const OptionInfo& o : options())
        if (applies(o.name))
            if (const std::optional<Value> v = given(o)) set(o.name, *v);
}

const OptionInfo* Setup::missing() const {
    for (const OptionInfo& o : options())
        if (o.required && applies(o.name) && !given(o.name)) return &o;
    return nullptr;
}

std::string Setup::why_not(const std::string& name) const {
    const OptionInfo* o = option(name);
    if (!o) return "";
    const Condition& c = o->condition;
    std::string now;  // the value that fails the condition
    if (!c.values.empty() && c.values != std::vector<std::string>{"false"} && applies(c.option))
        now = ", not " + to_text(get(c.option));
    return describe_condition(c) + now;
}

Value Setup::get(const std::string& name) const { return model_->get(name); }
bool Setup::given(const std::string& name) const { return model_->given(name); }
void Setup::check() const { model_->check(); }
Record Setup::record(std::size_t n) const { return model_->record(n); }

// ---- kernels -------------------------------------------------------------------------------------------

KernelSetup::KernelSetup(const FamilyInfo& family) : Setup(detail::make_kernel_model(family)) {}

const detail::KernelModel& KernelSetup::model() const { return static_cast<const detail::KernelModel&>(*model_); }

Kernel KernelSetup::resolve(const AnyData& data, const ParallelOptions& parallel) const {
    return model().resolve(data, parallel);
}

Record KernelSetup::record(const Kernel& resolved) const { return model().record_with(resolved); }

// ---- estimators and tests --------------------------------------------------------------------------------

namespace {

template <class Model>
std::shared_ptr<Model> make(const std::vector<detail::Registered<Model>>& registered, const std::string& kind,
                             const std::string& name) {
    std::string names;
    for (const auto& r : registered) {
        if (r.info.name == name) return r.make();
        names += (names.empty() ? "" : "|") + r.info.name;
    }
    throw invalid_argument("unknown " + kind + " '" + name + "', expected one of " + names);
}

// The kernel and the locations a run needs, then the limits on n.
template <class Model>
void check_run(const Model& model, const AnyData& data, const Kernel* kernel, const AnyData* locations) {
    if (model.kernel_use() == KernelUse::skce && !kernel)
        throw invalid_argument(model.info().name + " needs a kernel (KernelSetup::resolve)");
    if (model.locations_use() == LocationsUse::required && !locations)
        throw invalid_argument(model.info().name + " needs test locations");
    model.validate(data_size(data), locations ? data_size(*locations) : 0);
}

template <class Model>
std::vector<MethodInfo> infos(const std::vector<detail::Registered<Model>>& registered) {
    std::vector<MethodInfo> out;
    for (const auto& r : registered) out.push_back(r.info);
    return out;
}

}  // namespace

const std::vector<MethodInfo>& estimator_methods() {
    static const std::vector<MethodInfo> all = infos(detail::registered_estimators());
    return all;
}

const std::vector<MethodInfo>& test_methods() {
    static const std::vector<MethodInfo> all = infos(detail::registered_tests());
    return all;
}

EstimatorSetup make_estimator(const std::string& name) {
    return EstimatorSetup(make(detail::registered_estimators(), "estimator", name));
}

TestSetup make_test(const std::string& name) { return TestSetup(make(detail::registered_tests(), "method", name)); }

const detail::MethodModel<EstimateResult>& EstimatorSetup::model() const {
    return static_cast<const detail::MethodModel<EstimateResult>&>(*model_);
}
KernelUse EstimatorSetup::kernel_use() const { return model().kernel_use(); }
LocationsUse EstimatorSetup::locations_use() const { return model().locations_use(); }
void EstimatorSetup::validate(std::size_t n, std::size_t num_locations) const { model().validate(n, num_locations); }

std::vector<std::string> EstimatorSetup::data_set_options() const { return model().data_set_options(); }

EstimateResult EstimatorSetup::run(const AnyData& data, const Kernel* kernel, const AnyData* locations,
                                   const ParallelOptions& parallel, const DataSets& data_sets) const {
    check_run(model(), data, kernel, locations);
    for (const std::string& name : model().data_set_options())
        if (!data_sets.count(name)) throw invalid_argument(model().info().name + " needs the data set of " + name);
    return model().run(data, kernel, locations, data_sets, parallel);
}

const detail::MethodModel<TestResult>& TestSetup::model() const { return static_cast<const detail::MethodModel<TestResult>&>(*model_); }
KernelUse TestSetup::kernel_use() const { return model().kernel_use(); }
LocationsUse TestSetup::locations_use() const { return model().locations_use(); }
void TestSetup::validate(std::size_t n, std::size_t num_locations) const { model().validate(n, num_locations); }

TestResult TestSetup::run(const AnyData& data, const Kernel* kernel, const AnyData* locations,
                          const ParallelOptions& parallel) const {
    check_run(model(), data, kernel, locations);
    return model().run(data, kernel, locations, {}, parallel);
}

std::string unused_option_message(const std::string& name, const std::vector<const Setup*>& setups,
                                  const std::string& context) {
    for (const Setup* s : setups)
        if (const std::string why = s ? s->why_not(name) : ""; !why.empty())
            return "option `" + name + "` " + why + " (" + context + ")";
    std::string known;
    for (const Setup* s : setups)
        for (const OptionInfo& o : s ? s->options() : std::vector<OptionInfo>{})
            known += (known.empty() ? "`" : ", `") + o.name + "`";
    return "option `" + name + "` does not apply to " + context +
           (known.empty() ? ", which takes no options" : "; its options are " + known);
}

void set_given_options(Setup& setup, GivenOptions& given) {
    setup.set_given([&](const OptionInfo& o) { return given.take(o); });
    if (const OptionInfo* o = setup.missing()) throw invalid_argument(missing_option_message(*o));
    setup.check();
}

void reject_unused(const GivenOptions& given, const std::vector<const Setup*>& setups, const std::string& context) {
    for (const std::string& name : given.left()) {
        const std::string message = unused_option_message(name, setups, context);
        for (const Setup* s : setups)
            if (s && s->option(name)) throw invalid_argument(message);
        throw unknown_option_error(message);
    }
}

void check_classes(const std::string& what, const FamilyInfo& family, bool binary) {
    if (family.classes) return;
    if (binary)
        throw invalid_argument(what + " applies only to binary predictions (`family` binary, or categorical with two "
                               "classes or an `event`), not " + family.name);
    std::vector<std::string> classes;
    for (const FamilyInfo& f : families())
        if (f.classes) classes.push_back(f.name);
    throw invalid_argument(what + " applies only to `family` " + detail::one_of(classes) + ", not " + family.name);
}

void check_univariate(const std::string& what, const FamilyInfo& family) {
    if (family.univariate) return;
    std::vector<std::string> univariate;
    for (const FamilyInfo& f : families())
        if (f.univariate) univariate.push_back(f.name);
    throw invalid_argument(what + " applies only to `family` " + detail::one_of(univariate) + ", not " + family.name);
}

std::string missing_option_message(const OptionInfo& option) {
    return "missing option `" + option.name + "`" + (option.metavar.empty() ? "" : " " + option.metavar);
}

std::string message_context(const EstimatorSetup& setup) { return "`estimator` " + setup.info().name; }

std::string message_context(const TestSetup& setup) {
    std::string context = "`method` " + setup.info().name;
    if (setup.option("estimator")) context += " `estimator` " + to_text(setup.get("estimator"));
    return context;
}

std::string message_context(const ComparisonSetup& setup) {
    std::string listed;
    for (const std::string& name : setup.estimators()) listed += (listed.empty() ? "" : ",") + name;
    return "rank `estimators` " + listed;
}

// ---- model comparison ----------------------------------------------------------------------------------

ComparisonSetup::ComparisonSetup() : Setup(detail::make_comparison_model()) {}

const detail::ComparisonModel& ComparisonSetup::model() const {
    return static_cast<const detail::ComparisonModel&>(*model_);
}
std::vector<std::string> ComparisonSetup::estimators() const { return model().estimators(); }
ComparisonRun ComparisonSetup::run(const std::vector<CategoricalData>& models, const ParallelOptions& parallel) const {
    const detail::Stopwatch stopwatch;
    ComparisonRun out = model().run(models, parallel);
    out.compute_seconds = stopwatch.seconds();
    out.estimators = estimators();
    out.options = record();
    for (const std::string& e : out.estimators) out.descriptions.push_back(detail::comparison_description(out.options, e));
    return out;
}

std::vector<OptionGroup> option_groups(const std::string& operation) {
    if (operation != "metrics" && operation != "recalibrate fit")
        throw invalid_argument("option_groups: '" + operation + "', must be metrics or recalibrate fit");
    // A family's options, or none when the operation does not take the family.
    const auto options_of = [&](const FamilyInfo& family) -> std::optional<std::vector<OptionInfo>> {
        try {
            if (operation == "metrics") return MetricsSetup(family).options();
            return RecalibrationSetup(family).options();
        } catch (const invalid_argument&) {
            return std::nullopt;
        }
    };
    const auto same = [](const OptionInfo& a, const OptionInfo& b) {
        return a.name == b.name && a.metavar == b.metavar && a.help == b.help;
    };
    std::vector<OptionGroup> groups;
    for (const char* name : {"categorical", "normal"}) {
        const std::vector<OptionInfo> all = *options_of(find_family(name));
        OptionGroup group;
        for (const FamilyInfo& f : families())
            if (const auto o = options_of(f); o && std::equal(o->begin(), o->end(), all.begin(), all.end(), same))
                group.families.push_back(f.name);
        for (const OptionInfo& o : all) {
            const bool listed = std::any_of(groups.begin(), groups.end(), [&](const OptionGroup& g) {
                return std::any_of(g.options.begin(), g.options.end(), [&](const OptionInfo& e) { return same(e, o); });
            });
            if (!listed) group.options.push_back(o);
        }
        groups.push_back(std::move(group));
    }
    return groups;
}

}  // namespace calib

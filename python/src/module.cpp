// calib._calib: the registry (calib/registry.hpp) on NumPy arrays. The Python package calib
// (python/calib/__init__.py) gives it its Pythonic face; everything that decides a result is here
// or in the library, so that Python and the command line share names, defaults, rules and numbers.
#include "arrays.hpp"
#include "predictions.hpp"
#include "values.hpp"

#include "../../apps/report/report_page.hpp"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <calib/io.hpp>
#include <calib/metrics.hpp>
#include <calib/operation.hpp>
#include <calib/recalibration.hpp>
#include <calib/registry.hpp>
#include <calib/report.hpp>
#include <calib/tool/command.hpp>
#include <calib/reliability.hpp>
#include <calib/version.hpp>
#include <calib/working_memory.hpp>

#include <algorithm>
#include <any>
#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <thread>

namespace py = pybind11;

namespace calib::python {

namespace {

// Python's Ctrl-C as the library's stop request (Progress::stop_requested): the calling thread, between
// its work items and at most every 50 ms, takes the GIL and checks Python's signals; a KeyboardInterrupt
// (or what a signal handler raised) stays set on it and stops the call. The other threads only read
// the flag, and a call shorter than 50 ms never takes the GIL.
class StopOnSignal final : public Progress {
public:
    void start(const char*, std::uint64_t) override {}
    void advance(std::uint64_t) override {}
    bool stop_requested() const override {
        if (signalled_.load(std::memory_order_relaxed)) return true;
        if (std::this_thread::get_id() != caller_) return false;
        const auto now = std::chrono::steady_clock::now();
        if (now < next_check_) return false;
        next_check_ = now + interval;
        const py::gil_scoped_acquire gil;
        if (PyErr_CheckSignals() != 0) signalled_.store(true, std::memory_order_relaxed);
        return signalled_.load(std::memory_order_relaxed);
    }
    bool signalled() const { return signalled_.load(std::memory_order_relaxed); }

private:
    static constexpr std::chrono::milliseconds interval{50};
    const std::thread::id caller_ = std::this_thread::get_id();
    mutable std::chrono::steady_clock::time_point next_check_ = std::chrono::steady_clock::now() + interval;
    mutable std::atomic<bool> signalled_{false};
};

// work(progress) with the GIL released, stopped by Ctrl-C: the exception the signal raised is raised
// here.
template <class Work>
auto run_interruptibly(Work&& work) {
    StopOnSignal stop;
    try {
        const py::gil_scoped_release release;
        auto result = work(&stop);
        if (!stop.signalled()) return result;
    } catch (const cancelled&) {
        if (!stop.signalled()) throw;
    }
    throw py::error_already_set();
}

// Further arrays of the data's family (test locations, a training set): a tuple of them in the
// family's order or a dict by name.
AnyData more_data(const FamilyInfo& family, const ReadOptions& options, const std::string& argument,
                  const py::object& value) {
    py::dict given;
    const std::vector<std::string> names = array_list(family);
    if (py::isinstance<py::dict>(value)) {
        given = value.cast<py::dict>();
    } else if (py::isinstance<py::tuple>(value) || py::isinstance<py::list>(value)) {
        const py::sequence s = value.cast<py::sequence>();
        if (s.size() != names.size())
            throw invalid_argument(argument + " must hold " + std::to_string(names.size()) + " arrays (" +
                                   array_names(family) + "), got " + std::to_string(s.size()));
        for (std::size_t k = 0; k < names.size(); ++k) given[names[k].c_str()] = s[k];
    } else {
        throw invalid_argument(argument + " must be a tuple (" + array_names(family) +
                               ") or a dict of arrays like the data's");
    }
    return make_data(family, given, options);
}

// A model's arrays as the operation reads them (OperationInfo::reads): the family's data set, or the
// scores as given (CategoricalScores, as read_categorical_scores reads a file: the probabilities as
// checked, or the logits themselves).
ModelData model_data(const OperationInfo& info, const FamilyInfo& family, const std::string& name,
                     const py::handle& model, const ReadOptions& read) {
    const py::dict arrays = model.cast<py::dict>();
    AnyData data = make_data(family, arrays, read);
    if (info.reads != ModelKind::scores || family.name != "categorical") return {name, std::move(data)};
    const CategoricalData& d = std::get<CategoricalData>(data);
    return {name, CategoricalScores{read.logits ? table_matrix(arrays["probs"], "probs") : Matrix(d.probabilities()),
                                    d.labels(), read.logits}};
}

// Python's runner of the library's operations (calib/operation.hpp), configured as the
// command line's. The models are a list of dicts of arrays (one for most operations; rank's several,
// named by `names`). What is Python's own is the arrays given where the command line takes a FILE: the
// inputs the operation asks for (test locations; ce-*'s train and validation) as arrays of the data's
// family, and tables (mmd: features, groups), each recorded as "arrays". The dict holds the record's
// result fields, then details, n, options, kernel (dicts; a result's own field of that name stays),
// family and compute_seconds. `page`, when not empty, is where the record's page is written (the
// report's, as the command line draws it; checked before the work), the page's command `call`.
py::dict run(const std::string& name, const std::string& family, const py::list& models,
             const std::vector<std::string>& names, const py::dict& reading, py::dict options, int threads,
             const std::string& page, const std::string& call) {
    const Operation& operation = find_operation(name);
    // Every option is checked before the arrays are read, as the command line checks them before its files.
    check_model_count(operation.info(), models.size());
    if (names.size() != models.size())
        throw invalid_argument("names has " + std::to_string(names.size()) + " entries but there are " +
                               std::to_string(models.size()) + " models");
    // An operation that reads predictions alone decides their family (operation.hpp: OperationInfo::reads).
    const bool alone = operation.info().reads == ModelKind::predictions;
    if (alone && !family.empty()) throw invalid_argument("calib " + name + " takes no family: its input decides it");
    const FamilyInfo& of = alone ? families().front()
                                 : family.empty() ? infer_family(models[0].cast<py::dict>()) : find_family(family);
    check_family(operation.info(), of, models.size());
    const ReadOptions read = read_options_of(of, reading);
    if (!alone)
        for (const py::handle& arrays : models) check_array_names(of, arrays.cast<py::dict>());
    py::dict given_arrays;  // KeywordOptions gives them as "arrays" to options that take a FILE
    for (const auto& item : options)
        if (is_arrays(item.second)) given_arrays[item.first] = item.second;
    KeywordOptions given(options);
    const std::unique_ptr<ConfiguredOperation> configured = operation.configure(of, given);
    const std::string what = configured->method_name();
    if (!page.empty()) {
        if (name != "report") throw invalid_argument("calib " + name + " draws no page");
        check_writable(page);
    }
    const std::optional<PredictionReading> reading_alone = configured->reading();
    std::vector<ModelData> data;
    for (std::size_t k = 0; k < names.size(); ++k)
        data.push_back(reading_alone ? ModelData{names[k], prediction_arrays(*reading_alone, models[k].cast<py::dict>())}
                                     : model_data(operation.info(), of, names[k], models[k], read));
    DataSets inputs;
    for (const InputRequest& request : configured->inputs()) {
        if (!given_arrays.contains(request.option.c_str()))
            throw invalid_argument(what + ": " + request.option + " takes the arrays of a data set (" +
                                   array_names(of) + ") as a tuple or a dict, not a file name");
        inputs.emplace(request.option, more_data(of, read, request.option, given_arrays[request.option.c_str()]));
    }
    for (const auto& item : given_arrays) {
        const std::string option = py::str(item.first);
        if (inputs.count(option)) continue;
        if (!configured->takes_table(option))
            throw invalid_argument(what + ": " + option + " takes a file name, not arrays");
        configured->set_table(option, table_matrix(item.second, option));
    }
    std::optional<OperationRecord> record = run_interruptibly(
        [&](Progress* stop) { return configured->run(data, inputs, ParallelOptions{threads, stop}); });
    for (const std::string& warning : record->warnings) warn(warning);
    const auto* fit = std::any_cast<std::shared_ptr<const RecalibrationFit>>(&record->product);
    if (!page.empty())
        write_file(page, calib::page::report_html(report_content(*record),
                                                  calib::page::PageInfo{{}, call, calib::page::now_utc(), record->compute_seconds}));
    Record numbers = record->result;
    numbers.insert(numbers.end(), record->details.begin(), record->details.end());
    for (const std::string& warning : non_finite_fields(numbers)) warn(warning);
    py::dict out = to_dict(record->result);
    const auto part = [&](const char* key, const Record& fields) {
        if (!out.contains(key)) out[key] = to_dict(fields);
    };
    part("details", record->details);
    out["n"] = record->n;
    part("options", record->options);
    part("kernel", record->kernel);
    out["family"] = reading_alone ? reading_alone->family->name : of.name;
    out["compute_seconds"] = record->compute_seconds;
    if (!record->warnings.empty()) {
        py::list said;
        for (const std::string& warning : record->warnings) said.append(render_message(warning, NameStyle::python));
        out["warnings"] = said;
    }
    if (fit) out["map"] = to_json(**fit);  // the text of the map file
    if (const auto* applied = std::any_cast<std::shared_ptr<const Predictions>>(&record->product))
        out["predictions"] = prediction_dict(*reading_alone, **applied);
    return out;
}

// The command's own options given as keyword arguments (threads), checked by the registry's
// CommandSetup with the command line's rules and words; its files (recalibrate fit's `out`) are the
// command line's, so a missing one is not Python's to ask for.
py::dict command_options(const std::string& command, py::dict given) {
    CommandSetup setup(command);
    KeywordOptions keywords(given);
    setup.set_given([&](const OptionInfo& o) { return keywords.take(o); });  // each value checked as set
    reject_unused(given, {&setup}, "calib " + command);
    py::dict out;
    out["threads"] = setup.values().threads;
    return out;
}

// A diagram's setup with the keyword arguments as its options (DiagramSetup checks them).
DiagramSetup diagram_setup(const std::string& diagram, py::dict options) {
    DiagramSetup setup(diagram);
    set_options(setup, options);
    reject_unused(options, {&setup}, "`diagram` " + diagram);
    return setup;
}

py::dict reliability(const std::string& family_name, const py::dict& arrays, const py::dict& reading, py::dict options) {
    const FamilyInfo& family = family_name.empty() ? infer_family(arrays) : find_family(family_name);
    check_classes("reliability_diagram", family);
    const DiagramSetup setup = diagram_setup("reliability", options);
    return to_dict(setup.run(make_data(family, arrays, read_options_of(family, reading))));
}

std::vector<double> pit_values(const std::string& family_name, const py::dict& arrays, const py::dict& reading) {
    const FamilyInfo& family = family_name.empty() ? infer_family(arrays) : find_family(family_name);
    return pit(make_data(family, arrays, read_options_of(family, reading)));
}

py::dict pit_histogram_dict(const std::vector<double>& u, py::dict options) {
    const ReliabilityOptions o = diagram_setup("pit", options).values().reliability;
    return to_dict(pit_histogram(u, o.bins, o.level).record());
}

py::dict interval_coverage_dict(const std::vector<double>& u, py::dict options) {
    const DiagramOptions o = diagram_setup("coverage", options).values();
    return to_dict(interval_coverage(u, o.nominal, o.reliability.level).record());
}

py::dict method_info(const MethodInfo& m, const std::vector<OptionInfo>& options) {
    return py::dict(py::arg("name") = m.name, py::arg("summary") = m.summary, py::arg("title") = m.title,
                    py::arg("classes_only") = m.classes_only, py::arg("binary_only") = m.binary_only,
                    py::arg("univariate_only") = m.univariate_only, py::arg("options") = option_list(options));
}

py::list methods(const std::string& kind) {
    py::list out;
    if (kind == "estimator")
        for (const MethodInfo& m : estimator_methods()) out.append(method_info(m, make_estimator(m.name).options()));
    else if (kind == "test")
        for (const MethodInfo& m : test_methods()) out.append(method_info(m, make_test(m.name).options()));
    else
        throw invalid_argument("methods(kind): kind is estimator or test, not " + kind);
    return out;
}

// The Python function of an operation: "recalibrate fit" is recalibrate_fit.
std::string function_name(std::string name) {
    std::replace(name.begin(), name.end(), '-', '_');
    std::replace(name.begin(), name.end(), ' ', '_');
    return name;
}

// The operations (operation.hpp): name, function (its Python function's name), summary, method (the option choosing the method), min_models and
// max_models (how many models it takes), own_options
// and options (every option it may take, for docstrings).
py::list operation_list() {
    py::list out;
    for (const Operation* op : operations())
        out.append(py::dict(py::arg("name") = op->info().name, py::arg("function") = function_name(op->info().name),
                            py::arg("summary") = op->info().summary,
                            py::arg("method") = op->info().method, py::arg("min_models") = op->info().min_models,
                            py::arg("max_models") = op->info().max_models,
                            py::arg("classes_only") = op->info().classes_only,
                            py::arg("compares_classes") = op->info().compares_classes, py::arg("own_options") = option_list(op->own_options()),
                            py::arg("options") = option_list(op->options())));
    return out;
}

py::list family_list() {
    py::list out;
    for (const FamilyInfo& f : families())
        out.append(py::dict(py::arg("name") = f.name, py::arg("summary") = f.summary,
                            py::arg("arrays") = array_list(f), py::arg("classes") = f.classes,
                            py::arg("kernel_options") = option_list(KernelSetup(f).options())));
    return out;
}

}  // namespace


}  // namespace calib::python

PYBIND11_MODULE(_calib, m) {
    using namespace calib::python;
    m.doc() = "calib's compiled core: the registry of estimators and tests on NumPy arrays (use the package calib).";
    // invalid_argument (and option_error) derive from std::invalid_argument: ValueError; an option
    // no setup has is a TypeError, as Python's own for an unexpected keyword argument.
    py::register_exception<calib::numerical_error>(m, "NumericalError", PyExc_ArithmeticError);
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const calib::unknown_option_error& e) {
            PyErr_SetString(PyExc_TypeError, e.what());
        }
    });
    add_warning_class(m);
    m.attr("version") = calib::version;
    m.attr("default_seed") = calib::default_seed;
    m.def("run", &run, py::arg("operation"), py::arg("family"), py::arg("models"), py::arg("names"), py::arg("reading"),
          py::arg("options"), py::arg("threads"), py::arg("page") = "", py::arg("call") = "");
    m.def("reliability_diagram", &reliability, py::arg("family"), py::arg("arrays"), py::arg("reading"),
          py::arg("options"));
    m.def("pit", &pit_values, py::arg("family"), py::arg("arrays"), py::arg("reading"));
    m.def("pit_histogram", &pit_histogram_dict, py::arg("u"), py::arg("options"));
    m.def("interval_coverage", &interval_coverage_dict, py::arg("u"), py::arg("options"));
    m.def("diagram_options", [](const std::string& diagram) { return option_list(calib::DiagramSetup(diagram).options()); });
    m.def("command_option_list", [](const std::string& command) { return option_list(calib::CommandSetup(command).options()); });
    m.def("methods", &methods, py::arg("kind"));
    m.def("families", &family_list);
    m.def("operations", &operation_list);
    m.def("command_options", &command_options, py::arg("command"), py::arg("given"));
    m.def("reading_options", [] { return option_list(calib::reading_options(false)); });
    m.def("comparison_options", [] { return option_list(calib::ComparisonSetup().options()); });
    m.def("option_groups", [](const std::string& operation) {
        py::list groups;
        for (const calib::OptionGroup& g : calib::option_groups(operation)) {
            py::dict group;
            group["families"] = g.families;
            group["options"] = option_list(g.options);
            groups.append(group);
        }
        return groups;
    });
    m.def("max_threads", &calib::max_num_threads);
    m.def("keep_working_memory", &calib::keep_working_memory, py::arg("bytes"));
    m.def("release_working_memory", &calib::release_working_memory);
    m.def("can_keep_working_memory", &calib::can_keep_working_memory);
    m.attr("default_working_memory") = calib::default_working_memory;
    // A loop of calls in the interpreter would page-fault each call's working copies in again
    // (working_memory.hpp; docs/performance.md, "Working memory between calls").
    calib::keep_working_memory(calib::default_working_memory);
}

// calib._calib: the registry (calib/registry.hpp) on NumPy arrays. The Python package calib
// (python/calib/__init__.py) gives it its Pythonic face; everything that decides a result is here
// or in the library, so that Python and the command line share names, defaults, rules and numbers.
#include "arrays.hpp"
#include "recalibration.hpp"
#include "values.hpp"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <calib/metrics.hpp>
#include <calib/registry.hpp>
#include <calib/reliability.hpp>
#include <calib/version.hpp>
#include <calib/working_memory.hpp>

#include <algorithm>
#include <optional>
#include <type_traits>

namespace py = pybind11;

namespace calib::python {

namespace {

struct Inputs {
    const FamilyInfo* family;
    ReadOptions reading;
    AnyData data;
    std::optional<AnyData> locations;
};

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

// The data set, its family (given or inferred from the arrays), the reading options, and the test
// locations when given (the same arrays, in the same family).
Inputs read_inputs(const std::string& family_name, const py::dict& arrays, const py::dict& reading,
                   const py::object& locations) {
    const FamilyInfo& family = family_name.empty() ? infer_family(arrays) : find_family(family_name);
    const ReadOptions options = read_options_of(family, reading);
    Inputs in{&family, options, make_data(family, arrays, options), std::nullopt};
    if (!locations.is_none()) in.locations = more_data(family, options, "test_locations", locations);
    return in;
}

// One estimator or test from its name and keyword options, configured by the registry as the command
// line's (configure: the method's options, the kernel's, preset=, the rest refused); what is Python's
// own is the arrays given where the command line takes a FILE: test locations, an estimator's further
// data sets (ce-*: train, validation) as arrays of the data's family, and tables (mmd: features,
// groups), each recorded as "arrays".
template <class MethodSetup>
struct Configured {
    ConfiguredMethod<MethodSetup> method;  // the registry's configure: options, kernel, preset=
    DataSets data_sets;
};

template <class MethodSetup>
Configured<MethodSetup> configure(MethodSetup setup, const Inputs& in, py::dict options) {
    const MethodInfo& info = setup.info();
    const FamilyInfo& family = *in.family;
    const bool has_locations = in.locations.has_value();
    // The locations are arrays here; the option records only that they were given.
    if (has_locations && !setup.option("test_locations"))
        throw invalid_argument("test_locations does not apply to " + info.name);
    if (has_locations) options["test_locations"] = "arrays";
    if (!has_locations && setup.locations_use() == LocationsUse::required)
        throw invalid_argument(info.name + " needs test_locations: arrays of test locations (" + array_names(family) +
                               ")");
    // So are the options whose value is a FILE on the command line, given as arrays: data sets (ce-*:
    // train, validation) and tables (mmd: features, groups), recorded as "arrays".
    py::dict given_arrays;
    for (const auto& item : options) {
        const py::handle v = item.second;
        const std::string name = py::str(item.first);
        const OptionInfo* option = setup.option(name);
        if (!option || !is_arrays(v)) continue;
        if (option->metavar != "FILE") throw invalid_argument(info.name + ": " + name + " takes a value, not arrays");
        given_arrays[item.first] = v;
    }
    for (const auto& item : given_arrays) options[item.first] = "arrays";
    const Preset* preset = nullptr;
    if (options.contains("preset")) {
        preset = &find_preset(py::str(options["preset"]));
        PyDict_DelItemString(options.ptr(), "preset");
    }
    KeywordOptions given(options);
    Configured<MethodSetup> c{configure(std::move(setup), family, preset, given), {}};
    MethodSetup& method = c.method.method;
    std::vector<std::string> data_sets;
    if constexpr (std::is_same_v<MethodSetup, EstimatorSetup>) data_sets = method.data_set_options();
    for (const std::string& name : data_sets)
        if (!given_arrays.contains(name.c_str()))
            throw invalid_argument(info.name + ": " + name + " takes the arrays of a data set (" + array_names(family) +
                                   ") as a tuple or a dict, not a file name");
    // Every array-valued option applies here (configure refused the others).
    for (const auto& item : given_arrays) {
        const std::string name = py::str(item.first);
        if (std::find(data_sets.begin(), data_sets.end(), name) != data_sets.end())
            c.data_sets.emplace(name, more_data(family, in.reading, name, item.second.cast<py::object>()));
        else if (method.takes_table(name))
            method.set_table(name, table_matrix(item.second, name));
        else
            throw invalid_argument(info.name + ": " + name + " takes the arrays of a data set (" + array_names(family) +
                                   ") as a tuple or a dict, or a file name");
    }
    return c;
}

// Runs a configured method on the inputs: the limits on n, the kernel's lengthscale on the data, the
// method, without the GIL. The dict has the fields common to estimates and tests; `fields` adds the
// result's own.
template <class MethodSetup, class Fields>
py::dict run(const Configured<MethodSetup>& c, const Inputs& in, int threads, Fields fields) {
    const ParallelOptions parallel{threads};
    const MethodSetup& method = c.method.method;
    const KernelSetup* kernel = c.method.kernel_setup();
    const AnyData* locations = in.locations ? &*in.locations : nullptr;
    std::optional<MethodRun<decltype(method.run(in.data, nullptr, nullptr, parallel))>> done;
    {
        py::gil_scoped_release release;
        if constexpr (std::is_same_v<MethodSetup, EstimatorSetup>)
            done = run_method(method, kernel, in.data, locations, c.data_sets, parallel);
        else
            done = run_method(method, kernel, in.data, locations, parallel);
    }
    py::dict out;
    fields(out, done->result);
    out["n"] = done->result.n;
    out["options"] = to_dict(done->options);
    if (c.method.preset) out["options"]["preset"] = c.method.preset->name;
    out["kernel"] = to_dict(done->kernel_record);
    out["family"] = in.family->name;
    out["compute_seconds"] = done->compute_seconds;
    return out;
}

py::dict estimate(const std::string& family, const py::dict& arrays, const py::dict& reading,
                  const py::object& locations, const std::string& estimator, const py::dict& options, int threads) {
    const Inputs in = read_inputs(family, arrays, reading, locations);
    const auto c = configure(make_estimator(estimator), in, options);
    return run(c, in, threads, [](py::dict& out, const EstimateResult& r) {
        out["estimator"] = r.estimator;
        out["estimate"] = r.estimate;
        out["details"] = to_dict(r.details);
        for (const std::string& warning : r.warnings) warn(warning);
        Record numbers{{"estimate", r.estimate}};
        numbers.insert(numbers.end(), r.details.begin(), r.details.end());
        for (const std::string& warning : non_finite_fields(numbers)) warn(warning);
    });
}

py::dict test(const std::string& family, const py::dict& arrays, const py::dict& reading, const py::object& locations,
              const std::string& method, const py::dict& options, int threads) {
    const Inputs in = read_inputs(family, arrays, reading, locations);
    const auto c = configure(make_test(method), in, options);
    return run(c, in, threads, [](py::dict& out, const TestResult& r) {
        out["method"] = r.method;
        out["null"] = r.null_approximation;
        out["estimator"] = r.estimator;
        out["estimate"] = r.estimate;
        out["statistic"] = r.statistic;
        out["p_value"] = r.p_value;
        out["low_power"] = low_power_note(r);
        Record details = std::visit([](const auto& d) { return d.record(); }, r.details);
        details.insert(details.end(), r.estimator_details.begin(), r.estimator_details.end());  // the MMD's notion, kernel
        out["details"] = to_dict(details);
        for (const std::string& warning : non_finite_fields(r.record())) warn(warning);
    });
}

py::dict rank(const std::string& family_name, const py::list& models, const py::object& labels,
              const std::vector<std::string>& names, const py::dict& reading, py::dict options, int threads) {
    const FamilyInfo& family = find_family(family_name);
    check_classes("calib rank", family);
    CommandSetup("rank").check_models(models.size());
    const ReadOptions read = read_options_of(family, reading);
    std::vector<CategoricalData> data;
    for (const py::handle& probs : models) {
        py::dict arrays;
        arrays["probs"] = probs;
        arrays["labels"] = labels;
        data.push_back(std::get<CategoricalData>(make_data(family, arrays, read)));
    }
    ComparisonSetup setup;
    set_options(setup, options);
    reject_unused(options, {&setup}, message_context(setup));
    ComparisonRun run;
    {
        py::gil_scoped_release release;
        run = setup.run(data, ParallelOptions{threads});
    }
    py::dict out = to_dict(run.record(names));
    out["options"] = to_dict(run.options);
    out["family"] = family.name;
    out["compute_seconds"] = run.compute_seconds;
    return out;
}

// The command's own options given as keyword arguments (threads; test: alpha), checked by the registry's
// CommandSetup with the command line's rules and words.
py::dict command_options(const std::string& command, py::dict given) {
    CommandSetup setup(command);
    set_options(setup, given);
    reject_unused(given, {&setup}, "calib " + command);
    py::dict out;
    out["threads"] = setup.values().threads;
    if (setup.values().alpha) out["alpha"] = *setup.values().alpha;
    return out;
}

// A diagram's options given as keyword arguments, checked by the registry's DiagramSetup.
DiagramOptions diagram_options(const std::string& diagram, py::dict options) {
    DiagramSetup setup(diagram);
    set_options(setup, options);
    reject_unused(options, {&setup}, diagram);
    return setup.values();
}

py::dict reliability(const std::string& family_name, const py::dict& arrays, const py::dict& reading, py::dict options) {
    const FamilyInfo& family = family_name.empty() ? infer_family(arrays) : find_family(family_name);
    check_classes("reliability_diagram", family);
    const DiagramOptions given = diagram_options("reliability_diagram", options);
    const ReliabilityOptions& o = given.reliability;
    const AnyData data = make_data(family, arrays, read_options_of(family, reading));
    const CategoricalData& d = std::get<CategoricalData>(data);
    const ReliabilityDiagram r = given.k ? class_reliability_diagram(d, *given.k, o) : reliability_diagram(d, o);
    return to_dict(r.record());
}

std::vector<double> pit_values(const std::string& family_name, const py::dict& arrays, const py::dict& reading) {
    const FamilyInfo& family = family_name.empty() ? infer_family(arrays) : find_family(family_name);
    return pit(make_data(family, arrays, read_options_of(family, reading)));
}

// A row of a preset's published table (calib reproduce).
py::dict reproduce(const std::string& preset_name, const std::string& family_name, const py::dict& arrays,
                   const py::dict& reading, int threads) {
    const Preset& preset = find_preset(preset_name);
    const Inputs in = read_inputs(family_name, arrays, reading, py::none());
    check_preset_family(preset, *in.family);
    Timed<Record> row;
    {
        py::gil_scoped_release release;
        row = run_preset(preset, in.data, ParallelOptions{threads});
    }
    py::dict out;
    out["preset"] = preset.name;
    out["source"] = preset.source;
    out["n"] = data_size(in.data);
    for (const Field& f : row.result) out[f.name.c_str()] = to_python(f.value);
    out["family"] = in.family->name;
    out["compute_seconds"] = row.compute_seconds;
    return out;
}

// The evaluation metrics of Marx et al. (evaluation_metrics): the command line's `calib metrics` fields.
py::dict metrics(const std::string& family_name, const py::dict& arrays, const py::dict& reading, py::dict options,
                 int threads) {
    const Inputs in = read_inputs(family_name, arrays, reading, py::none());
    MetricsSetup setup(*in.family);
    // features: an array (the command line's FILE), recorded as "arrays".
    std::optional<py::object> features;
    if (options.contains("features") && is_arrays(options["features"])) {
        features = options["features"];
        options["features"] = "arrays";
    }
    set_options(setup, options);
    reject_unused(options, {&setup}, message_context(setup));
    if (features) setup.set_table("features", table_matrix(*features));
    Timed<Record> metrics;
    {
        py::gil_scoped_release release;
        metrics = setup.run(in.data, ParallelOptions{threads});
    }
    for (const std::string& warning : non_finite_fields(metrics.result)) warn(warning);
    py::dict out = to_dict(metrics.result);
    out["n"] = data_size(in.data);
    out["family"] = in.family->name;
    out["compute_seconds"] = metrics.compute_seconds;
    return out;
}

py::dict pit_histogram_dict(const std::vector<double>& u, py::dict options) {
    const ReliabilityOptions o = diagram_options("pit_histogram", options).reliability;
    return to_dict(pit_histogram(u, o.bins, o.level).record());
}

py::dict interval_coverage_dict(const std::vector<double>& u, py::dict options) {
    const DiagramOptions o = diagram_options("interval_coverage", options);
    return to_dict(interval_coverage(u, o.nominal, o.reliability.level).record());
}

py::dict method_info(const MethodInfo& m, const std::vector<OptionInfo>& options) {
    return py::dict(py::arg("name") = m.name, py::arg("summary") = m.summary, py::arg("title") = m.title,
                    py::arg("classes_only") = m.classes_only, py::arg("binary_only") = m.binary_only,
                    py::arg("options") = option_list(options));
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
    m.def("estimate", &estimate, py::arg("family"), py::arg("arrays"), py::arg("reading"), py::arg("test_locations"),
          py::arg("estimator"), py::arg("options"), py::arg("threads"));
    m.def("test", &test, py::arg("family"), py::arg("arrays"), py::arg("reading"), py::arg("test_locations"),
          py::arg("method"), py::arg("options"), py::arg("threads"));
    m.def("rank", &rank, py::arg("family"), py::arg("models"), py::arg("labels"), py::arg("names"), py::arg("reading"),
          py::arg("options"), py::arg("threads"));
    m.def("reliability_diagram", &reliability, py::arg("family"), py::arg("arrays"), py::arg("reading"),
          py::arg("options"));
    m.def("pit", &pit_values, py::arg("family"), py::arg("arrays"), py::arg("reading"));
    m.def("reproduce", &reproduce, py::arg("preset"), py::arg("family"), py::arg("arrays"), py::arg("reading"),
          py::arg("threads"));
    m.def("metrics", &metrics, py::arg("family"), py::arg("arrays"), py::arg("reading"), py::arg("options"),
          py::arg("threads"));
    m.def("pit_histogram", &pit_histogram_dict, py::arg("u"), py::arg("options"));
    m.def("interval_coverage", &interval_coverage_dict, py::arg("u"), py::arg("options"));
    m.def("diagram_options", [](const std::string& diagram) { return option_list(calib::DiagramSetup(diagram).options()); });
    m.def("command_option_list", [](const std::string& command) { return option_list(calib::CommandSetup(command).options()); });
    m.def("methods", &methods, py::arg("kind"));
    m.def("families", &family_list);
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
    add_recalibration(m);
}

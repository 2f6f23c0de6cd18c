// Python values and the registry's (values.hpp).
#include "values.hpp"

#include "arrays.hpp"

#include <pybind11/stl.h>

#include <cstdint>
#include <optional>

namespace py = pybind11;

namespace calib::python {

Value to_value(const std::string& name, const py::handle& value) {
    if (py::isinstance<py::bool_>(value)) return value.cast<bool>();
    // NumPy integers and floats too: they convert through __index__ and __float__.
    if (py::isinstance<py::int_>(value) || py::hasattr(value, "__index__")) {
        const py::int_ i = py::reinterpret_steal<py::int_>(PyNumber_Index(value.ptr()));
        if (!i) throw py::error_already_set();
        if (i >= py::int_(0)) {
            if (i > py::int_(UINT64_MAX)) throw option_error(name, std::string(py::repr(value)), "at most 2^64 - 1");
            return i.cast<std::uint64_t>();
        }
        if (i < py::int_(INT64_MIN)) throw option_error(name, std::string(py::repr(value)), "at least -2^63");
        return i.cast<std::int64_t>();
    }
    if (py::isinstance<py::float_>(value) || py::hasattr(value, "__float__")) return value.cast<double>();
    if (py::isinstance<py::str>(value)) return value.cast<std::string>();
    throw option_error(name, std::string(py::repr(value)),
                       "a number, a str or a bool (not " + std::string(py::str(value.get_type().attr("__name__"))) + ")");
}

namespace {
PyObject* warning_class = nullptr;  // made once and kept for the life of the process
}

void add_warning_class(py::module_& m) {
    warning_class = PyErr_NewExceptionWithDoc(
        "calib._calib.CalibWarning",
        "A likely mistake in the input that calib does not refuse (1-based labels read as 0-based), or a "
        "result that is not finite; the command line prints the same text as 'calib: warning: ...'.",
        PyExc_UserWarning, nullptr);
    if (!warning_class) throw py::error_already_set();
    m.attr("CalibWarning") = py::reinterpret_borrow<py::object>(warning_class);
}

void warn(const std::string& message) {
    // Attributed to the first frame outside the calib package (its functions call one another), as
    // warnings.warn's skip_file_prefixes would (Python 3.12+).
    const std::string package = py::str(py::module_::import("os.path").attr("dirname")(
        py::module_::import("calib").attr("__file__")));
    long level = 1;
    for (py::object frame = py::module_::import("sys").attr("_getframe")(0); !frame.is_none();
         frame = frame.attr("f_back"), ++level) {
        const std::string file = py::str(frame.attr("f_code").attr("co_filename"));
        if (file.compare(0, package.size(), package) != 0) break;
    }
    if (PyErr_WarnEx(warning_class, message.c_str(), level) < 0) throw py::error_already_set();
}

bool flag_argument(const std::string& name, const py::handle& value) {
    if (!py::isinstance<py::bool_>(value)) throw option_error(name, std::string(py::repr(value)), "True or False");
    return value.cast<bool>();
}

KeywordOptions::KeywordOptions(py::dict& options) : options_(options) {}

std::optional<Value> KeywordOptions::take(const OptionInfo& option) {
    if (!options_.contains(option.name)) return std::nullopt;
    const py::handle given = options_[option.name.c_str()];
    // Arrays stand where the command line takes a FILE; the option records only that they were given.
    if (is_arrays(given) && !py::isinstance<py::str>(given)) {
        if (option.metavar != "FILE") throw invalid_argument("option `" + option.name + "` takes a value, not arrays");
        PyDict_DelItemString(options_.ptr(), option.name.c_str());
        return Value(std::string("arrays"));
    }
    const Value v = to_value(option.name, given);
    PyDict_DelItemString(options_.ptr(), option.name.c_str());
    return v;
}

std::vector<std::string> KeywordOptions::left() const {
    std::vector<std::string> names;
    for (const auto& item : options_) names.push_back(py::str(item.first));
    return names;
}

void set_options(Setup& setup, py::dict& options) {
    KeywordOptions given(options);
    set_given_options(setup, given);
}

void reject_unused(py::dict& options, const std::vector<const Setup*>& setups, const std::string& context) {
    calib::reject_unused(KeywordOptions(options), setups, context);
}

py::object to_python(const Value& value) {
    return std::visit(
        [](const auto& v) -> py::object {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, Record>) {
                return to_dict(v);
            } else if constexpr (std::is_same_v<T, std::vector<Record>>) {
                py::list out;
                for (const Record& r : v) out.append(to_dict(r));
                return out;
            } else {
                return py::cast(v);
            }
        },
        value);
}

py::dict to_dict(const Record& record) {
    py::dict out;
    for (const Field& f : record) out[f.name.c_str()] = to_python(f.value);
    return out;
}

py::list option_list(const std::vector<OptionInfo>& options) {
    py::list out;
    for (const OptionInfo& o : options)
        out.append(py::dict(py::arg("name") = o.name, py::arg("metavar") = o.metavar,
                            py::arg("default") = o.default_value, py::arg("help") = o.help,
                            py::arg("required") = o.required,
                            py::arg("condition") = o.condition.option.empty() ? "" : describe_condition(o.condition)));
    return out;
}

}  // namespace calib::python

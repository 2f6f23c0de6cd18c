// Python values and the registry's (values.hpp).
#include "values.hpp"

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

bool flag_argument(const std::string& name, const py::handle& value) {
    if (!py::isinstance<py::bool_>(value)) throw option_error(name, std::string(py::repr(value)), "True or False");
    return value.cast<bool>();
}

void set_options(Setup& setup, py::dict& options) {
    setup.set_given([&](const OptionInfo& o) -> std::optional<Value> {
        if (!options.contains(o.name)) return std::nullopt;
        const Value v = to_value(o.name, options[o.name.c_str()]);
        PyDict_DelItemString(options.ptr(), o.name.c_str());
        return v;
    });
    if (const OptionInfo* o = setup.missing())
        throw invalid_argument("missing option " + o->name + "=" + o->metavar + " (" + setup.info().name + ")");
    setup.check();
}

void reject_unused(const py::dict& options, const std::vector<const Setup*>& setups, const std::string& context) {
    for (const auto& item : options) {
        const std::string name = py::str(item.first);
        for (const Setup* s : setups)
            if (const std::string why = s->why_not(name); !why.empty())
                throw invalid_argument("option " + name + " " + why + " (" + context + ")");
        std::string known;
        for (const Setup* s : setups)
            for (const OptionInfo& o : s->options()) known += (known.empty() ? "" : ", ") + o.name;
        throw py::type_error("unexpected keyword argument " + name + " for " + context +
                             (known.empty() ? ", which takes no options" : "; its options are " + known));
    }
}

py::object to_python(const Value& value) {
    return std::visit(
        [](const auto& v) -> py::object {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, Record>)
                return to_dict(v);
            else
                return py::cast(v);
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

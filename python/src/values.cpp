// Python values and the registry's (values.hpp).
#include "values.hpp"

#include <cstdint>

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
    for (const OptionInfo& o : setup.options()) {
        if (!options.contains(o.name) || !setup.applies(o.name)) continue;
        setup.set(o.name, to_value(o.name, options[o.name.c_str()]));
        PyDict_DelItemString(options.ptr(), o.name.c_str());
    }
    for (const OptionInfo& o : setup.options())
        if (o.required && setup.applies(o.name) && !setup.given(o.name))
            throw invalid_argument("missing option " + o.name + "=" + o.metavar + " (" + setup.info().name + ")");
    setup.check();
}

void reject_unused(const py::dict& options, const std::vector<const Setup*>& setups, const std::string& context) {
    for (const auto& item : options) {
        const std::string name = py::str(item.first);
        for (const Setup* s : setups)
            if (const OptionInfo* o = s->option(name)) {
                const Condition& c = o->condition;
                std::string now;  // the value that fails the condition
                if (!c.values.empty() && c.values != std::vector<std::string>{"false"} && s->applies(c.option))
                    now = ", not " + to_text(s->get(c.option));
                throw invalid_argument("option " + name + " " + describe_condition(c) + now + " (" + context + ")");
            }
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

// Python values and the registry's: keyword arguments as option values (in the registry's order, as
// the command line gives them), records as dicts, option descriptions as dicts for the docstrings.
#pragma once

#include <pybind11/pybind11.h>

#include <calib/options.hpp>
#include <calib/record.hpp>
#include <calib/registry.hpp>

#include <string>
#include <vector>

namespace calib::python {

// A keyword argument as a typed option value: bool, int (64-bit signed or unsigned), float or str.
Value to_value(const std::string& name, const pybind11::handle& value);
bool flag_argument(const std::string& name, const pybind11::handle& value);

// Keyword arguments as the registry's GivenOptions (calib/registry.hpp): a value given is taken out of
// the dict.
class KeywordOptions : public GivenOptions {
public:
    explicit KeywordOptions(pybind11::dict& options);
    std::optional<Value> take(const OptionInfo& option) override;
    std::vector<std::string> left() const override;

private:
    pybind11::dict& options_;
};

// set_given_options and reject_unused (calib/registry.hpp) on keyword arguments: the values given
// are taken out of `options`; an option left that no setup knows is a TypeError (unknown_option_error,
// as for an unexpected keyword argument), one whose condition does not hold a ValueError.
void set_options(Setup& setup, pybind11::dict& options);
void reject_unused(pybind11::dict& options, const std::vector<const Setup*>& setups, const std::string& context);

// calib.CalibWarning (a UserWarning): the command line's warnings, with the same text. The class is
// made once, when the module is imported (add_warning_class).
void add_warning_class(pybind11::module_& m);
// Issues `message` (a library message: options in backquotes, as Python keeps them) as a CalibWarning
// attributed to the caller of the calib function; raises when the warnings filter makes it an error.
// The GIL must be held.
void warn(const std::string& message);

pybind11::object to_python(const Value& value);
pybind11::dict to_dict(const Record& record);
// name, metavar, default, help, required, condition ("" or the registry's description of it).
pybind11::list option_list(const std::vector<OptionInfo>& options);

}  // namespace calib::python

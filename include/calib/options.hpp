// The options of calib's estimators, tests, kernels and model comparison, described once
// (calib/registry.hpp has the methods that own them): each option has a name, the form of its value,
// a default, a documentation string, and the condition under which it applies. The command-line tool
// and the Python module are generated from these descriptions and read values through them, so an
// option means the same everywhere: the command line writes the name block_size as --block-size,
// Python as the keyword argument block_size.
#pragma once

#include <calib/errors.hpp>
#include <calib/record.hpp>

#include <string>
#include <vector>

namespace calib {

// When an option applies: always (option empty), when the option `option` has one of `values` (as
// text: "rff", "median", "false"), or, with no values, when `option` was given.
struct Condition {
    std::string option;
    std::vector<std::string> values;
};

struct OptionInfo {
    std::string name;           // snake_case, e.g. "block_size"
    std::string metavar;        // the form of the value, e.g. "B|sqrt"; empty for a flag (true when given)
    std::string default_value;  // as the command line writes it ("2", "sqrt", "auto"); empty: none
    std::string help;           // what the option does, in one or two sentences
    bool required = false;      // must be given
    Condition condition;        // applies only when this holds
};

// A value an option does not accept; what() reads "option `<option>` = <value>, must be <rule>", e.g.
// "option `replicates` = 0, must be an integer in [1, 100000000]" (render_message spells the name for a
// front-end: --replicates on the command line).
class option_error : public invalid_argument {
public:
    option_error(const std::string& option, const std::string& value, const std::string& rule);
    const std::string& option() const { return option_; }
    const std::string& value() const { return value_; }
    const std::string& rule() const { return rule_; }

private:
    std::string option_, value_, rule_;
};

// An option that none of an operation's setups has (reject_unused in registry.hpp): Python raises it as
// a TypeError, as for an unexpected keyword argument.
class unknown_option_error : public invalid_argument {
public:
    using invalid_argument::invalid_argument;
};

// How a front-end spells option names: the command line's --block-size or Python's block_size.
enum class NameStyle { command_line, python };
std::string option_name(const std::string& name, NameStyle style);

// Messages of calib name options in backquotes (`block_size`); this writes them in a front-end's
// style (--block-size for the command line; Python keeps the backquotes). Only the given names are
// rewritten (all backquoted identifiers when `names` is empty).
std::string render_message(const std::string& message, NameStyle style, const std::vector<std::string>& names = {});

// Why an option whose condition does not hold cannot be given, naming options in backquotes:
// "applies only with `ckce_method` rff", "applies only with `lengthscale` median|median-full",
// "applies only with `median_subsample`", "applies only without `null_variance`".
std::string describe_condition(const Condition& condition);

}  // namespace calib

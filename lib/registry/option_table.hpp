// Options bound to an options struct S: each reads and writes S through typed accessors, so that a
// method's options are declared once, next to the library call that uses them (registry.hpp).
// Builders for the value types calib's options take: integers and seeds in a range, numbers with a
// rule, names of enumerations, flags, and custom ones (block sizes, byte counts, binnings).
#pragma once

#include "core/check.hpp"

#include <calib/data.hpp>
#include <calib/options.hpp>
#include <calib/record.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace calib::detail {

// Appends the options of `more` whose names `out` does not hold yet: an operation's options, once per
// name, from its methods' (Operation::options).
inline void append_new_options(std::vector<OptionInfo>& out, const std::vector<OptionInfo>& more) {
    for (const OptionInfo& o : more)
        if (std::none_of(out.begin(), out.end(), [&](const OptionInfo& known) { return known.name == o.name; }))
            out.push_back(o);
}

// ---- values --------------------------------------------------------------------------------------

// An integer in [min, max] from text (decimal digits, a leading '-' for negatives) or an integral
// number; otherwise option_error "must be an integer in [min, max]" (">= min" when max is the
// type's largest).
std::uint64_t unsigned_value(const std::string& option, const Value& value, std::uint64_t min, std::uint64_t max);
// A finite number from text or a number; `rule` says what else it must be, checked by `ok`.
double real_value(const std::string& option, const Value& value, const std::function<bool(double)>& ok,
                  const std::string& rule);
// Text (or the text of a number or bool).
std::string text_value(const Value& value);
// A flag: true, false, or the text "true"/"false".
bool flag_value(const std::string& option, const Value& value);
// The rule of an integer option, e.g. "an integer in [1, 100000000]" or "an integer >= 2".
std::string integer_rule(std::uint64_t min, std::uint64_t max);
// "a, b or c".
std::string one_of(const std::vector<std::string>& names);
// The parts of `text` between the separators (one part, possibly empty, when there is none).
std::vector<std::string> split(const std::string& text, char separator);

// ---- options ---------------------------------------------------------------------------------------

template <class S>
struct Option {
    OptionInfo info;
    std::function<void(S&, const Value&)> set;       // throws option_error
    std::function<Value(const S&)> get;
    // Appends the option's output fields; empty: {name: get()}.
    std::function<void(Record&, const S&, std::size_t n)> record;
    // An option whose FILE holds a table of numbers (mmd: features, groups) may instead take the table
    // itself from a front-end that has it in memory (Setup::set_table); empty: it cannot.
    std::function<void(S&, std::shared_ptr<const Matrix>)> set_table;
};

template <class S>
using OptionList = std::vector<Option<S>>;

inline OptionInfo info(std::string name, std::string metavar, std::string default_value, std::string help,
                       Condition condition = {}) {
    OptionInfo i;
    i.name = std::move(name);
    i.metavar = std::move(metavar);
    i.default_value = std::move(default_value);
    i.help = std::move(help);
    i.condition = std::move(condition);
    return i;
}

// An integer member (any unsigned or signed integral type) in [min, max].
template <class S, class T>
Option<S> integer_option(T S::*member, OptionInfo i, std::uint64_t min,
                         std::uint64_t max = std::numeric_limits<std::uint64_t>::max()) {
    max = std::min<std::uint64_t>(max, static_cast<std::uint64_t>(std::numeric_limits<T>::max()));
    if (i.metavar.empty()) i.metavar = "N";
    const std::string name = i.name;
    return {std::move(i),
            [=](S& s, const Value& v) { s.*member = static_cast<T>(unsigned_value(name, v, min, max)); },
            [=](const S& s) { return Value(static_cast<std::uint64_t>(s.*member)); },
            {}, {}};
}

// A number member that `ok` accepts (`rule` says what it must be).
template <class S>
Option<S> real_option(double S::*member, OptionInfo i, std::function<bool(double)> ok, std::string rule) {
    const std::string name = i.name;
    return {std::move(i), [=](S& s, const Value& v) { s.*member = real_value(name, v, ok, rule); },
            [=](const S& s) { return Value(s.*member); }, {}, {}};
}

// The level `alpha` of an operation's verdict (test, report): in (0, 1), the default 0.05.
inline constexpr double default_alpha = 0.05;
template <class S>
Option<S> alpha_option(double S::*member, std::string help) {
    return real_option(member, info("alpha", "A", "0.05", std::move(help)), [](double a) { return a > 0 && a < 1; }, "in (0, 1)");
}

// A bool member given by its presence on the command line.
template <class S>
Option<S> flag_option(bool S::*member, OptionInfo i) {
    const std::string name = i.name;
    i.metavar.clear();
    if (i.default_value.empty()) i.default_value = "false";
    return {std::move(i), [=](S& s, const Value& v) { s.*member = flag_value(name, v); },
            [=](const S& s) { return Value(s.*member); }, {}, {}};
}

// An enumeration member, by name: `names` pairs each value with its name; `context` is added to the
// rule of a bad value ("for the normal family").
template <class S, class E>
Option<S> enum_option(E S::*member, OptionInfo i, std::vector<std::pair<E, std::string>> names,
                      const std::string& context = "") {
    std::vector<std::string> all;
    for (const auto& [value, text] : names) all.push_back(text);
    if (i.metavar.empty()) {
        for (const std::string& n : all) i.metavar += (i.metavar.empty() ? "" : "|") + n;
    }
    const std::string name = i.name, rule = "one of " + one_of(all) + (context.empty() ? "" : " " + context);
    return {std::move(i),
            [=](S& s, const Value& v) {
                const std::string text = text_value(v);
                for (const auto& [value, n] : names)
                    if (n == text) {
                        s.*member = value;
                        return;
                    }
                throw option_error(name, text, rule);
            },
            [=](const S& s) {
                for (const auto& [value, n] : names)
                    if (value == s.*member) return Value(n);
                return Value(std::string("?"));
            },
            {}, {}};
}

// The values with the library's names (to_string of each): an enumeration option's one name table is
// the library's own.
template <class E>
std::vector<std::pair<E, std::string>> named(const std::vector<E>& values) {
    std::vector<std::pair<E, std::string>> out;
    for (const E v : values) out.emplace_back(v, to_string(v));
    return out;
}

// An option with its own accessors.
template <class S>
Option<S> custom_option(OptionInfo i, std::function<void(S&, const Value&)> set, std::function<Value(const S&)> get,
                        std::function<void(Record&, const S&, std::size_t n)> record = {}) {
    return {std::move(i), std::move(set), std::move(get), std::move(record), {}};
}

// The options of T at member `part` of S (a nested options struct).
template <class S, class T>
OptionList<S> nested(T S::*part, const OptionList<T>& options) {
    OptionList<S> out;
    for (const Option<T>& o : options) {
        Option<S> outer{o.info,
                        [=](S& s, const Value& v) { o.set(s.*part, v); },
                        [=](const S& s) { return o.get(s.*part); },
                        {},
                        {}};
        if (o.record) outer.record = [=](Record& r, const S& s, std::size_t n) { o.record(r, s.*part, n); };
        if (o.set_table) outer.set_table = [=](S& s, std::shared_ptr<const Matrix> t) { o.set_table(s.*part, std::move(t)); };
        out.push_back(std::move(outer));
    }
    return out;
}

template <class S>
OptionList<S> operator+(OptionList<S> a, const OptionList<S>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

// ---- a table of options with values -----------------------------------------------------------------

// The options of S, their values, and which were given.
template <class S>
class OptionTable {
public:
    OptionTable(OptionList<S> options, S values) : options_(std::move(options)), values_(std::move(values)) {
        for (const Option<S>& o : options_) infos_.push_back(o.info);
    }

    const std::vector<OptionInfo>& infos() const { return infos_; }
    const S& values() const { return values_; }
    S& values() { return values_; }

    const Option<S>* find(const std::string& name) const {
        for (const Option<S>& o : options_)
            if (o.info.name == name) return &o;
        return nullptr;
    }
    bool given(const std::string& name) const { return given_.count(name) > 0; }

    // The option's condition holds and the option it refers to applies itself. A value that is a
    // comma-separated list (estimators=ckce,ece) meets the condition when one of its items does.
    bool applies(const std::string& name) const {
        const Option<S>* o = find(name);
        if (!o) return false;
        const Condition& c = o->info.condition;
        if (c.option.empty()) return true;
        if (!applies(c.option)) return false;
        if (c.values.empty()) return given(c.option);
        for (const std::string& item : split(to_text(find(c.option)->get(values_)), ','))
            if (std::find(c.values.begin(), c.values.end(), item) != c.values.end()) return true;
        return false;
    }

    void set(const std::string& method, const std::string& name, const Value& value) {
        const Option<S>* o = find(name);
        if (!o) fail_plain("`" + name + "` is not an option of " + method);
        if (!applies(name))
            fail_plain("`" + name + "` " + describe_condition(o->info.condition));
        o->set(values_, value);
        given_.insert(name);
    }

    bool takes_table(const std::string& name) const {
        const Option<S>* o = find(name);
        return o && o->set_table;
    }

    // The table for an option that takes one; it must apply, as for set.
    void set_table(const std::string& method, const std::string& name, std::shared_ptr<const Matrix> table) {
        const Option<S>* o = find(name);
        if (!o || !o->set_table) fail_plain("`" + name + "` of " + method + " does not take a table of numbers");
        if (!applies(name)) fail_plain("`" + name + "` " + describe_condition(o->info.condition));
        o->set_table(values_, std::move(table));
        given_.insert(name);
    }

    Value get(const std::string& method, const std::string& name) const {
        const Option<S>* o = find(name);
        if (!o) fail_plain("`" + name + "` is not an option of " + method);
        return o->get(values_);
    }

    // Required options that were not given.
    void check_required(const std::string& method) const {
        for (const Option<S>& o : options_)
            if (o.info.required && applies(o.info.name) && !given(o.info.name))
                fail_plain(method + " needs the option `" + o.info.name + "` (" + o.info.metavar + ")");
    }

    // The fields of the options that apply and have a value: given, or with a default.
    // n: the observations, to report values chosen on the data (0: not known).
    Record record(std::size_t n) const {
        Record r;
        for (const Option<S>& o : options_) {
            if (!applies(o.info.name) || (o.info.default_value.empty() && !given(o.info.name))) continue;
            if (o.record)
                o.record(r, values_, n);
            else
                r.push_back({o.info.name, o.get(values_)});
        }
        return r;
    }

private:
    [[noreturn]] static void fail_plain(const std::string& message) { throw invalid_argument(message); }

    OptionList<S> options_;
    std::vector<OptionInfo> infos_;
    S values_;
    std::set<std::string> given_;
};

}  // namespace calib::detail

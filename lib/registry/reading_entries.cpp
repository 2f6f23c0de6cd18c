// How a family's data are read (registry.hpp, ReadingSetup): the options of io.hpp's ReadOptions, the same
// for the command line's files and the Python module's arrays. Each family has the options that apply to it;
// an option of another family is refused naming the families that take it.
#include "registry/common_options.hpp"
#include "registry/models.hpp"

#include <calib/io.hpp>

#include <algorithm>

namespace calib {

namespace detail {

namespace {

OptionList<ReadOptions> family_reading_options(const FamilyInfo& family, bool files) {
    using O = ReadOptions;
    OptionList<O> list;
    if (files) {
        list.push_back(custom_option<O>(
            info("labels", "FILE", "",
                 "the targets in a separate file (text or .npy), one row per observation (--targets is another "
                 "name for it); default: the last column(s) of the input"),
            [](O& o, const Value& v) { o.labels = text_value(v); }, [](const O& o) { return Value(o.labels); }));
        list = list + nested(&O::text, text_format_options());
    }
    if (family.labels_options) {
        list.push_back(flag_option(&O::one_based_labels,
                                   info("one_based_labels", "", "", "the labels are 1, ..., m (as R and MATLAB write them)")));
        list.push_back(flag_option(&O::logits, info("logits", "", "",
                                                    "the m prediction columns are logits (a row-wise softmax is taken)")));
    }
    if (!family.simplex_rows) return list;
    // The softmax of logits is on the simplex: its options apply to probabilities only.
    const Condition without_logits = family.labels_options ? Condition{"logits", {"false"}} : Condition{};
    return list + nested(&O::simplex, simplex_options(without_logits));
}

class ReadingEntry final : public WithOptions<SetupModel, ReadOptions> {
public:
    ReadingEntry(const FamilyInfo& family, bool files)
        : WithOptions<SetupModel, ReadOptions>({"reading", "how the data are read", "reading options", false},
                                               family_reading_options(family, files), {}) {}
    using WithOptions<SetupModel, ReadOptions>::values;
    std::shared_ptr<SetupModel> clone() const override { return std::make_shared<ReadingEntry>(*this); }
};

}  // namespace

}  // namespace detail

ReadingSetup::ReadingSetup(const FamilyInfo& family, bool files)
    : Setup(std::make_shared<detail::ReadingEntry>(family, files)), family_(family.name) {}

ReadOptions ReadingSetup::read_options() const { return static_cast<const detail::ReadingEntry&>(*model_).values(); }

std::vector<OptionInfo> reading_options(bool files) {
    std::vector<OptionInfo> all;
    for (const FamilyInfo& family : families()) {
        const ReadingSetup setup(family, files);
        for (const OptionInfo& o : setup.options())
            if (std::none_of(all.begin(), all.end(), [&](const OptionInfo& a) { return a.name == o.name; }))
                all.push_back(o);
    }
    for (OptionInfo& o : all) {
        std::vector<std::string> takers;
        for (const FamilyInfo& family : families())
            if (ReadingSetup(family, files).option(o.name)) takers.push_back(family.name);
        if (takers.size() < families().size()) o.condition = Condition{"family", takers};
    }
    return all;
}

std::string reading_option_message(const std::string& name, const ReadingSetup& setup) {
    if (setup.option(name)) return setup.applies(name) ? "" : "option `" + name + "` " + setup.why_not(name);
    std::vector<std::string> takers;
    for (const FamilyInfo& family : families())
        if (ReadingSetup(family, true).option(name)) takers.push_back(family.name);
    if (takers.empty()) return "";
    return "option `" + name + "` applies only to `family` " + detail::one_of(takers) + ", not " + setup.family();
}

}  // namespace calib

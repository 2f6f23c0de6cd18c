// The table of operations (operation.hpp): each is defined in its own file and listed here once.
#include <calib/operation.hpp>

#include <stdexcept>

namespace calib {

namespace detail {
const Operation& estimate_operation();  // operation_estimate.cpp
const Operation& test_operation();      // operation_test.cpp
const Operation& metrics_operation();   // operation_metrics.cpp
const Operation& reproduce_operation();  // operation_reproduce.cpp
const Operation& rank_operation();       // operation_rank.cpp
const Operation& report_operation();     // operation_report.cpp
const Operation& diagram_operation();    // operation_diagram.cpp
const Operation& recalibrate_fit_operation();  // operation_recalibrate_fit.cpp
const Operation& recalibrate_apply_operation();  // operation_recalibrate_apply.cpp
}  // namespace detail

const std::string& ConfiguredOperation::method_name() const {
    static const std::string none;
    return none;
}

const std::vector<OptionInfo>& Operation::own_options() const {
    static const std::vector<OptionInfo> none;
    return none;
}

const AnyData& ModelData::data() const {
    if (const auto* data = std::get_if<AnyData>(&value)) return *data;
    throw std::logic_error("model " + name + " was read as scores or predictions, not as a data set (OperationInfo::reads)");
}

bool ConfiguredOperation::takes_table(const std::string&) const { return false; }

void ConfiguredOperation::set_table(const std::string& option, Matrix) {
    throw invalid_argument("`" + option + "` takes a file name, not a table");
}

void check_family(const OperationInfo& info, const FamilyInfo& family, std::size_t count) {
    if (info.classes_only) check_classes("calib " + info.name, family);
    if (info.compares_classes && count > 1)
        check_classes("a comparison of models (several `input` files, as in calib rank)", family);
}

void check_model_count(const OperationInfo& info, std::size_t count) {
    const std::string what = "calib " + info.name;
    if (count < info.min_models)
        throw invalid_argument(what + " needs at least " + std::to_string(info.min_models) + " model" +
                               (info.min_models == 1 ? "" : "s") + ", got " + std::to_string(count));
    if (count > info.max_models)
        throw invalid_argument(what + (info.max_models == 1 ? " takes one model (one `input`)"
                                                            : " takes at most " + std::to_string(info.max_models) + " models") +
                               ", got " + std::to_string(count));
}

const std::vector<const Operation*>& operations() {
    static const std::vector<const Operation*> all{&detail::estimate_operation(), &detail::test_operation(),
                                                    &detail::metrics_operation(), &detail::rank_operation(),
                                                    &detail::report_operation(), &detail::diagram_operation(),
                                                    &detail::recalibrate_fit_operation(),
                                                    &detail::recalibrate_apply_operation(), &detail::reproduce_operation()};
    return all;
}

bool is_operation(const std::string& name) {
    for (const Operation* op : operations())
        if (op->info().name == name) return true;
    return false;
}

const Operation& find_operation(const std::string& name) {
    std::string known;
    for (const Operation* op : operations()) {
        if (op->info().name == name) return *op;
        known += (known.empty() ? "" : ", ") + op->info().name;
    }
    throw invalid_argument("unknown operation '" + name + "', expected one of " + known);
}

}  // namespace calib

// The table of operations (operation.hpp): each is defined in its own file and listed here once.
#include <calib/operation.hpp>

namespace calib {

namespace detail {
const Operation& estimate_operation();  // operation_estimate.cpp
const Operation& test_operation();      // operation_test.cpp
const Operation& metrics_operation();   // operation_metrics.cpp
const Operation& reproduce_operation();  // operation_reproduce.cpp
}  // namespace detail

const std::vector<const Operation*>& operations() {
    static const std::vector<const Operation*> all{&detail::estimate_operation(), &detail::test_operation(),
                                                    &detail::metrics_operation(), &detail::reproduce_operation()};
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

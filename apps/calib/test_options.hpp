// The options of `calib test`: the method and the options that apply to it, parsed and checked
// before the input is read, then checked against the number of observations, and reported in the
// output.
#pragma once

#include "args.hpp"
#include "ece_options.hpp"
#include "shared_options.hpp"

#include <calib/hypothesis.hpp>
#include <calib/tool/json.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace calib::cli {

enum class Method {
    block, bootstrap, gamma, spectral, dfree_biased, dfree_unbiased, dfree_block, consistency, cme
};

struct TestPlan {
    Method method = Method::block;
    std::string method_name;                  // as on the command line
    BlockSizeChoice block_size;               // block, dfree-block, consistency with skce-block
    VarianceDivisor divisor = VarianceDivisor::s_minus_1;  // block
    bool null_variance = false;                            // block
    std::size_t replicates = 1000;            // bootstrap, spectral, consistency
    std::optional<std::size_t> memory_budget;  // bootstrap, bytes; empty: auto (the library's default)
    PValueRule rule = PValueRule::count;      // bootstrap, spectral, consistency
    std::optional<std::uint64_t> seed;        // set exactly for the methods that draw random numbers
    std::optional<double> alpha;              // --alpha
    std::string test_locations;               // cme with --test-locations FILE, else empty
    std::size_t num_locations = 0;            // cme: J given, or the number read from the file
    CmeReference reference = CmeReference::chi2;  // cme
    double ridge = 0;                             // cme
    std::string estimator;                    // consistency: ece or skce-*
    EceChoice ece;                            // consistency with ece

    bool uses_kernel() const { return !(method == Method::consistency && estimator == "ece"); }
    // "--method M", with the estimator for consistency: how messages name the choice.
    std::string context() const;
};

extern const char* const method_choices;

// Every option `calib test` knows, its own and the shared, kernel and ECE ones.
std::vector<OptionSpec> test_option_specs();

// Takes --method and the options that apply to it (not the input, kernel and thread options);
// throws usage_error for an unknown method, a bad value, or a method the family does not support.
TestPlan take_test_options(Args& args, Family family);

// Throws usage_error when the plan does not fit n observations (B > n, one block, n <= J; for
// --locations J, n <= 2J since the locations are removed from the sample).
void check_size(const TestPlan& plan, std::size_t n);

// Adds the options the method used that the result's details do not hold (block size rule, p-value
// rule, memory budget, CME reference and locations, the consistency estimator's options).
void add_plan_fields(JsonObject& out, const TestPlan& plan, std::size_t n);

}  // namespace calib::cli

// A front-end's given options as a list of (registry name, value) pairs, in the order given: the
// registry's GivenOptions for the tests of configure and of the operations.
#pragma once

#include <calib/registry.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace calib::test {

class MapOptions : public GivenOptions {
public:
    explicit MapOptions(std::vector<std::pair<std::string, Value>> values) : values_(std::move(values)) {}
    std::optional<Value> take(const OptionInfo& option) override {
        for (auto it = values_.begin(); it != values_.end(); ++it)
            if (it->first == option.name) {
                const Value v = it->second;
                values_.erase(it);
                return v;
            }
        return std::nullopt;
    }
    std::vector<std::string> left() const override {
        std::vector<std::string> names;
        for (const auto& [name, value] : values_) names.push_back(name);
        return names;
    }

private:
    std::vector<std::pair<std::string, Value>> values_;
};

}  // namespace calib::test

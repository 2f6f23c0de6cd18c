// Several models on the same labelled data (model_files.hpp).
#include "model_files.hpp"

#include "usage_error.hpp"

#include <calib/errors.hpp>
#include <calib/operation.hpp>

namespace calib::cli {

std::vector<std::string> take_model_files(const std::vector<std::string>& arguments, std::vector<std::string>& rest,
                                          const OperationInfo& operation) {
    std::vector<std::string> files;
    for (std::size_t i = 0; i < arguments.size(); ++i) {
        const std::string& a = arguments[i];
        if (a == "--input" || a.rfind("--input=", 0) == 0) {
            if (a != "--input") files.push_back(a.substr(8));
            while (i + 1 < arguments.size() && arguments[i + 1].rfind("--", 0) != 0) files.push_back(arguments[++i]);
            continue;
        }
        rest.push_back(a);
    }
    for (const std::string& f : files)
        if (f.empty()) throw usage_error("option --input has an empty file name");
    check_model_count(operation, files.size());
    return files;
}

}  // namespace calib::cli

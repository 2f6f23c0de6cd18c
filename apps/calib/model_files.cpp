// Several models on the same labelled data (model_files.hpp).
#include "model_files.hpp"

#include "usage_error.hpp"

#include <calib/errors.hpp>
#include <calib/registry.hpp>
#include <calib/tool/command.hpp>

namespace calib::cli {

std::vector<std::string> take_model_files(const std::vector<std::string>& arguments, std::vector<std::string>& rest,
                                          const std::string& command) {
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
    CommandSetup(command).check_models(files.size());
    return files;
}

void check_same_labels(const std::vector<CategoricalData>& models, const std::vector<std::string>& files,
                       const std::string& command) {
    const CategoricalData& first = models.front();
    const std::string same = "; " + command + " compares models evaluated on the same labelled data";
    for (std::size_t k = 1; k < models.size(); ++k) {
        const CategoricalData& d = models[k];
        if (d.size() != first.size())
            throw invalid_argument(files[k] + " has " + std::to_string(d.size()) + " observations but " + files[0] +
                                   " has " + std::to_string(first.size()) + same);
        if (d.num_classes() != first.num_classes())
            throw invalid_argument(files[k] + " has " + std::to_string(d.num_classes()) + " classes but " + files[0] +
                                   " has " + std::to_string(first.num_classes()) + same);
        for (std::size_t i = 0; i < d.size(); ++i)
            if (d.labels()[i] != first.labels()[i])
                throw invalid_argument(files[k] + ": observation " + std::to_string(i + 1) + " has label " +
                                           std::to_string(d.labels()[i]) + " but " + files[0] + " has label " +
                                           std::to_string(first.labels()[i]) + same,
                                       static_cast<long>(i));
    }
}

}  // namespace calib::cli

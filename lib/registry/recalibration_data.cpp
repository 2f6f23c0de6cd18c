// The data of a recalibration fit and the fit on it (registry.hpp, RecalibrationData,
// RecalibrationSetup::run): one way from the command line's files and Python's arrays to the library.
#include <calib/registry.hpp>

#include <calib/recalibration.hpp>

namespace calib {

namespace {

CategoricalScores rows_of(const CategoricalScores& data, const std::vector<std::size_t>& index) {
    CategoricalScores out{Matrix(static_cast<Eigen::Index>(index.size()), data.scores.cols()), {}, data.logits};
    for (std::size_t r = 0; r < index.size(); ++r) {
        out.scores.row(static_cast<Eigen::Index>(r)) = data.scores.row(static_cast<Eigen::Index>(index.at(r)));
        out.labels.push_back(data.labels.at(index[r]));
    }
    return out;
}

NormalData rows_of(const NormalData& data, const std::vector<std::size_t>& index) { return subset(data, index); }

}  // namespace

std::size_t RecalibrationData::size() const {
    if (const auto* scores = std::get_if<CategoricalScores>(&data)) return scores->labels.size();
    return std::get<NormalData>(data).size();
}

RecalibrationData RecalibrationData::rows(const std::vector<std::size_t>& index) const {
    if (features.size() > 0 && static_cast<std::size_t>(features.rows()) != size())
        throw invalid_argument("`features` has " + std::to_string(features.rows()) + " rows, the data " +
                               std::to_string(size()));
    RecalibrationData out;
    out.data = std::visit([&](const auto& d) -> decltype(data) { return rows_of(d, index); }, data);
    if (features.size() > 0) {
        out.features.resize(static_cast<Eigen::Index>(index.size()), features.cols());
        for (std::size_t r = 0; r < index.size(); ++r)
            out.features.row(static_cast<Eigen::Index>(r)) = features.row(static_cast<Eigen::Index>(index[r]));
    }
    return out;
}

RecalibrationFit RecalibrationSetup::run(const RecalibrationData& input) const {
    const bool given = input.features.size() > 0;
    check_features(given);
    if (given) check_features(input.features, input.size());
    if (const auto* scores = std::get_if<CategoricalScores>(&input.data))
        return fit_recalibration(*scores, method(), fit_options());
    const NormalData& normal = std::get<NormalData>(input.data);
    return given ? fit_recalibration(normal, input.features, method(), fit_options())
                 : fit_recalibration(normal, method(), fit_options());
}

}  // namespace calib

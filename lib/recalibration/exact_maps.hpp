// Internal: the recalibration maps fitted exactly rather than by L-BFGS (recalibration.hpp's methods
// with parametric = false: isotonic, histogram, venn-abers), each a row of functions, so that fit.cpp,
// objective.cpp and map_json.cpp call the row instead of switching on the method. Adding such a map is
// its file and its row here (docs/architecture.md, "How to add a recalibration method").
#pragma once

#include <calib/recalibration.hpp>

#include <string>
#include <vector>

namespace calib::detail {

struct ExactMap {
    RecalibrationMethod method;
    // Fits the map (its method, num_classes, logits and floor set) on checked options, and says how it went.
    FitSummary (*fit)(RecalibrationMap& map, const CategoricalScores& data, const RecalibrationOptions& options);
    // The n×m recalibrated probabilities of scores (the map's input, checked against its m), and their
    // mean −log max(q_y, floor) on labelled scores.
    Matrix (*apply)(const RecalibrationMap& map, const Matrix& scores);
    double (*nll)(const RecalibrationMap& map, const CategoricalScores& data);
    // Its lists in the map file's "parameters": written from a map; named for a map of m classes and read
    // back in that order.
    std::vector<NamedParameter> (*parameters)(const RecalibrationMap& map);
    std::vector<std::string> (*parameter_names)(int num_classes);
    void (*set_parameters)(RecalibrationMap& map, const std::vector<std::vector<double>>& lists);
    // What makes a read map unusable ("" when usable).
    std::string (*problem)(const RecalibrationMap& map);
};

// The row of an exact map, nullptr for a parametric one.
const ExactMap* exact_map(RecalibrationMethod method);

}  // namespace calib::detail

// Internal: the recalibration maps not fitted by L-BFGS on the joint objective of objective.hpp — the
// exact ones (recalibration.hpp's methods with parametric = false: isotonic, top-label-isotonic, histogram, venn-abers) and
// Platt scaling of m > 2 classes (one-vs-rest, fitted class by class) — each a row of functions, so
// that fit.cpp, objective.cpp and map_json.cpp call the row instead of switching on the method. Adding
// such a map is its file and its row here (docs/architecture.md, "How to add a recalibration method").
#pragma once

#include <calib/recalibration.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace calib::detail {

struct MapKind {
    RecalibrationMethod method;
    // Fits the map (its method, num_classes, logits and floor set) on checked options, and says how it went.
    FitSummary (*fit)(RecalibrationMap& map, const CategoricalScores& data, const RecalibrationOptions& options);
    // The n×m recalibrated probabilities of scores (the map's input, checked against its m); their
    // NLL is recalibrated_nll's, from these.
    Matrix (*apply)(const RecalibrationMap& map, const Matrix& scores);
    // Its lists in the map file's "parameters": written from a map; named for a map of m classes and read
    // back in that order.
    std::vector<NamedParameter> (*parameters)(const RecalibrationMap& map);
    std::vector<std::string> (*parameter_names)(int num_classes);
    void (*set_parameters)(RecalibrationMap& map, const std::vector<std::vector<double>>& lists);
    // What makes a read map unusable ("" when usable).
    std::string (*problem)(const RecalibrationMap& map);
    // A map whose lists are about as long as its calibration set (venn-abers' table) is the map file's
    // alone: the fit's record shows this count of it instead (nullptr: the record shows the lists).
    const char* record_count_name;
    std::size_t (*record_count)(const RecalibrationMap& map);
};

// The row of the method's map of m classes, nullptr for a map fitted on the joint objective.
const MapKind* map_kind(RecalibrationMethod method, int num_classes);

}  // namespace calib::detail

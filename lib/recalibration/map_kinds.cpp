// The rows of the maps not fitted on the joint objective (map_kinds.hpp).
#include "recalibration/map_kinds.hpp"

#include "recalibration/histogram_map.hpp"
#include "recalibration/isotonic_map.hpp"
#include "recalibration/platt_one_vs_rest.hpp"
#include "recalibration/top_label_isotonic.hpp"
#include "recalibration/venn_abers_map.hpp"

namespace calib::detail {

const MapKind* map_kind(RecalibrationMethod method, int num_classes) {
    static const MapKind platt_one_vs_rest = {RecalibrationMethod::platt, fit_platt_one_vs_rest, apply_platt_one_vs_rest,
                                              platt_one_vs_rest_parameters,
                                              platt_one_vs_rest_parameter_names, set_platt_one_vs_rest_parameters,
                                              platt_one_vs_rest_problem, nullptr, nullptr};
    if (method == RecalibrationMethod::platt) return num_classes > 2 ? &platt_one_vs_rest : nullptr;
    static const MapKind maps[] = {
        {RecalibrationMethod::isotonic, fit_isotonic, apply_isotonic, isotonic_parameters,
         isotonic_parameter_names, set_isotonic_parameters, curves_problem, nullptr, nullptr},
        {RecalibrationMethod::top_label_isotonic, fit_top_label_isotonic, apply_top_label_isotonic,
         top_label_isotonic_parameters, top_label_isotonic_parameter_names,
         set_top_label_isotonic_parameters, top_label_curves_problem, nullptr, nullptr},
        {RecalibrationMethod::histogram, fit_histogram, apply_histogram, histogram_parameters,
         histogram_parameter_names, set_histogram_parameters, bins_problem, nullptr, nullptr},
        {RecalibrationMethod::venn_abers, fit_venn_abers, apply_venn_abers, venn_abers_parameters,
         venn_abers_parameter_names, set_venn_abers_parameters, venn_abers_problem, "distinct_scores",
         [](const RecalibrationMap& map) { return map.venn_abers.scores.size(); }},
    };
    for (const MapKind& map : maps)
        if (map.method == method) return &map;
    return nullptr;
}

}  // namespace calib::detail
